/**
 * The bearer token never leaves through an error: message, cause, request, inspect or JSON
 * output, for every kind of failure — even when the server echoes it back.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudApiError } from '../../src/cloud/errors.js';
import { safeCause, transportFailure } from '../../src/cloud/transport-failures.js';
import { closedPort, ok, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { TOKEN, clientFor as makeClient, cloudError } from './helpers.js';

let server: FakeServer;
const open: { close(): Promise<void> }[] = [];
const clientFor = (...args: Parameters<typeof makeClient>) => {
  const c = makeClient(...args);
  open.push(c);
  return c;
};
beforeAll(async () => {
  server = await startFakeServer();
});
afterAll(async () => {
  await Promise.all(open.map((c) => c.close()));
  await server.close();
});

function expectNoToken(err: CloudApiError): void {
  const views = [
    err.message,
    String(err),
    err.stack ?? '',
    JSON.stringify(err),
    JSON.stringify(err.cause ?? null),
    inspect(err, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
    inspect(err.cause, { depth: Number.POSITIVE_INFINITY, showHidden: true }),
  ];
  for (const view of views) {
    expect(view).not.toContain(TOKEN);
    expect(view).not.toMatch(/Bearer\s+(?!\[redacted\])\S/i);
  }
}

describe('no error carries the token', () => {
  it('an error envelope that echoes the Authorization header back', async () => {
    server.script('GET', '/servers/1/status', {
      status: 401,
      body: { error: { code: 'INVALID_TOKEN', message: `Token ${TOKEN} is not valid`, details: { header: `Bearer ${TOKEN}` } } },
    });
    const err = await cloudError(clientFor(server).servers.status('1'));
    expect(err.code).toBe('INVALID_TOKEN');
    expect(err.message).toBe('Token [redacted] is not valid');
    expectNoToken(err);
  });

  it.each([
    ['HTTP_ERROR', { status: 502, raw: `<pre>Authorization: Bearer ${TOKEN}</pre>` }],
    ['INVALID_RESPONSE (not JSON)', { status: 200, raw: `oops ${TOKEN}` }],
    ['INVALID_RESPONSE (shape)', { status: 200, body: { data: { username: TOKEN, password_status: 5 } } }],
  ])('%s', async (_, canned) => {
    server.script('GET', '/servers/2/credentials', canned);
    const err = await cloudError(clientFor(server, { retry: { maxAttempts: 1 } }).servers.credentials('2'));
    expectNoToken(err);
  });

  it('NETWORK_ERROR', async () => {
    const port = await closedPort();
    const err = await cloudError(clientFor(server, { baseUrl: `http://127.0.0.1:${port}/v2` }).sshKeys.delete(1));
    expect(err.code).toBe('NETWORK_ERROR');
    expectNoToken(err);
  });

  it('TIMEOUT after the retry budget, ABORTED, INVALID_IDENTIFIER', async () => {
    server.script('GET', '/account/usage', { status: 503, raw: '' });
    const c = clientFor(server, { retry: { budgetMs: 0 } });
    const timeout = await cloudError(c.account.usage());
    expect(timeout.code).toBe('TIMEOUT');
    expectNoToken(timeout);
    const aborted = await cloudError(c.account.usage({ signal: AbortSignal.abort() }));
    expect(aborted.code).toBe('ABORTED');
    expectNoToken(aborted);
    const refused = await cloudError(c.servers.status(TOKEN));
    expect(refused.code).toBe('INVALID_IDENTIFIER');
    expect(refused.message).toMatch(/^“\[redacted\]” is not a server id/);
    expectNoToken(refused);
    const refusedInIterator = await cloudError((async () => {
      for await (const b of c.backups.all(`x${TOKEN}`)) void b;
    })());
    expectNoToken(refusedInIterator);
  });

  it('undici errors that carry headers are reduced to name, code and message', () => {
    const undiciLike = Object.assign(new Error(`request failed: ${TOKEN}`), {
      name: 'ResponseError',
      code: 'UND_ERR_RESPONSE',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { token: TOKEN },
    });
    const cause = safeCause(undiciLike, TOKEN);
    expect(cause).toEqual({ name: 'ResponseError', code: 'UND_ERR_RESPONSE', message: 'request failed: [redacted]' });
    const { error, transient } = transportFailure(undiciLike, 'GET /x', TOKEN);
    expect(transient).toBe(false);
    expect(error.code).toBe('NETWORK_ERROR');
    expectNoToken(error);
  });

  it('classifies undici timeout errors and aggregate connect errors', () => {
    for (const code of ['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']) {
      const e = Object.assign(new Error('t'), { code });
      expect(transportFailure(e, 'GET /x', TOKEN)).toMatchObject({ error: { code: 'TIMEOUT' }, transient: true });
    }
    const aggregate = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1'), { code: 'ECONNREFUSED' })], '');
    expect(transportFailure(aggregate, 'GET /x', TOKEN)).toMatchObject({ error: { code: 'NETWORK_ERROR', cause: { code: 'ECONNREFUSED' } }, transient: true });
  });

  it('requests still carry it where it belongs', async () => {
    server.script('GET', '/account/usage', ok({}));
    await clientFor(server).account.usage();
    expect(server.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });
});
