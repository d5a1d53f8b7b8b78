/**
 * Transport behaviour against sandbox faults: which failures are retried and after how long
 * (on the shared manual clock, so no real waiting), dropped connections, timeouts (real
 * time: undici's header timer), unreadable answers — and the token in none of the errors.
 */
import { inspect } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CloudApiError } from '../../src/cloud/errors.js';
import { TOKEN, cloudError, expectNoToken, startRig } from './helpers.js';
import type { Rig } from './helpers.js';

let rig: Rig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  await rig.close();
});

/** Every error this file sees, checked for the token at the end. */
const produced: CloudApiError[] = [];
async function failure(promise: Promise<unknown>): Promise<CloudApiError> {
  const err = await cloudError(promise);
  produced.push(err);
  return err;
}

afterAll(() => {
  expect(produced.length).toBeGreaterThanOrEqual(20);
  for (const err of produced) {
    expect(err.message).not.toContain(TOKEN);
    expect(inspect(err, { depth: Infinity, showHidden: true })).not.toContain(TOKEN);
    expect(JSON.stringify(err)).not.toContain(TOKEN);
    expectNoToken(err);
  }
});

const lines = () => rig.sandbox.requests.map((r) => `${r.method} ${r.rawPath}`);
const gaps = () => rig.sandbox.requests.slice(1).map((r, i) => r.at - (rig.sandbox.requests[i]?.at ?? 0));

describe('retries', () => {
  it('a GET is retried after a 503 and succeeds', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/status', status: 503 });
    expect(await rig.client.servers.status('101')).toMatchObject({ state: 'running' });
    expect(lines()).toEqual(['GET /v2/servers/101/status', 'GET /v2/servers/101/status']);
    expect(rig.client.clock.sleeps).toEqual([125]); // full jitter at 0.5 of the 250 ms ceiling
    expect(gaps()).toEqual([125]);
    expect(rig.client.events.filter((e) => e.type === 'retry')).toEqual([
      { type: 'retry', method: 'GET', path: '/servers/101/status', attempt: 1, ms: 125, code: 'SERVICE_UNAVAILABLE', status: 503 },
    ]);
  });

  it('a GET answered 429 with Retry-After: 3 waits 3000 ms on the clock, then succeeds', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/account/usage', status: 429, retryAfter: 3 });
    const t0 = rig.clock.now();
    expect((await rig.client.account.usage()).servers).toBe(4);
    expect(rig.sandbox.requests).toHaveLength(2);
    expect(rig.client.clock.sleeps).toEqual([3000]);
    expect(gaps()).toEqual([3000]);
    expect(rig.clock.now() - t0).toBe(3000);
  });

  it('a GET that keeps failing gives up after 4 attempts with growing backoff', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/ssh-keys', status: 503, times: Infinity });
    const err = await failure(rig.client.sshKeys.list());
    expect(err).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', request: 'GET /ssh-keys' });
    expect(rig.sandbox.requests).toHaveLength(4);
    expect(rig.client.clock.sleeps).toEqual([125, 250, 500]);
  });

  it('a Retry-After beyond the retry budget is not waited for', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/plans', status: 429, retryAfter: 30 });
    const err = await failure(rig.client.plans.list());
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 30_000 });
    expect(rig.sandbox.requests).toHaveLength(1);
    expect(rig.client.clock.sleeps).toEqual([]);
  });

  it('Retry-After as an HTTP date is read against the client’s clock', async () => {
    const at = new Date(rig.clock.now() + 2000).toUTCString(); // "Sun, 22 Nov 2026 12:00:02 GMT"
    rig.sandbox.addFault({ method: 'GET', path: '/workers/locations', status: 503, retryAfter: at });
    expect(await rig.client.workers.locations()).toHaveLength(3);
    expect(rig.client.clock.sleeps).toEqual([2000]);
    expect(gaps()).toEqual([2000]);
  });

  it('repeated Retry-After waits stop at the retry budget (8 s) with the last refusal', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/account/usage', status: 429, retryAfter: 3, times: Infinity });
    const err = await failure(rig.client.account.usage());
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 3000 });
    expect(rig.client.clock.sleeps).toEqual([3000, 3000]); // a third wait would end at 9 s
    expect(rig.sandbox.requests).toHaveLength(3);
  });

  it('an abort during a Retry-After wait ends the call: ABORTED, one request', async () => {
    const controller = new AbortController();
    const c = rig.clientWith({ onEvent: (e) => e.type === 'retry' && controller.abort() });
    rig.sandbox.addFault({ method: 'GET', path: '/ssh-keys', status: 429, retryAfter: 2 });
    const err = await failure(c.sshKeys.list({ signal: controller.signal }));
    expect(err).toMatchObject({ status: 0, code: 'ABORTED', request: 'GET /ssh-keys' });
    expect(rig.sandbox.requests).toHaveLength(1);
  });

  it('an already aborted signal, or a closed client, sends nothing', async () => {
    expect((await failure(rig.client.account.usage({ signal: AbortSignal.abort() }))).code).toBe('ABORTED');
    const closed = rig.clientWith({});
    await closed.close();
    expect((await failure(closed.account.usage())).code).toBe('NETWORK_ERROR');
    expect(rig.sandbox.requests).toHaveLength(0);
  });

  it('paging retries the failed page only', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/account/invoices', status: 502 });
    rig.sandbox.addFault({ method: 'GET', path: '/account/invoices', status: 429, retryAfter: 1 });
    const ids: number[] = [];
    for await (const inv of rig.client.account.allInvoices()) ids.push(inv.id);
    expect(ids).toHaveLength(35);
    // Two failed tries of page 1, then pages 1–3.
    expect(rig.sandbox.requests.map((r) => r.query.page)).toEqual(['1', '1', '1', '2', '3']);
    expect(rig.client.clock.sleeps).toEqual([125, 1000]);
  });

  it('a POST answered 503 is not retried: one request, nothing created', async () => {
    rig.sandbox.addFault({ method: 'POST', path: '/servers/101/backups', status: 503 });
    const err = await failure(rig.client.backups.create('101', { name: 'nightly' }));
    expect(err).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', request: 'POST /servers/101/backups' });
    expect(lines()).toEqual(['POST /v2/servers/101/backups']);
    expect(rig.client.clock.sleeps).toEqual([]);
    expect(rig.sandbox.state.backups[101]).toHaveLength(18);
  });

  it('a POST answered 429 with Retry-After is retried once and creates exactly one rule', async () => {
    rig.sandbox.addFault({ method: 'POST', path: '/security-groups/7/rules', status: 429, retryAfter: 1 });
    const body = { type: 'inbound' as const, action: 'ACCEPT' as const, protocol: 'tcp', destination_port: '8443', comment: 'once' };
    const rule = await rig.client.securityGroups.addRule(7, body);
    expect(rule).toMatchObject({ id: 100, ...body });
    expect(lines()).toEqual(['POST /v2/security-groups/7/rules', 'POST /v2/security-groups/7/rules']);
    expect(rig.sandbox.requests.map((r) => r.body)).toEqual([body, body]);
    expect(rig.client.clock.sleeps).toEqual([1000]);

    const g = await rig.client.securityGroups.get(7);
    expect(g.rules_count).toBe(5);
    expect(g.rules?.map((r) => r.id)).toEqual([100, 71, 72, 73, 74]); // priority 0 sorts first
    expect(g.rules?.filter((r) => r.comment === 'once')).toHaveLength(1);
  });

  it('a PATCH answered 429 without Retry-After is retried after backoff', async () => {
    rig.sandbox.addFault({ method: 'PATCH', path: '/servers/102/rename', status: 429 });
    expect((await rig.client.servers.rename('102', 'db-main')).name).toBe('db-main');
    expect(rig.sandbox.requests).toHaveLength(2);
    expect(rig.client.clock.sleeps).toEqual([125]);
  });

  it('a DELETE answered 502 is not retried', async () => {
    rig.sandbox.addFault({ method: 'DELETE', path: '/ssh-keys/12', status: 502 });
    const err = await failure(rig.client.sshKeys.delete(12));
    expect(err).toMatchObject({ status: 502, code: 'BAD_GATEWAY' });
    expect(rig.sandbox.requests).toHaveLength(1);
    expect(rig.sandbox.state.sshKeys.map((k) => k.id)).toEqual([11, 12, 13]);
  });
});

describe('dropped connections', () => {
  it('a DELETE whose connection drops: NETWORK_ERROR after one request', async () => {
    rig.sandbox.addFault({ method: 'DELETE', path: '/ssh-keys/12', destroySocket: true });
    const err = await failure(rig.client.sshKeys.delete(12));
    expect(err).toMatchObject({ status: 0, code: 'NETWORK_ERROR', request: 'DELETE /ssh-keys/12' });
    expect(lines()).toEqual(['DELETE /v2/ssh-keys/12']);
    expect(rig.client.clock.sleeps).toEqual([]);
    expect(rig.sandbox.state.sshKeys.map((k) => k.id)).toEqual([11, 12, 13]);
  });

  it('a GET whose connection drops is retried and succeeds', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/ips', destroySocket: true });
    expect(await rig.client.servers.ips('101')).toHaveLength(4);
    expect(rig.sandbox.requests).toHaveLength(2);
  });

  it('a GET whose connection always drops: NETWORK_ERROR after 4 attempts', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/workers/templates', destroySocket: true, times: Infinity });
    const err = await failure(rig.client.workers.templates());
    expect(err).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    expect(rig.sandbox.requests).toHaveLength(4);
  });
});

describe('timeouts (real time: undici’s header timer ticks at about a second)', () => {
  it('an answer slower than headersMs is TIMEOUT; a GET is retried, a POST is not', async () => {
    const fast = (maxAttempts: number) =>
      rig.clientWith({ timeouts: { headersMs: 100 }, retry: { maxAttempts, random: () => 0.5 } });
    rig.sandbox.addFault({ method: 'GET', path: '/account/usage', latencyMs: 4000 });
    rig.sandbox.addFault({ method: 'POST', path: '/servers/101/backups', latencyMs: 4000 });
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/status', latencyMs: 4000 });
    const once = fast(1);
    const retrying = fast(4);

    const [getErr, postErr, status] = await Promise.all([
      failure(once.account.usage()),
      failure(retrying.backups.create('101', {})),
      retrying.servers.status('101'),
    ]);

    expect(getErr).toMatchObject({ status: 0, code: 'TIMEOUT', request: 'GET /account/usage' });
    expect(getErr.message).toMatch(/timed out while waiting for the response/);
    expect(getErr.cause).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    expect(postErr).toMatchObject({ status: 0, code: 'TIMEOUT', request: 'POST /servers/101/backups' });
    expect(status.state).toBe('running');

    const count = (line: string) => lines().filter((l) => l === line).length;
    expect(count('GET /v2/account/usage')).toBe(1);
    expect(count('POST /v2/servers/101/backups')).toBe(1);
    expect(count('GET /v2/servers/101/status')).toBe(2);
  });
});

describe('answers the client cannot read', () => {
  it('200 with a body that is not JSON: INVALID_RESPONSE, not retried', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/account/usage', rawBody: 'not json' });
    const err = await failure(rig.client.account.usage());
    expect(err).toMatchObject({ status: 0, code: 'INVALID_RESPONSE', request: 'GET /account/usage' });
    expect(err.message).toMatch(/not JSON/);
    expect(rig.sandbox.requests).toHaveLength(1);
  });

  it('200 whose data misses password_status: INVALID_RESPONSE naming the field, not the values', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/credentials', rawBody: '{"data":{"foo":1,"root_password":"hunter22"}}' });
    const err = await failure(rig.client.servers.credentials('101'));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE', request: 'GET /servers/101/credentials' });
    expect(err.message).toMatch(/data\.password_status/);
    expect(err.message).not.toContain('hunter22');
  });

  it('200 whose worker status has no status: INVALID_RESPONSE', async () => {
    const uuid = '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66';
    rig.sandbox.addFault({ method: 'GET', path: `/workers/${uuid}/status`, rawBody: '{"data":{"foo":1}}' });
    const err = await failure(rig.client.workers.status(uuid));
    expect(err.code).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/data\.status/);
  });

  it('200 without a data member, and 200 with an empty body', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/security-groups/7', rawBody: '{"foo":1}' });
    expect((await failure(rig.client.securityGroups.get(7))).code).toBe('INVALID_RESPONSE');
    rig.sandbox.addFault({ method: 'GET', path: '/workers/deploy-requirements', rawBody: '' });
    const empty = await failure(rig.client.workers.requirements());
    expect(empty.code).toBe('INVALID_RESPONSE');
    expect(empty.message).toMatch(/empty body/);
  });

  it('a page that is not the one asked for stops the walk', async () => {
    rig.sandbox.addFault({
      method: 'GET',
      path: '/servers/101/backups',
      rawBody: '{"data":[{"uuid":"x"}],"meta":{"current_page":1,"last_page":2}}',
      times: 2,
    });
    const seen: string[] = [];
    const err = await failure(
      (async () => {
        for await (const b of rig.client.backups.all('101')) seen.push(b.uuid);
      })(),
    );
    expect(err.code).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/asked for page 2/);
    expect(seen).toEqual(['x']);
  });

  it('an error status without an envelope: HTTP_ERROR, body not quoted', async () => {
    rig.sandbox.addFault({ method: 'POST', path: '/security-groups/7/deploy', status: 500, rawBody: '<html>Internal stuff</html>' });
    const err = await failure(rig.client.securityGroups.deploy(7));
    expect(err).toMatchObject({ status: 500, code: 'HTTP_ERROR', request: 'POST /security-groups/7/deploy' });
    expect(err.message).not.toContain('Internal stuff');
  });
});

describe('the token never appears in an error', () => {
  it('an error envelope echoing the token in message and details', async () => {
    rig.sandbox.addFault({
      method: 'GET',
      path: '/servers/101/status',
      status: 401,
      code: 'INVALID_TOKEN',
      message: `Token ${TOKEN} is not valid`,
      details: { authorization: `Bearer ${TOKEN}`, [TOKEN]: [TOKEN] },
    });
    const err = await failure(rig.client.servers.status('101'));
    expect(err).toMatchObject({ status: 401, code: 'INVALID_TOKEN', message: 'Token [redacted] is not valid' });
    expect(err.details).toEqual({ authorization: 'Bearer [redacted]', '[redacted]': ['[redacted]'] });
  });

  it('a proxy page echoing the Authorization header', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/plans', status: 502, rawBody: `<pre>Authorization: Bearer ${TOKEN}</pre>`, times: Infinity });
    const err = await failure(rig.client.plans.list());
    expect(err).toMatchObject({ status: 502, code: 'HTTP_ERROR' });
  });

  it('an unreadable 200 echoing the token', async () => {
    rig.sandbox.addFault({ method: 'GET', path: '/ssh-keys', rawBody: `oops ${TOKEN}` });
    rig.sandbox.addFault({ method: 'GET', path: '/account/usage', rawBody: JSON.stringify({ data: { servers: TOKEN } }) });
    expect((await failure(rig.client.sshKeys.list())).code).toBe('INVALID_RESPONSE');
    expect((await failure(rig.client.account.usage())).code).toBe('INVALID_RESPONSE');
  });

  it('the token given as an identifier, an address or a uuid', async () => {
    for (const call of [
      () => rig.client.servers.status(TOKEN),
      () => rig.client.servers.removeIp('101', TOKEN),
      () => rig.client.backups.delete('101', TOKEN),
      () => rig.client.workers.status(TOKEN),
      () => rig.client.securityGroups.attachServer(7, TOKEN),
    ]) {
      expect((await failure(call())).code).toBe('INVALID_IDENTIFIER');
    }
    expect(rig.sandbox.requests).toHaveLength(0);
  });

  it('in the body of a refused POST', async () => {
    const err = await failure(rig.client.servers.rename('101', `${TOKEN}-${'x'.repeat(40)}`));
    expect(err.code).toBe('VALIDATION_ERROR');
  });

  it('a long token (Sanctum-style, 50 characters): not even a truncated part of it', async () => {
    const LONG = '42|Zr8Vt1Lx4Nc7Bp0Wd5Fg6Yj2Ua9Ei3Ok8Qm2Hk3s9PqRtWxZc';
    const long = await startRig({ token: LONG }, { token: LONG });
    try {
      // Nothing of 12 characters or more of the token may show, in any rendering.
      const windows = Array.from({ length: LONG.length - 11 }, (_, i) => LONG.slice(i, i + 12));
      const views = (err: CloudApiError) => [
        err.message,
        err.stack ?? '',
        JSON.stringify(err),
        JSON.stringify(err.details ?? null),
        inspect(err, { depth: Infinity, showHidden: true }),
      ];
      long.sandbox.addFault({
        method: 'GET',
        path: '/account/usage',
        status: 401,
        code: 'INVALID_TOKEN',
        message: `Token ${LONG.slice(0, 30)}… is not valid`,
      });
      const errors = [
        await cloudError(long.client.servers.status(LONG)),
        await cloudError(long.client.servers.credentials(`Bearer ${LONG}`)),
        await cloudError(long.client.backups.delete('101', LONG)),
        await cloudError(long.client.sshKeys.delete(LONG as unknown as number)),
        await cloudError(long.client.account.usage()),
      ];
      expect(errors.map((e) => e.code)).toEqual(['INVALID_IDENTIFIER', 'INVALID_IDENTIFIER', 'INVALID_IDENTIFIER', 'INVALID_IDENTIFIER', 'INVALID_TOKEN']);
      for (const err of errors) {
        for (const view of views(err)) for (const w of windows) expect(view).not.toContain(w);
      }
      expect(long.sandbox.requests).toHaveLength(1);
    } finally {
      await long.close();
    }
  });
});
