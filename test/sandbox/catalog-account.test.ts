import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountUsage, Invoice, PageMeta, Plan, SshKey } from '../../src/cloud-api/schemas.js';
import { expectError, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await start();
});
afterAll(() => h.close());

const PLAN_KEYS = ['id', 'name', 'cpu', 'memory', 'disk', 'bandwidth_limit', 'monthly_price', 'hourly_price', 'backup_price', 'backup_limit', 'location_id'];

describe('GET /plans', () => {
  it('lists non-hidden plans by monthly price over two pages', async () => {
    const p1 = await h.call('GET', '/plans');
    expect(expectShape(PageMeta, p1.json.meta)).toEqual({ current_page: 1, last_page: 2, per_page: 15, total: 19 });
    for (const raw of p1.json.data) {
      expect(Object.keys(raw).sort()).toEqual([...PLAN_KEYS].sort());
      Plan.parse(raw);
    }
    const p2 = await h.call('GET', '/plans?page=2');
    const all = [...p1.json.data, ...p2.json.data] as { id: number; monthly_price: number }[];
    expect(all).toHaveLength(19);
    expect(all.map((p) => p.monthly_price)).toEqual([...all.map((p) => p.monthly_price)].sort((a, b) => a - b));
    expect(all.map((p) => p.id)).not.toContain(16); // hidden
  });

  it('filters by location_id: global + that location, with `available`', async () => {
    const rows: { id: number; location_id: number | null; available: boolean }[] = [];
    for (let page = 1; page <= 2; page++) rows.push(...(await h.call('GET', `/plans?location_id=1&page=${page}`)).json.data);
    expect(rows).toHaveLength(17);
    expect(new Set(rows.map((p) => p.location_id))).toEqual(new Set([null, 1]));
    expect(rows.filter((p) => !p.available).map((p) => p.id)).toEqual([18]);
    for (const p of rows) expect(Plan.parse(p).available).toEqual(expect.any(Boolean));
  });

  it('answers an empty list for a location not open for ordering or unknown', async () => {
    for (const id of [4, 77]) {
      expect((await h.call('GET', `/plans?location_id=${id}`)).json).toEqual({
        data: [],
        meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 },
      });
    }
  });

  it('refuses a bad location_id or page', async () => {
    expectError(await h.call('GET', '/plans?location_id=abc'), 422, 'VALIDATION_ERROR');
    expectError(await h.call('GET', '/plans?page=0'), 422, 'VALIDATION_ERROR');
  });

  it('emits vcpus/ram with legacyPlanFields, which the client schema still reads', async () => {
    const legacy = await start({ legacyPlanFields: true });
    try {
      const raw = (await legacy.call('GET', '/plans')).json.data[0];
      expect(raw).not.toHaveProperty('cpu');
      expect(raw).toMatchObject({ vcpus: 1, ram: 1024 ** 3 });
      expect(Plan.parse(raw)).toMatchObject({ cpu: 1, memory: 1024 ** 3 });
    } finally {
      await legacy.close();
    }
  });
});

describe('SSH keys', () => {
  it('lists keys (not paginated) and deletes one (204, then 404)', async () => {
    const r = await h.call('GET', '/ssh-keys');
    expect(r.json.meta).toBeUndefined();
    const keys = (r.json.data as unknown[]).map((k) => expectShape(SshKey, k));
    expect(keys.map((k) => k.id)).toEqual([11, 12, 13]);
    expect((await h.call('DELETE', '/ssh-keys/13')).status).toBe(204);
    expectError(await h.call('DELETE', '/ssh-keys/13'), 404, 'NOT_FOUND');
    expectError(await h.call('DELETE', '/ssh-keys/abc'), 404, 'NOT_FOUND');
    expect((await h.call('GET', '/ssh-keys')).json.data).toHaveLength(2);
  });
});

describe('account', () => {
  it('GET /account/invoices: most recent first, 35 over 3 pages', async () => {
    const seen: { id: number; created_at: string }[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = await h.call('GET', `/account/invoices?page=${page}`);
      expect(r.json.meta).toEqual({ current_page: page, last_page: 3, per_page: 15, total: 35 });
      for (const inv of r.json.data) seen.push(expectShape(Invoice, inv) as { id: number; created_at: string });
    }
    expect(seen).toHaveLength(35);
    const times = seen.map((i) => Date.parse(i.created_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(seen[0]).toMatchObject({ status: 'paid', type: 'renewal' });
  });

  it('GET /account/usage is computed from state', async () => {
    const u = expectShape(AccountUsage, (await h.call('GET', '/account/usage')).json.data);
    const GB = 1024 ** 3;
    expect(u).toEqual({
      servers: 4,
      cpu_used: 4 + 2 + 1 + 2,
      cpu_limit: 32,
      ram_used: (8 + 16 + 2 + 4) * GB,
      ram_limit_gb: 64,
      disk_used: (160 + 100 + 40 + 80) * GB,
      ip_used: 4,
      ip_limit: 8,
    });
  });
});

describe('empty account (seed: false)', () => {
  it('has one location and subnet, catalogs, and nothing owned', async () => {
    const e = await start({ seed: false });
    try {
      expect((await e.call('GET', '/reserved-ips/subnets')).json.data.map((s: { id: string }) => s.id)).toEqual(['sub-ams-1']);
      expect((await e.call('GET', '/workers/locations')).json.data).toHaveLength(1);
      expect((await e.call('GET', '/ssh-keys')).json.data).toEqual([]);
      expect((await e.call('GET', '/account/invoices')).json.meta.total).toBe(0);
      expect((await e.call('GET', '/account/usage')).json.data).toMatchObject({ servers: 0, ip_used: 0 });
      expectError(await e.call('GET', '/servers/101/status'), 404, 'NOT_FOUND');
      expect((await e.call('GET', '/workers/deploy-requirements')).json.data.workers_used).toBe(0);
      const r = await e.call('POST', '/reserved-ips', { location_id: 1, subnet_id: 'sub-ams-1' });
      expect(r.json.meta).toEqual({ count: 1, limit: 8, used: 1, hourly_price: 0.0065 });
    } finally {
      await e.close();
    }
  });
});
