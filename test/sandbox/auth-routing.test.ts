import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorEnvelope } from '../../src/cloud-api/schemas.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { TOKEN, expectError, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(() => h.close());

describe('authentication (spec "Authentication")', () => {
  it.each([
    ['missing header', {}],
    ['wrong token', { authorization: 'Bearer nope' }],
    ['wrong scheme', { authorization: `Basic ${TOKEN}` }],
    ['empty bearer', { authorization: 'Bearer ' }],
  ])('answers 401 UNAUTHENTICATED for %s', async (_label, headers) => {
    const r = await fetch(`${h.server.baseUrl}/account/usage`, { headers });
    const body = ErrorEnvelope.parse(await r.json());
    expect(r.status).toBe(401);
    expect(body.error.code).toBe('UNAUTHENTICATED');
    expect(r.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('accepts the bearer token case-insensitively on the scheme', async () => {
    const r = await h.call('GET', '/account/usage', undefined, { authorization: `bearer ${TOKEN}` });
    expect(r.status).toBe(200);
  });

  it('generates a 32-hex token when none is given', () => {
    expect(createSandbox({ seed: false }).token).toMatch(/^[0-9a-f]{32}$/);
  });

  it('protects the control endpoints with the same token', async () => {
    const r = await fetch(`${h.server.baseUrl.replace(/\/v2$/, '')}/__sandbox/requests`);
    expect(r.status).toBe(401);
  });
});

describe('routing', () => {
  it('answers 404 NOT_FOUND for an unknown route and outside /v2', async () => {
    expectError(await h.call('GET', '/nothing/here'), 404, 'NOT_FOUND');
    const r = await fetch(h.server.baseUrl.replace(/\/v2$/, '/v1/servers'), { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(r.status).toBe(404);
  });

  it('answers 405 METHOD_NOT_ALLOWED with Allow for a known path', async () => {
    const r = await h.call('GET', '/workers');
    expectError(r, 405, 'METHOD_NOT_ALLOWED');
    expect(r.headers.get('allow')).toBe('POST');
    const d = await h.call('PUT', '/servers/101/rename', { name: 'x' });
    expect(d.headers.get('allow')).toBe('PATCH');
  });

  it('answers 400 BAD_REQUEST for malformed JSON', async () => {
    expectError(await h.raw('POST', '/reserved-ips', '{"location_id": 1,'), 400, 'BAD_REQUEST');
  });

  it('answers 400 BAD_REQUEST for a JSON body that is not an object', async () => {
    expectError(await h.call('POST', '/reserved-ips', [1, 2]), 400, 'BAD_REQUEST');
  });

  it('treats a malformed identifier or %-escape as not found', async () => {
    expectError(await h.call('GET', '/servers/not-a-server/status'), 404, 'NOT_FOUND');
    expectError(await h.call('GET', '/servers/%E0%A4%A/status'), 404, 'NOT_FOUND');
    expectError(await h.call('GET', '/security-groups/7x'), 404, 'NOT_FOUND');
  });

  it('tolerates a trailing slash', async () => {
    expect((await h.call('GET', '/ssh-keys/')).status).toBe(200);
  });
});

describe('request recording', () => {
  it('records every /v2 request with the raw %-encoded path, decoded segments, query and body', async () => {
    const before = h.sandbox.requests.length;
    await h.call('DELETE', '/servers/101/ips/2a0c%3A8c0%3A1%3A%3A11');
    await h.call('GET', '/plans?page=2&location_id=1');
    await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'nope' });
    await h.call('GET', '/account/usage', undefined, { authorization: 'Bearer wrong' });
    const recorded = h.sandbox.requests.slice(before);
    expect(recorded).toHaveLength(4);
    expect(recorded[0]).toMatchObject({
      method: 'DELETE',
      rawPath: '/v2/servers/101/ips/2a0c%3A8c0%3A1%3A%3A11',
      path: '/servers/101/ips/2a0c:8c0:1::11',
      segments: ['servers', '101', 'ips', '2a0c:8c0:1::11'],
      query: {},
      body: undefined,
      at: h.clock.now(),
    });
    expect(recorded[1]).toMatchObject({ path: '/plans', query: { page: '2', location_id: '1' } });
    expect(recorded[2]?.body).toEqual({ location_id: 1, subnet_id: 'nope' });
    expect(recorded[3]?.path).toBe('/account/usage');
  });

  it('does not record control requests, and serves them at GET /__sandbox/requests', async () => {
    const before = h.sandbox.requests.length;
    const r = await fetch(`${h.server.baseUrl.replace(/\/v2$/, '')}/__sandbox/requests`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const body = (await r.json()) as { data: unknown[] };
    expect(r.status).toBe(200);
    expect(body.data).toHaveLength(before);
    expect(h.sandbox.requests).toHaveLength(before);
  });
});
