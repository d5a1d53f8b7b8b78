/** The monitor's state and lease stores, and migration 7 over a v6 database, on both backends. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, PG_MIGRATIONS, migrate, migratePostgres, schemaVersion } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { T0, postgresUrl, describeStores } from './helpers.js';

const V6_ROWS = `
  INSERT INTO operations (id, op_id, args, status, requested_by, channel_id, created_at, updated_at, expires_at, account)
  VALUES ('op_AAAAAAAAAAAAAAAA', 'server.reinstall', '{}', 'pending', 'U', 'C', 1, 1, 2, 'acme-staging');
  INSERT INTO watches (id, kind, resource, operation_id, channel_id, requested_by, status, interval_ms,
                       started_at, deadline_at, next_poll_at, updated_at)
  VALUES ('wAAAAAAAA', 'server', 'srv-1', 'op_AAAAAAAAAAAAAAAA', 'C', 'U', 'active', 1000, 1, 2, 1, 1);
  INSERT INTO audit (at, user_id, op_id, tier, args, outcome) VALUES (1, 'U', 'server.reinstall', 'destroy', '{}', 'requested');
`;

describeStores((t, backend) => {

  const twoStores = async (): Promise<[Store, Store]> => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    await Promise.all([a.monitorState.get('x'), b.monitorState.get('x')]); // both migrated and connected
    return [a, b];
  };

  describe('monitor state', () => {
    it('keeps the last state per key, across a reopen', async () => {
      const path = t.file();
      const store = t.open(path);
      expect(await store.monitorState.get('|server|srv-1')).toBeUndefined();
      await store.monitorState.put('|server|srv-1', { status: 'running', ips: ['1.2.3.4'] }, T0);
      await store.monitorState.put('acme|usage|', { cpu: 12 }, T0);
      await store.monitorState.put('|server|srv-1', { status: 'off' }, T0 + 1);
      await store.close();
      const again = t.open(path);
      expect(await again.monitorState.get('|server|srv-1')).toEqual({ status: 'off' });
      expect(await again.monitorState.get('acme|usage|')).toEqual({ cpu: 12 });
      expect(await t.count(path, 'monitor_state')).toBe(2);
    });

    it('refuses bad input', async () => {
      const store = t.open(t.file());
      await expect(store.monitorState.put('', {}, T0)).rejects.toThrow(/key must be a non-empty string/);
      await expect(store.monitorState.put('k', [] as unknown as Record<string, unknown>, T0)).rejects.toThrow(/state must be a plain object/);
      await expect(store.monitorState.put('k', {}, 1.5)).rejects.toThrow(/now must be an integer/);
      await expect(store.monitorState.get('')).rejects.toThrow(/key must be a non-empty string/);
      expect(await store.monitorState.get('k')).toBeUndefined();
    });
  });

  describe('leases', () => {
    it('one holder until it expires; the holder renews; another takes over at expiry, not before', async () => {
      const [a, b] = await twoStores();
      expect(await a.leases.acquire('monitor', 'replica-a', T0, T0 + 30_000)).toBe(true);
      expect(await b.leases.acquire('monitor', 'replica-b', T0 + 29_999, T0 + 60_000)).toBe(false);
      expect(await a.leases.acquire('monitor', 'replica-a', T0 + 20_000, T0 + 50_000)).toBe(true); // renewed
      expect(await b.leases.acquire('monitor', 'replica-b', T0 + 49_999, T0 + 80_000)).toBe(false);
      expect(await b.leases.acquire('monitor', 'replica-b', T0 + 50_000, T0 + 80_000)).toBe(true); // expired: taken over
      expect(await a.leases.acquire('monitor', 'replica-a', T0 + 50_001, T0 + 80_000)).toBe(false);
      // Other names are other leases.
      expect(await a.leases.acquire('digest', 'replica-a', T0 + 50_001, T0 + 80_000)).toBe(true);
    });

    it('release gives it up only for its owner', async () => {
      const [a, b] = await twoStores();
      expect(await a.leases.acquire('monitor', 'replica-a', T0, T0 + 30_000)).toBe(true);
      await b.leases.release('monitor', 'replica-b');
      expect(await b.leases.acquire('monitor', 'replica-b', T0 + 1, T0 + 30_000)).toBe(false);
      await a.leases.release('monitor', 'replica-a');
      expect(await b.leases.acquire('monitor', 'replica-b', T0 + 2, T0 + 30_000)).toBe(true);
      await a.leases.release('monitor', 'replica-a'); // no longer ours: nothing happens
      expect(await a.leases.acquire('monitor', 'replica-a', T0 + 3, T0 + 30_000)).toBe(false);
    });

    it('of many replicas acquiring a free or expired lease at once on two connections, exactly one gets it', async () => {
      const [a, b] = await twoStores();
      const race = (now: number) =>
        Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).leases.acquire('monitor', `replica-${i}`, now, now + 30_000)));
      const first = await race(T0);
      expect(first.filter(Boolean)).toHaveLength(1);
      const second = await race(T0 + 30_000); // the first holder's lease has just expired
      expect(second.filter(Boolean)).toHaveLength(1);
    });

    it('refuses bad input', async () => {
      const store = t.open(t.file());
      await expect(store.leases.acquire('', 'r', T0, T0 + 1)).rejects.toThrow(/name must be a non-empty string/);
      await expect(store.leases.acquire('m', '', T0, T0 + 1)).rejects.toThrow(/owner must be a non-empty string/);
      await expect(store.leases.acquire('m', 'r', T0, T0)).rejects.toThrow(/until must be after now/);
      await expect(store.leases.acquire('m', 'r', T0 + 0.5, T0 + 1)).rejects.toThrow(/now must be an integer/);
      await expect(store.leases.release('m', '')).rejects.toThrow(/owner must be a non-empty string/);
      expect(await store.leases.acquire('m', 'r', T0, T0 + 1)).toBe(true);
    });
  });

  it('migration 7 (monitor) adds the monitor tables to a v6 database with rows, which stay as they were', async () => {
    expect(MIGRATIONS[6]).toMatchObject({ version: 7, name: 'monitor' });
    const path = t.file();
    if (backend === 'sqlite') {
      const db = new Database(path);
      try {
        expect(migrate(db, MIGRATIONS.slice(0, 6))).toEqual([1, 2, 3, 4, 5, 6]);
        db.exec(V6_ROWS);
      } finally {
        db.close();
      }
    } else {
      const old = createPool({ url: postgresUrl(), schema: path, max: 1 });
      try {
        expect(await migratePostgres(old, PG_MIGRATIONS.slice(0, 6), { schema: path })).toEqual([1, 2, 3, 4, 5, 6]);
        await old.query(V6_ROWS);
      } finally {
        await old.end();
      }
    }

    const store = t.open(path); // migrates to the newest version
    expect(await store.operations.get('op_AAAAAAAAAAAAAAAA')).toMatchObject({ opId: 'server.reinstall', account: 'acme-staging' });
    expect(await store.watches.get('wAAAAAAAA')).toMatchObject({ resource: 'srv-1', account: null });
    expect(await store.audit.list({ limit: 10 })).toEqual([expect.objectContaining({ outcome: 'requested' })]);
    const { record } = await store.subscriptions.add({ channelId: 'C', account: null, kind: 'server', resource: 'srv-1', createdBy: 'U', createdAt: T0 });
    expect((await store.alerts.open({ subscriptionId: record.id, channelId: 'C', condition: 'power-off', startedAt: T0 })).created).toBe(true);
    await store.monitorState.put('|server|srv-1', { status: 'off' }, T0);
    expect(await store.leases.acquire('monitor', 'r', T0, T0 + 1)).toBe(true);

    const versions =
      backend === 'sqlite'
        ? (() => {
            const db = new Database(path, { readonly: true });
            try {
              return schemaVersion(db);
            } finally {
              db.close();
            }
          })()
        : Number((await t.sql<{ v: number }>(path, 'SELECT MAX(version) AS v FROM schema_migrations'))[0]!.v);
    expect(versions).toBe(MIGRATIONS.length);
    for (const table of ['subscriptions', 'alerts', 'monitor_state', 'leases']) expect(await t.count(path, table)).toBe(1);
  });
});
