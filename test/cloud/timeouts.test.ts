/**
 * Undici timeouts. Its headers timer ticks at about one second whatever the setting, so these
 * run concurrently, each with its own server, to cost that second once.
 */
import { describe, expect, it } from 'vitest';
import { ok, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { clientFor, cloudError } from './helpers.js';

async function withServer(run: (server: FakeServer) => Promise<void>): Promise<void> {
  const server = await startFakeServer();
  try {
    await run(server);
  } finally {
    await server.close();
  }
}

describe.concurrent('timeouts', () => {
  it('a server that never answers gives TIMEOUT after headersMs', () =>
    withServer(async (server) => {
      server.script('GET', '/account/usage', { hang: true });
      const c = clientFor(server, { timeouts: { headersMs: 50 }, retry: { maxAttempts: 1 } });
      const err = await cloudError(c.account.usage());
      await c.close();
      expect(err).toMatchObject({ status: 0, code: 'TIMEOUT', request: 'GET /account/usage' });
      expect(err.message).toMatch(/timed out while waiting for the response/);
      expect(err.cause).toMatchObject({ name: 'HeadersTimeoutError', code: 'UND_ERR_HEADERS_TIMEOUT' });
    }));

  it('a GET is retried after a headers timeout and can then succeed', () =>
    withServer(async (server) => {
      server.script('GET', '/account/usage', { hang: true }, ok({ servers: 3 }));
      const c = clientFor(server, { timeouts: { headersMs: 50 } });
      expect(await c.account.usage()).toEqual({ servers: 3 });
      await c.close();
      expect(server.requests).toHaveLength(2);
    }));

  it('a POST that times out is not retried', () =>
    withServer(async (server) => {
      server.script('POST', '/servers/1/backups', { hang: true });
      const c = clientFor(server, { timeouts: { headersMs: 50 } });
      expect((await cloudError(c.backups.create('1', {}))).code).toBe('TIMEOUT');
      await c.close();
      expect(server.requests).toHaveLength(1);
    }));
});
