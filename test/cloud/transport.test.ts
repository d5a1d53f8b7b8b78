/**
 * The transport through the client: error envelopes, unreadable bodies, network failures,
 * timeouts, retries with their budget, abort. No real sleeping: backoff runs on a manual clock.
 */
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { createCloudClient } from '../../src/cloud/client.js';
import type { TransportEvent } from '../../src/cloud/http.js';
import { closedPort, fail, ok, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { TOKEN, autoClock, clientFor, cloudError } from './helpers.js';

let server: FakeServer;
const clients: { close(): Promise<void> }[] = [];
const make = (...args: Parameters<typeof clientFor>) => {
  const c = clientFor(...args);
  clients.push(c);
  return c;
};

beforeEach(async () => {
  server = await startFakeServer();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await server.close();
});

const USAGE = '/account/usage';

describe('error responses', () => {
  it('maps the envelope to status, code, message, details', async () => {
    server.script('PATCH', '/servers/1/rename', fail(422, 'VALIDATION_ERROR', 'The name is too long.', {}, { name: ['max 40'] }));
    const err = await cloudError(make(server).servers.rename('1', 'x'.repeat(41)));
    expect(err).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', message: 'The name is too long.', request: 'PATCH /servers/1/rename' });
    expect(err.fieldErrors()).toEqual({ name: ['max 40'] });
    expect(err.retryAfterMs).toBeUndefined();
  });

  it('keeps unknown codes, and renders an envelope without a message', async () => {
    server.script('GET', '/servers/1/status', fail(409, 'SOMETHING_NEW', ''));
    const err = await cloudError(make(server).servers.status('1'));
    expect(err).toMatchObject({ status: 409, code: 'SOMETHING_NEW' });
    expect(err.message).toMatch(/SOMETHING_NEW.*409/);
  });

  it('reads Retry-After in seconds', async () => {
    server.script('POST', '/workers', fail(429, 'RATE_LIMITED', 'Slow down', { headers: { 'retry-after': '120' } }));
    const err = await cloudError(make(server).workers.deploy({ location_id: 1, name: 'w' }));
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 120_000 });
  });

  it('reads Retry-After as an HTTP date against the injected clock', async () => {
    const clock = createManualClock(Date.parse('2026-11-22T12:00:00Z'));
    const when = new Date(Date.parse('2026-11-22T12:00:30Z')).toUTCString();
    server.script('POST', '/workers', fail(429, 'RATE_LIMITED', 'Slow down', { headers: { 'retry-after': when } }));
    const err = await cloudError(make(server, { clock }).workers.deploy({ location_id: 1, name: 'w' }));
    expect(err.retryAfterMs).toBe(30_000);
    expect(server.requests).toHaveLength(1); // 30 s is beyond the 8 s budget: not waited
  });

  it('an unreadable error body gives HTTP_ERROR with the status, without quoting the body', async () => {
    server.script('GET', USAGE, { status: 500, raw: '<html>upstream exploded</html>', headers: { 'content-type': 'text/html' } });
    const err = await cloudError(make(server).account.usage());
    expect(err).toMatchObject({ status: 500, code: 'HTTP_ERROR' });
    expect(err.message).toMatch(/HTTP 500/);
    expect(err.message).not.toMatch(/upstream/);
  });

  it('a JSON error body that is not an envelope is HTTP_ERROR too', async () => {
    server.script('DELETE', '/ssh-keys/1', { status: 404, body: { message: 'nope' } });
    expect(await cloudError(make(server).sshKeys.delete(1))).toMatchObject({ status: 404, code: 'HTTP_ERROR' });
  });
});

describe('unreadable success bodies', () => {
  it('a 2xx body that is not JSON is INVALID_RESPONSE', async () => {
    server.script('GET', USAGE, { status: 200, raw: 'OK!' });
    expect(await cloudError(make(server).account.usage())).toMatchObject({ status: 0, code: 'INVALID_RESPONSE', request: 'GET /account/usage' });
  });

  it('a schema mismatch is INVALID_RESPONSE naming paths, not values, and never a ZodError', async () => {
    server.script('GET', '/servers/1/credentials', ok({ username: 'root', password_status: 42, root_password: 'hunter2-secret' }));
    const err = await cloudError(make(server).servers.credentials('1'));
    expect(err.code).toBe('INVALID_RESPONSE');
    expect(err.message).toMatch(/data\.password_status: invalid_type \(expected string\)/);
    expect(err.message).not.toMatch(/42|hunter2/);
    expect(err.cause).toBeUndefined();
  });

  it('a body without `data`, or an empty 200 where data is needed, is INVALID_RESPONSE', async () => {
    server.script('GET', USAGE, { status: 200, body: { servers: 1 } }, { status: 204 });
    const c = make(server);
    expect((await cloudError(c.account.usage())).message).toMatch(/data: invalid_type/);
    expect((await cloudError(c.account.usage())).message).toMatch(/empty body/);
  });

  it('names array indexes in list mismatches', async () => {
    server.script('GET', '/servers/1/ips', ok([{ address: '198.51.100.1', type: 'ipv4' }, { type: 'ipv6' }]));
    expect((await cloudError(make(server).servers.ips('1'))).message).toMatch(/data\[1\]\.address/);
  });
});

describe('network failures and timeouts', () => {
  it('a closed port is NETWORK_ERROR; a POST is tried once', async () => {
    const port = await closedPort();
    const c = make(server, { baseUrl: `http://127.0.0.1:${port}/v2` });
    const err = await cloudError(c.securityGroups.deploy(1));
    expect(err).toMatchObject({ status: 0, code: 'NETWORK_ERROR', request: 'POST /security-groups/1/deploy' });
    expect(err.cause).toMatchObject({ code: 'ECONNREFUSED' });
    expect(c.events.filter((e) => e.type === 'request')).toHaveLength(1);
  });

  it('a GET to a closed port is retried up to maxAttempts, then NETWORK_ERROR', async () => {
    const port = await closedPort();
    const c = make(server, { baseUrl: `http://127.0.0.1:${port}/v2` });
    expect((await cloudError(c.account.usage())).code).toBe('NETWORK_ERROR');
    expect(c.events.filter((e) => e.type === 'request')).toHaveLength(4);
  });

  it('a DELETE is not retried after a network error (socket dropped)', async () => {
    server.script('DELETE', '/ssh-keys/7', { destroy: true });
    const err = await cloudError(make(server).sshKeys.delete(7));
    expect(err.code).toBe('NETWORK_ERROR');
    expect(server.requests).toHaveLength(1);
  });

  it('a GET whose socket drops is retried', async () => {
    server.script('GET', USAGE, { destroy: true }, ok({ servers: 1 }));
    expect(await make(server).account.usage()).toEqual({ servers: 1 });
    expect(server.requests).toHaveLength(2);
  });
});

describe('retries', () => {
  it('a GET is retried after 503 and succeeds, with jittered backoff on the clock', async () => {
    const clock = autoClock();
    server.script('GET', USAGE, fail(503, 'UNAVAILABLE', 'busy'), fail(502, 'BAD_GATEWAY', 'bad'), ok({ servers: 2 }));
    const c = make(server, { clock, retry: { random: () => 0.5 } });
    expect(await c.account.usage()).toEqual({ servers: 2 });
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([125, 250]); // 0.5 × 250, 0.5 × 500
    expect(c.events.map((e) => `${e.type}:${e.attempt}:${e.status ?? ''}`)).toEqual([
      'request:1:', 'response:1:503', 'retry:1:503', 'request:2:', 'response:2:502', 'retry:2:502', 'request:3:', 'response:3:200',
    ]);
  });

  it('a GET gives up when the next wait would pass the budget: TIMEOUT carrying the last failure', async () => {
    const clock = autoClock();
    server.script('GET', USAGE, fail(503, 'UNAVAILABLE', 'busy'));
    const c = make(server, { clock, retry: { random: () => 0.999, budgetMs: 1000, maxAttempts: 10 } });
    const err = await cloudError(c.account.usage());
    expect(err).toMatchObject({ status: 0, code: 'TIMEOUT' });
    expect(err.message).toMatch(/gave up after 3 attempts.*busy/);
    expect(err.cause).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
    expect(clock.sleeps).toEqual([249, 499]); // the third wait (≈999) would end after 1000 ms
    expect(clock.elapsed()).toBeLessThanOrEqual(1000);
  });

  it('a POST refused with 429 until the budget runs out: the 429 itself, never a TIMEOUT that says it may have acted', async () => {
    const clock = autoClock();
    const body = { location_id: 1, subnet_id: 's' };
    server.script('POST', '/reserved-ips', fail(429, 'RATE_LIMITED', 'slow down'));
    const c = make(server, { clock, retry: { random: () => 0.999, budgetMs: 1000, maxAttempts: 10 } });
    const err = await cloudError(c.reservedIps.reserve(body));
    // Every answer was the cloud's refusal: nothing was reserved, and the error says so.
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(server.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([249, 499]);
  });

  it('after maxAttempts the last failure itself is thrown', async () => {
    server.script('GET', USAGE, fail(504, 'GATEWAY_TIMEOUT', 'slow'));
    const err = await cloudError(make(server, { retry: { maxAttempts: 2, random: () => 0 } }).account.usage());
    expect(err).toMatchObject({ status: 504, code: 'GATEWAY_TIMEOUT' });
    expect(server.requests).toHaveLength(2);
  });

  it('a GET honours Retry-After on 429', async () => {
    const clock = autoClock();
    server.script('GET', USAGE, fail(429, 'RATE_LIMITED', 'slow down', { headers: { 'retry-after': '2' } }), ok({ servers: 1 }));
    expect(await make(server, { clock }).account.usage()).toEqual({ servers: 1 });
    expect(clock.sleeps).toEqual([2000]);
  });

  it('a POST is retried on 429 after Retry-After, and only then', async () => {
    const clock = autoClock();
    const body = { location_id: 1, subnet_id: 's' };
    server.script('POST', '/reserved-ips', fail(429, 'RATE_LIMITED', 'slow', { headers: { 'retry-after': '1' } }), { status: 201, body: { data: [], meta: {} } });
    expect(await make(server, { clock }).reservedIps.reserve(body)).toEqual({ data: [], meta: {} });
    expect(clock.sleeps).toEqual([1000]);
    expect(server.requests.map((r) => r.json)).toEqual([body, body]);
  });

  it('a 429 whose Retry-After passes the budget is thrown at once with retryAfterMs', async () => {
    server.script('GET', USAGE, fail(429, 'RATE_LIMITED', 'slow', { headers: { 'retry-after': '60' } }));
    const err = await cloudError(make(server).account.usage());
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterMs: 60_000 });
    expect(server.requests).toHaveLength(1);
  });

  it('a POST is not retried after 503: exactly one request', async () => {
    server.script('POST', '/servers/1/reinstall', fail(503, 'UNAVAILABLE', 'busy'));
    expect((await cloudError(make(server).servers.reinstall('1', { template_slug: 'debian-12' }))).status).toBe(503);
    expect(server.requests).toHaveLength(1);
  });

  it('a 502 HYPERVISOR_SYNC_FAILED on a rule change is surfaced, not retried', async () => {
    server.script('DELETE', '/security-groups/1/rules/2', fail(502, 'HYPERVISOR_SYNC_FAILED', 'saved, not applied'));
    expect(await cloudError(make(server).securityGroups.deleteRule(1, 2))).toMatchObject({ status: 502, code: 'HYPERVISOR_SYNC_FAILED' });
    expect(server.requests).toHaveLength(1);
  });

  it('4xx on GET is not retried', async () => {
    server.script('GET', '/servers/1/status', fail(404, 'NOT_FOUND', 'No such server'));
    expect((await cloudError(make(server).servers.status('1'))).code).toBe('NOT_FOUND');
    expect(server.requests).toHaveLength(1);
  });
});

describe('abort', () => {
  it('an already aborted signal sends nothing', async () => {
    const err = await cloudError(make(server).account.usage({ signal: AbortSignal.abort() }));
    expect(err).toMatchObject({ status: 0, code: 'ABORTED' });
    expect(server.requests).toHaveLength(0);
  });

  it('aborting during a backoff wait stops the retries', async () => {
    const clock = createManualClock();
    server.script('GET', USAGE, fail(503, 'UNAVAILABLE', 'busy'));
    const controller = new AbortController();
    let retrying!: () => void;
    const backoff = new Promise<void>((resolve) => (retrying = resolve));
    // The retry event comes just before the wait begins: no polling on real time.
    const client = make(server, { clock, onEvent: (e) => e.type === 'retry' && retrying() });
    const pending = cloudError(client.account.usage({ signal: controller.signal }));
    await backoff;
    expect(clock.pendingSleeps()).toBe(1);
    controller.abort();
    expect(await pending).toMatchObject({ code: 'ABORTED' });
    expect(server.requests).toHaveLength(1);
  });

  it('aborting an in-flight request rejects with ABORTED', async () => {
    let arrived!: () => void;
    const received = new Promise<void>((resolve) => (arrived = resolve));
    // Unscripted, so the fallback answers: it tells the test the request is at the server, then hangs.
    server.fallback(() => {
      arrived();
      return { hang: true };
    });
    const controller = new AbortController();
    const pending = cloudError(make(server).account.usage({ signal: controller.signal }));
    await received;
    controller.abort();
    expect(await pending).toMatchObject({ code: 'ABORTED' });
  });

  it('a signal that fires with a TimeoutError reason reads as TIMEOUT', async () => {
    server.script('GET', USAGE, { hang: true });
    const err = await cloudError(make(server).account.usage({ signal: AbortSignal.timeout(30) }));
    expect(err.code).toBe('TIMEOUT');
  });
});

describe('construction and plumbing', () => {
  it('an injected dispatcher is used and left open by close()', async () => {
    const agent = new Agent();
    server.script('GET', USAGE, ok({ servers: 1 }));
    const c = createCloudClient({ baseUrl: `${server.baseUrl}/`, token: TOKEN, dispatcher: agent });
    await c.account.usage();
    await c.close();
    expect(agent.closed).toBe(false);
    await agent.close();
    expect(server.requests[0]?.rawUrl).toBe('/v2/account/usage'); // trailing slash of baseUrl ignored
  });

  it('a closed client refuses further calls', async () => {
    const c = createCloudClient({ baseUrl: server.baseUrl, token: TOKEN });
    await c.close();
    expect((await cloudError(c.account.usage())).code).toBe('NETWORK_ERROR');
  });

  it('refuses a bad token or base URL without echoing them', () => {
    expect(() => createCloudClient({ baseUrl: server.baseUrl, token: 'has space' })).toThrow(/token/);
    expect(() => createCloudClient({ baseUrl: server.baseUrl, token: '' })).toThrow(TypeError);
    expect(() => createCloudClient({ baseUrl: 'ftp://x/v2', token: TOKEN })).toThrow(/http/);
    let thrown: unknown;
    try {
      createCloudClient({ baseUrl: server.baseUrl, token: 'zq\nxw' });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(String(thrown)).toMatch(/token/);
    expect(String(thrown)).not.toMatch(/zq|xw/);
  });

  it('a throwing onEvent does not break the call; events carry no headers', async () => {
    server.script('GET', USAGE, ok({ servers: 1 }));
    const c = make(server, { onEvent: () => { throw new Error('logger down'); } });
    expect(await c.account.usage()).toEqual({ servers: 1 });
    const seen: TransportEvent[] = [];
    const d = make(server, { onEvent: (e) => seen.push(e) });
    await d.account.usage();
    expect(seen.map((e) => e.type)).toEqual(['request', 'response']);
    expect(seen).toEqual([
      expect.objectContaining({ type: 'request', method: 'GET', path: USAGE, attempt: 1 }),
      expect.objectContaining({ type: 'response', method: 'GET', path: USAGE, attempt: 1, status: 200 }),
    ]);
    const json = JSON.stringify(seen);
    expect(json).not.toMatch(/authorization|Bearer|headers/i);
    expect(json).not.toContain(TOKEN);
  });
});
