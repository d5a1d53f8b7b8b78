import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { TOKEN, expectError, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(() => h.close());

const controlUrl = (path: string) => `${h.server.baseUrl.replace(/\/v2$/, '')}/__sandbox${path}`;
const control = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(controlUrl(path), {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : undefined };
};

describe('faults', () => {
  it('answers a status for the next N matching requests, then recovers', async () => {
    h.sandbox.addFault({ path: '/servers/101/status', times: 2, status: 503 });
    expectError(await h.call('GET', '/servers/101/status'), 503, 'SERVICE_UNAVAILABLE');
    expect((await h.call('GET', '/servers/102/status')).status).toBe(200);
    expectError(await h.call('GET', '/servers/101/status'), 503, 'SERVICE_UNAVAILABLE');
    expect((await h.call('GET', '/servers/101/status')).status).toBe(200);
  });

  it('matches method and exact decoded path; applies to N requests', async () => {
    h.sandbox.addFault({ method: 'get', path: '/servers/101/status', times: 2, status: 500 });
    expect((await h.call('GET', '/servers/102/status')).status).toBe(200);
    expect((await h.call('PATCH', '/servers/101/status')).status).toBe(405);
    expectError(await h.call('GET', '/servers/101/status'), 500, 'INTERNAL_ERROR');
    expectError(await h.call('GET', '/servers/101/status'), 500, 'INTERNAL_ERROR');
    expect((await h.call('GET', '/servers/101/status')).status).toBe(200);
  });

  it('sends Retry-After with a rate-limit answer and defaults the status from the code', async () => {
    h.sandbox.addFault({ code: 'RATE_LIMITED', retryAfter: 7, message: 'Slow down.' });
    const r = await h.call('GET', '/account/usage');
    expect(expectError(r, 429, 'RATE_LIMITED').message).toBe('Slow down.');
    expect(r.headers.get('retry-after')).toBe('7');
    h.sandbox.addFault({ status: 429, retryAfter: 'Wed, 21 Oct 2026 07:28:00 GMT', details: { limit: 60 } });
    const d = await h.call('GET', '/account/usage');
    expect(expectError(d, 429, 'RATE_LIMITED').details).toEqual({ limit: 60 });
    expect(d.headers.get('retry-after')).toBe('Wed, 21 Oct 2026 07:28:00 GMT');
  });

  it('a code given alone gets the status the spec and provider notes give it: business refusals are 422', async () => {
    // Spec "Errors": RESERVED_IP_LIMIT_REACHED, INSUFFICIENT_BALANCE, SUBNET_EXHAUSTED, VALIDATION_ERROR are 422;
    // provider notes: "422 VALIDATION_ERROR and business refusals".
    for (const code of ['SUBNET_EXHAUSTED', 'RESERVED_IP_LIMIT_REACHED', 'INSUFFICIENT_BALANCE', 'VALIDATION_ERROR', 'ALREADY_ATTACHED', 'PLAN_OUT_OF_STOCK', 'SOMETHING_NEW']) {
      h.sandbox.addFault({ path: '/account/usage', code });
      expectError(await h.call('GET', '/account/usage'), 422, code);
    }
    for (const [code, status] of [['CANNOT_REMOVE_PRIMARY', 422], ['SERVICE_UNAVAILABLE', 503], ['BAD_GATEWAY', 502], ['GATEWAY_TIMEOUT', 504], ['INTERNAL_ERROR', 500]] as const) {
      h.sandbox.addFault({ path: '/account/usage', code });
      expectError(await h.call('GET', '/account/usage'), status, code);
    }
  });

  it('matches a RegExp path and Infinity times until cleared', async () => {
    h.sandbox.addFault({ path: /^\/servers\/\d+\/ips/, times: Infinity, status: 502, code: 'HYPERVISOR_SYNC_FAILED' });
    for (let i = 0; i < 3; i++) expectError(await h.call('GET', '/servers/101/ips'), 502, 'HYPERVISOR_SYNC_FAILED');
    expect((await h.call('GET', '/servers/101/status')).status).toBe(200);
    h.sandbox.clearFaults();
    expect((await h.call('GET', '/servers/101/ips')).status).toBe(200);
  });

  it('answers a raw body (invalid JSON) with the given status', async () => {
    h.sandbox.addFault({ path: '/ssh-keys', rawBody: '{"data": [', status: 200 });
    const r = await h.call('GET', '/ssh-keys');
    expect(r.status).toBe(200);
    expect(r.text).toBe('{"data": [');
    expect(r.headers.get('content-type')).toMatch(/application\/json/);
  });

  it('drops the connection without answering', async () => {
    h.sandbox.addFault({ path: '/account/usage', destroySocket: true });
    await expect(request(`${h.server.baseUrl}/account/usage`, { headers: { authorization: `Bearer ${TOKEN}` } })).rejects.toThrow();
    expect((await h.call('GET', '/account/usage')).status).toBe(200);
  });

  it('adds latency, alone or before a fault answer: the answer waits for it; none when none is set', async () => {
    // The waits are the sandbox's own (real time by default); here each is held until released.
    const waits: { ms: number; release: () => void }[] = [];
    const w = await start({ wait: (ms) => new Promise<void>((release) => waits.push({ ms, release })) });
    try {
      w.sandbox.addFault({ path: '/account/usage', latencyMs: 60 });
      let answered = false;
      const first = w.call('GET', '/account/usage').then((r) => ((answered = true), r));
      await waitFor(() => waits.length === 1);
      expect(waits[0]!.ms).toBe(60);
      expect(answered).toBe(false); // recorded, not answered while the latency runs
      waits[0]!.release();
      expect((await first).status).toBe(200);

      w.sandbox.setLatency(40);
      w.sandbox.addFault({ path: '/account/usage', latencyMs: 20, status: 504 });
      const second = w.call('GET', '/account/usage');
      await waitFor(() => waits.length === 2);
      expect(waits[1]!.ms).toBe(60); // the sandbox's 40 and the fault's 20
      waits[1]!.release();
      expect((await second).status).toBe(504);

      w.sandbox.setLatency(0);
      expect((await w.call('GET', '/account/usage')).status).toBe(200);
      expect(waits).toHaveLength(2); // no latency set: no wait at all
    } finally {
      await w.close();
    }
  });

  it('records requests answered by faults, even unauthenticated ones', async () => {
    h.sandbox.addFault({ status: 500 });
    const before = h.sandbox.requests.length;
    const r = await fetch(`${h.server.baseUrl}/servers/101/status`);
    expect(r.status).toBe(500);
    expect(h.sandbox.requests.slice(before).map((x) => x.path)).toEqual(['/servers/101/status']);
  });
});

describe('control endpoints', () => {
  it('POST /__sandbox/faults with a "^" path as RegExp; DELETE clears', async () => {
    expect((await control('POST', '/faults', { path: '^/servers/', status: 503, times: 'Infinity' })).status).toBe(201);
    expectError(await h.call('GET', '/servers/101/status'), 503, 'SERVICE_UNAVAILABLE');
    expectError(await h.call('GET', '/servers/102/ips'), 503, 'SERVICE_UNAVAILABLE');
    expect((await h.call('GET', '/ssh-keys')).status).toBe(200);
    expect((await control('DELETE', '/faults')).status).toBe(204);
    expect((await h.call('GET', '/servers/101/status')).status).toBe(200);
  });

  it('POST /__sandbox/faults with a plain path and times', async () => {
    await control('POST', '/faults', { method: 'GET', path: '/ssh-keys', code: 'RATE_LIMITED', retryAfter: '2' });
    const r = await h.call('GET', '/ssh-keys');
    expectError(r, 429, 'RATE_LIMITED');
    expect(r.headers.get('retry-after')).toBe('2');
    expect((await h.call('GET', '/ssh-keys')).status).toBe(200);
  });

  it('POST /__sandbox/sync-failures and /__sandbox/latency', async () => {
    expect((await control('POST', '/sync-failures', { count: 1 })).json).toEqual({ data: { pending: 1 } });
    expectError(await h.call('POST', '/security-groups/7/deploy'), 502, 'HYPERVISOR_SYNC_FAILED');
    expect((await control('POST', '/latency', { ms: 30 })).json).toEqual({ data: { latency_ms: 30 } });
    const bad = await control('POST', '/latency', { ms: -1 });
    expect([bad.status, bad.json.error.code]).toEqual([422, 'VALIDATION_ERROR']);
  });

  it('PATCH /__sandbox/account sets knobs and refuses unknown ones', async () => {
    const r = await control('PATCH', '/account', { workersEnabled: false, balance: 3 });
    expect(r.json.data).toMatchObject({ workersEnabled: false, balance: 3 });
    expect(h.sandbox.state.account.balance).toBe(3);
    expectError(await h.call('POST', '/workers', { name: 'w', location_id: 1, git_repository: 'https://g.example/a/b' }), 422, 'WORKERS_DISABLED');
    const bad = await control('PATCH', '/account', { nope: 1, balance: 'lots', toString: 'x' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.error.details).sort()).toEqual(['balance', 'nope', 'toString']);
    expect(h.sandbox.state.account.balance).toBe(3);
  });

  it('answers 404 for an unknown control endpoint and 405 for a wrong method', async () => {
    expect((await control('GET', '/nothing')).status).toBe(404);
    expect((await control('GET', '/faults')).status).toBe(405);
  });
});
