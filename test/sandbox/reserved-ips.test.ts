import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReservedIp, ReservedIpMeta, Subnet } from '../../src/cloud-api/schemas.js';
import { expectError, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(() => h.close());

describe('GET /reserved-ips/subnets', () => {
  it('lists subnets with location, CIDR and free counts', async () => {
    const r = await h.call('GET', '/reserved-ips/subnets');
    expect(r.status).toBe(200);
    const subnets = (r.json.data as unknown[]).map((s) => expectShape(Subnet, s));
    expect(subnets.map((s) => s.id)).toEqual(['sub-ams-1', 'sub-ams-2', 'sub-fra-1', 'sub-fra-2', 'sub-nyc-1']);
    expect(subnets[0]).toEqual({
      id: 'sub-ams-1',
      location_id: 1,
      location: { id: 1, short_code: 'AMS', description: 'Amsterdam, Netherlands' },
      subnet: '185.10.20.0/24',
      type: 'ipv4',
      available: 148,
      total: 253,
      hourly_price: 0.0065,
    });
    expect(subnets[3]?.available).toBe(0);
  });
});

describe('POST /reserved-ips', () => {
  it('reserves addresses (201) with the list envelope meta', async () => {
    const r = await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1', quantity: 2 });
    expect(r.status).toBe(201);
    const ips = (r.json.data as unknown[]).map((x) => expectShape(ReservedIp, x));
    expect(ips).toHaveLength(2);
    expect(ips[0]).toMatchObject({
      type: 'ipv4',
      gateway: '185.10.20.1',
      cidr: 24,
      subnet: '185.10.20.0/24',
      location: { id: 1, short_code: 'AMS' },
      server: null,
      reserved_at: new Date(h.clock.now()).toISOString(),
    });
    // count 3 seeded + 2; used 4 seeded + 2 (spec: unused reserved IPs count against the limit).
    expect(expectShape(ReservedIpMeta, r.json.meta)).toEqual({ count: 5, limit: 8, used: 6, hourly_price: 0.0065 });
  });

  it('defaults quantity to 1 and never hands out the same address twice', async () => {
    const a = await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1' });
    const b = await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1' });
    expect(a.json.data).toHaveLength(1);
    expect(a.json.data[0].address).not.toBe(b.json.data[0].address);
    const held = new Set(h.sandbox.state.reservedIps.map((x) => x.address));
    expect(held.size).toBe(h.sandbox.state.reservedIps.length);
    const subnets = await h.call('GET', '/reserved-ips/subnets');
    expect(subnets.json.data[0].available).toBe(146);
  });

  it('reserves IPv6 addresses from an IPv6 subnet', async () => {
    const r = await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-2' });
    expect(r.json.data[0]).toMatchObject({ type: 'ipv6', cidr: 64, address: '2a0c:8c0:1::2' });
    expect(r.json.meta.hourly_price).toBe(0.0014);
  });

  it.each([
    [{}, ['location_id', 'subnet_id']],
    [{ location_id: 0, subnet_id: 'sub-ams-1' }, ['location_id']],
    [{ location_id: '1', subnet_id: 'sub-ams-1' }, ['location_id']],
    [{ location_id: 99, subnet_id: 'sub-ams-1' }, ['location_id']],
    [{ location_id: 1, subnet_id: 'sub-nope' }, ['subnet_id']],
    [{ location_id: 1, subnet_id: 7 }, ['subnet_id']],
    [{ location_id: 2, subnet_id: 'sub-ams-1' }, ['subnet_id']],
    [{ location_id: 1, subnet_id: 'sub-ams-1', quantity: 0 }, ['quantity']],
    [{ location_id: 1, subnet_id: 'sub-ams-1', quantity: 1.5 }, ['quantity']],
  ])('refuses %j with VALIDATION_ERROR on %j', async (body, fields) => {
    const err = expectError(await h.call('POST', '/reserved-ips', body), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details).sort()).toEqual(fields);
    for (const f of fields) expect(err.details[f][0]).toEqual(expect.any(String));
  });

  it('refuses over the account IP limit, naming held and remaining (RESERVED_IP_LIMIT_REACHED)', async () => {
    const err = expectError(
      await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1', quantity: 5 }),
      422,
      'RESERVED_IP_LIMIT_REACHED',
    );
    expect(err.details).toEqual({ count: 3, limit: 8, used: 4, available: 4 });
    expect(err.message).toMatch(/holds 3 reserved IPs and can reserve 4 more/);
    // Exactly the remaining four still fit.
    expect((await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1', quantity: 4 })).status).toBe(201);
  });

  it('refuses when the balance does not cover the first hour (INSUFFICIENT_BALANCE)', async () => {
    h.sandbox.state.account.balance = 0.01;
    const err = expectError(
      await h.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1', quantity: 2 }),
      422,
      'INSUFFICIENT_BALANCE',
    );
    expect(err.details).toEqual({ balance: 0.01, required: 0.013 });
  });

  it('refuses from a full subnet (SUBNET_EXHAUSTED)', async () => {
    const err = expectError(await h.call('POST', '/reserved-ips', { location_id: 2, subnet_id: 'sub-fra-2' }), 422, 'SUBNET_EXHAUSTED');
    expect(err.details).toEqual({ available: 0, requested: 1 });
  });
});
