/**
 * The auditor: store + exactly one log line + the audit channel per policy; no sink failure
 * reaches the caller. Real SQLite file, captured logger, recording Slack, manual clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditor, DEFAULT_POST_TIERS, MAX_QUEUED_POSTS, sanitizeArgs } from '../../src/audit/auditor.js';
import type { AuditorOptions } from '../../src/audit/auditor.js';
import { createManualClock, type ManualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log.js';
import { SlackApiError } from '../../src/chat/slack-api.js';
import type { AuditStore, Store } from '../../src/store/index.js';
import { assertBlockKitValid } from '../rig/block-kit-limits.js';
import { tempStores } from '../store/helpers.js';
import { capturedLogger, newEntry, recordingSlack, T0, type RecordingSlack } from './helpers.js';

const AUDIT = 'C_AUDIT';
let t: ReturnType<typeof tempStores>;
let store: Store;
let clock: ManualClock;
let log: ReturnType<typeof capturedLogger>;
let slack: RecordingSlack;

beforeEach(() => {
  t = tempStores();
  store = t.open(t.file());
  clock = createManualClock(T0);
  log = capturedLogger();
  slack = recordingSlack();
});
afterEach(async () => {
  await t.cleanup();
});

function auditor(over: Partial<AuditorOptions> = {}) {
  return createAuditor({ store: store.audit, logger: log.logger, slack, auditChannel: AUDIT, clock, ...over });
}

const auditLines = () => log.lines.filter((l) => l.msg === 'audit');

describe('record', () => {
  it('stores the entry, stamped with the clock, and writes exactly one structured log line', async () => {
    const a = auditor();
    await clock.advance(1234);
    await a.record(newEntry({ tier: 'read', opId: 'server.status', args: { server: 'srv-1' }, durationMs: 40 }));
    await a.flush();

    const [stored, ...rest] = await store.audit.list({ limit: 10 });
    expect(rest).toEqual([]);
    expect(stored).toMatchObject({ at: T0 + 1234, opId: 'server.status', tier: 'read', args: { server: 'srv-1' }, durationMs: 40 });

    expect(log.lines).toHaveLength(1);
    const line = log.lines[0]!;
    expect(line).toMatchObject({ level: 'info', msg: 'audit' });
    expect(line.audit).toEqual(stored);
  });

  it('fills every optional field with null in the store and the log line', async () => {
    const a = auditor();
    await a.record({ userId: 'U1', opId: 'plan.list', tier: 'read', args: {}, outcome: 'succeeded' });
    const [e] = await a.list({ limit: 1 });
    expect(e).toEqual({
      id: e!.id,
      at: T0,
      userId: 'U1',
      channelId: null,
      opId: 'plan.list',
      tier: 'read',
      args: {},
      outcome: 'succeeded',
      errorCode: null,
      confirmedBy: null,
      approvedBy: null,
      operationId: null,
      durationMs: null,
      detail: null,
      account: null,
    });
    expect(auditLines()[0]!.audit).toEqual(e);
  });

  it('keeps the account acted on, in the store and the log line', async () => {
    const a = auditor();
    await a.record(newEntry({ tier: 'read', opId: 'server.status', account: 'acme-staging' }));
    const [e] = await a.list({ limit: 1 });
    expect(e).toMatchObject({ opId: 'server.status', account: 'acme-staging' });
    expect(auditLines()[0]!.audit).toEqual(e);
  });

  it('masks a secret that slipped into the args, in the store, the log and the post', async () => {
    const a = auditor();
    await a.record(
      newEntry({
        tier: 'destroy',
        args: { server: 'srv-1', root_password: 'hunter2hunter2', nested: { apiToken: 'tok-123456789', keep: 'ok' } },
      }),
    );
    await a.flush();
    const [e] = await a.list({ limit: 1 });
    expect(e!.args).toEqual({ server: 'srv-1', root_password: '••••••', nested: { apiToken: '••••••', keep: 'ok' } });
    const everything = JSON.stringify([log.raw, slack.posts, e]);
    expect(everything).not.toContain('hunter2');
    expect(everything).not.toContain('tok-123456789');
  });

  it('makes odd args plain JSON (bigint, Date, functions, cycles, long strings)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const out = sanitizeArgs({
      big: 10n,
      when: new Date(T0),
      fn: () => 1,
      gone: undefined,
      inf: Number.POSITIVE_INFINITY,
      list: [undefined, 1],
      cyclic,
      long: 'x'.repeat(5000),
    });
    expect(out).toMatchObject({ big: '10', when: '2026-11-22T12:00:00.000Z', inf: 'Infinity', list: [null, 1], cyclic: { a: 1, self: '[…]' } });
    expect(out).not.toHaveProperty('fn');
    expect(out).not.toHaveProperty('gone');
    expect((out.long as string).length).toBe(1000);
    expect(sanitizeArgs(null)).toEqual({});
    expect(sanitizeArgs(['a'])).toEqual({});
  });

  it('records args the store could not take as JSON once sanitized (bigint)', async () => {
    const a = auditor();
    await a.record(newEntry({ args: { size: 2n ** 70n } }));
    const [e] = await a.list({ limit: 1 });
    expect(e!.args).toEqual({ size: '1180591620717411303424' });
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});

describe('posting to the audit channel', () => {
  it('by default posts every non-read entry and every refusal, but not plain reads', async () => {
    const a = auditor();
    const cases = [
      newEntry({ opId: 'server.status', tier: 'read', outcome: 'succeeded' }),
      newEntry({ opId: 'server.status', tier: 'read', outcome: 'failed', errorCode: 'NOT_FOUND' }),
      newEntry({ opId: 'server.status', tier: 'read', outcome: 'refused', errorCode: 'CHANNEL_NOT_ALLOWED' }),
      newEntry({ opId: 'server.rename', tier: 'change', outcome: 'requested' }),
      newEntry({ opId: 'ip.reserve', tier: 'billing', outcome: 'succeeded' }),
      newEntry({ opId: 'server.reinstall', tier: 'destroy', outcome: 'cancelled' }),
      newEntry({ opId: 'server.credentials', tier: 'secret', outcome: 'succeeded' }),
    ];
    for (const c of cases) await a.record(c);
    await a.flush();

    expect(DEFAULT_POST_TIERS).toEqual(['change', 'billing', 'destroy', 'secret']);
    expect(slack.posts.map((p) => p.channel)).toEqual(Array(5).fill(AUDIT));
    // In the order recorded.
    expect(slack.posts.map((p) => p.text)).toEqual([
      'Audit: `U_ALICE` `/cloud server status` — refused (`CHANNEL_NOT_ALLOWED`)',
      'Audit: `U_ALICE` `/cloud server rename` — requested',
      'Audit: `U_ALICE` `/cloud ip reserve` — succeeded',
      'Audit: `U_ALICE` `/cloud server reinstall` — cancelled',
      'Audit: `U_ALICE` `/cloud server credentials` — succeeded',
    ]);
    for (const p of slack.posts) assertBlockKitValid({ text: p.text, blocks: p.blocks });
    // Everything stored and logged, posted or not.
    expect(await a.list({ limit: 50 })).toHaveLength(cases.length);
    expect(auditLines()).toHaveLength(cases.length);
    expect(log.lines).toHaveLength(cases.length);
  });

  it('posts by configured tiers (refusals always)', async () => {
    const a = auditor({ postTiers: ['read', 'destroy'] });
    await a.record(newEntry({ opId: 'server.status', tier: 'read' }));
    await a.record(newEntry({ opId: 'server.rename', tier: 'change' }));
    await a.record(newEntry({ opId: 'server.rename', tier: 'change', outcome: 'refused', errorCode: 'ACCESS_DENIED' }));
    await a.record(newEntry({ opId: 'server.reinstall', tier: 'destroy' }));
    await a.flush();
    expect(slack.posts.map((p) => p.text)).toEqual([
      'Audit: `U_ALICE` `/cloud server status` — succeeded',
      'Audit: `U_ALICE` `/cloud server rename` — refused (`ACCESS_DENIED`)',
      'Audit: `U_ALICE` `/cloud server reinstall` — succeeded',
    ]);
  });

  it('posts nothing without an audit channel (or without Slack), and says so once for a channel without Slack', async () => {
    const none = auditor({ auditChannel: undefined });
    await none.record(newEntry());
    await none.flush();
    expect(slack.calls).toBe(0);
    expect(log.lines.map((l) => l.level)).toEqual(['info']);

    const noSlack = auditor({ slack: undefined });
    await noSlack.record(newEntry());
    await noSlack.flush();
    expect(log.lines.map((l) => `${l.level} ${l.msg}`)).toEqual([
      'info audit',
      'warn audit channel set but no Slack API: entries are not posted',
      'info audit',
    ]);
  });

  it('a failing post (not_in_channel) never throws and is warned about once, until a post works again', async () => {
    const a = auditor();
    slack.mode = new SlackApiError('not_in_channel', 'chat.postMessage');
    await expect(a.record(newEntry())).resolves.toBeUndefined();
    await a.flush();
    const warnings = () => log.lines.filter((l) => l.level === 'warn');
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ code: 'not_in_channel', auditChannel: AUDIT, opId: 'server.reinstall' });
    expect(warnings()[0]!.msg).toMatch(/invite the bot/);

    await a.record(newEntry());
    await a.record(newEntry());
    await a.flush();
    expect(slack.calls).toBe(3);
    expect(warnings()).toHaveLength(1);
    expect(await a.list({ limit: 10 })).toHaveLength(3);

    slack.mode = 'ok';
    await a.record(newEntry());
    await a.flush();
    expect(slack.posts).toHaveLength(1);
    expect(log.lines.some((l) => l.msg === 'audit channel posts work again')).toBe(true);

    slack.mode = new Error('socket hang up');
    await a.record(newEntry());
    await a.flush();
    expect(warnings()).toHaveLength(2);
    expect(warnings()[1]).toMatchObject({ code: 'Error', error: { name: 'Error', message: 'socket hang up' } });
  });

  it('does not wait for Slack: record resolves while the post hangs, and a backlog is capped', async () => {
    const a = auditor();
    slack.mode = 'hang';
    await a.record(newEntry());
    expect(slack.calls).toBe(1);
    expect(await a.list({ limit: 1 })).toHaveLength(1);

    for (let i = 0; i < MAX_QUEUED_POSTS + 5; i++) await a.record(newEntry());
    expect(await a.list({ limit: 500 })).toHaveLength(MAX_QUEUED_POSTS + 6);
    const backlog = log.lines.filter((l) => l.level === 'warn');
    expect(backlog).toHaveLength(1);
    expect(backlog[0]!.msg).toMatch(/backing up/);
  });
});

describe('failing sinks', () => {
  it('a failing store write does not throw: logged as an error, and the entry still logged and posted', async () => {
    const broken: AuditStore = {
      insert: async () => {
        throw new Error('SQLITE_FULL: database or disk is full');
      },
      insertMany: async () => {
        throw new Error('SQLITE_FULL: database or disk is full');
      },
      list: async () => [],
    };
    const a = auditor({ store: broken });
    await expect(a.record(newEntry({ detail: 'reinstall requested' }))).resolves.toBeUndefined();
    await a.flush();
    const errors = log.lines.filter((l) => l.level === 'error');
    expect(errors).toHaveLength(1);
    // Not a StoreUnavailableError: a refusal, not retried, but the whole entry is in the error line.
    expect(errors[0]).toMatchObject({
      msg: 'audit store refused the entry: it is only in the log',
      error: { message: 'SQLITE_FULL: database or disk is full' },
      audit: { opId: 'server.reinstall', detail: 'reinstall requested' },
    });
    expect(auditLines()).toHaveLength(1);
    expect(auditLines()[0]!.audit).toMatchObject({ id: null, opId: 'server.reinstall', detail: 'reinstall requested' });
    expect(slack.posts).toHaveLength(1);
  });

  it('a closed database does not throw either', async () => {
    const a = auditor();
    await store.close();
    await expect(a.record(newEntry())).resolves.toBeUndefined();
    expect(log.lines.filter((l) => l.level === 'error')).toHaveLength(1);
  });

  it('a store that throws synchronously, or a broken log sink, does not throw', async () => {
    const sync = { insert: () => { throw new TypeError('boom'); }, list: async () => [] } as unknown as AuditStore;
    await expect(auditor({ store: sync }).record(newEntry())).resolves.toBeUndefined();

    const logger = createLogger({ sink: () => { throw new Error('stdout closed'); } });
    const a = auditor({ logger });
    await expect(a.record(newEntry())).resolves.toBeUndefined();
    await a.flush();
    expect(slack.posts).toHaveLength(2); // one for each entry: the store failure did not stop the post
    expect(await a.list({ limit: 5 })).toHaveLength(1);
  });

  it('an entry that cannot even be read is logged, not thrown', async () => {
    const a = auditor();
    await expect(a.record(null as never)).resolves.toBeUndefined();
    expect(log.lines.map((l) => l.msg)).toEqual(['audit entry unreadable; not recorded']);
  });
});

describe('list', () => {
  it('reads from the store, newest first, filtered and clamped', async () => {
    const a = auditor();
    await a.record(newEntry({ userId: 'U_A', opId: 'a.first' }));
    await clock.advance(10);
    await a.record(newEntry({ userId: 'U_B', opId: 'b.second' }));
    await clock.advance(10);
    await a.record(newEntry({ userId: 'U_A', opId: 'a.third' }));
    expect((await a.list({ limit: 10 })).map((e) => e.opId)).toEqual(['a.third', 'b.second', 'a.first']);
    expect((await a.list({ userId: 'U_A', limit: 10 })).map((e) => e.opId)).toEqual(['a.third', 'a.first']);
    expect((await a.list({ limit: 0 })).map((e) => e.opId)).toEqual(['a.third']);
  });
});
