import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';

describe('createLogger', () => {
  const capture = (secrets: string[] = []) => {
    const lines: string[] = [];
    const log = createLogger({ secrets, sink: (l) => lines.push(l), now: () => 0 });
    return { log, lines };
  };

  it('writes one JSON object per line with fields', () => {
    const { log, lines } = capture();
    log.child({ op: 'server.status' }).info('done', { ms: 12 });
    expect(JSON.parse(lines[0]!)).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'done', op: 'server.status', ms: 12 });
  });

  it('masks configured secrets, Slack tokens, bearer headers and password fields', () => {
    const { log, lines } = capture(['cloud-token-123456']);
    log.warn('oops cloud-token-123456', {
      header: 'Bearer abc.def',
      slack: ['xoxb', '1234', '5678', 'abcdefghijklmnop'].join('-'), // built at run time: no token-like literal in the repo
      body: { root_password: 'hunter2hunter2', password: 'p@ss"word' },
      url: 'https://x/?token=zzz',
    });
    const line = lines.join('\n');
    for (const secret of ['cloud-token-123456', 'abc.def', 'xoxb-1234', 'hunter2hunter2', 'p@ss', 'zzz']) expect(line).not.toContain(secret);
    expect(line).toContain('[redacted]');
  });

  it('masks response_urls and trigger_ids like tokens: whoever holds one may post as the bot (30 min) or open its forms', () => {
    const { log, lines } = capture();
    // Built at run time: no hook-like literal in the repo.
    const hook = ['https://hooks.slack.com', 'commands', 'T0CLOUD01', '7382910364', 'Xk3bq9Rw0tLpZ2vH8sYc'].join('/');
    const action = ['https://hooks.slack.com', 'actions', 'T0CLOUD01', '7382910365', 'a1B2c3D4e5F6g7H8i9J0'].join('/');
    const trigger = ['13345224609', '738474920', '8088930838d88f008e0'].join('.');
    log.warn(`could not answer through ${hook}`, {
      body: { response_url: 'http://127.0.0.1:4567/r/loopback-url-1', trigger_id: 'opaque-trigger-2', response_urls: [{ response_url: action }], interactivity_pointer: 'opaque-pointer-3' },
      quoted: JSON.stringify({ response_url: 'http://127.0.0.1:4567/r/loopback-url-4', trigger_id: 'opaque-trigger-5' }),
      form: `response_url=${encodeURIComponent('http://127.0.0.1:4567/r/loopback-url-6')}&trigger_id=opaque-trigger-7`,
      bare: `views.open with ${trigger} failed`,
    });
    const line = lines.join('\n');
    for (const secret of ['Xk3bq9Rw0tLpZ2vH8sYc', 'a1B2c3D4e5F6g7H8i9J0', '8088930838d88f008e0', 'loopback-url', 'opaque-']) expect(line).not.toContain(secret);
    // What it was stays readable: the field, and Slack's host.
    expect(JSON.parse(line)).toMatchObject({ body: { response_url: '[redacted]', trigger_id: '[redacted]' } });
    expect(line).toContain('hooks.slack.com');
  });

  it('masks a secret learned later in every logger sharing it', () => {
    const { log, lines } = capture();
    const child = log.child({ a: 1 });
    log.addSecret('Tr0ub4dor&3');
    child.info('the new password is Tr0ub4dor&3');
    expect(lines[0]).not.toContain('Tr0ub4dor');
  });

  it('masks a secret holding a quote or a backslash, as the JSON line writes it (escaped once, or twice inside a quoted JSON text)', () => {
    const { log, lines } = capture();
    const password = 'Pa"ss\\w0rd!'; // Pa"ss\w0rd! : a person's root password with symbols
    log.addSecret(password);
    log.info(`typed ${password}`, { echoed: { message: `'${password}' is too weak` }, quoted: JSON.stringify({ value: password }) });
    const line = lines[0]!;
    expect(JSON.parse(line)).toMatchObject({ msg: 'typed [redacted]', echoed: { message: "'[redacted]' is too weak" } });
    for (const part of ['Pa', 'w0rd']) expect(line).not.toContain(part);
  });

  it('logs errors by name and message only', () => {
    const { log, lines } = capture();
    log.error('failed', { error: Object.assign(new Error('boom'), { code: 'X', headers: { authorization: 'Bearer t' } }) });
    expect(JSON.parse(lines[0]!).error).toEqual({ name: 'Error', message: 'boom', code: 'X' });
  });

  it('drops lines below the level', () => {
    const lines: string[] = [];
    createLogger({ level: 'warn', sink: (l) => lines.push(l) }).info('quiet');
    expect(lines).toHaveLength(0);
  });

  it('adds the fields of the request in force (trace_id, span_id) to every line, children too, and still redacts the whole line', () => {
    const lines: string[] = [];
    let current: Record<string, unknown> | undefined = { trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) };
    const log = createLogger({ secrets: ['cloud-token-123456'], sink: (l) => lines.push(l), now: () => 0, context: () => current });
    log.child({ component: 'watcher' }).info('poll cloud-token-123456');
    current = undefined; // outside any request
    log.info('idle');
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'poll [redacted]', component: 'watcher', trace_id: 'a'.repeat(32), span_id: 'b'.repeat(16) });
    expect(JSON.parse(lines[1]!)).not.toHaveProperty('trace_id');
  });
});
