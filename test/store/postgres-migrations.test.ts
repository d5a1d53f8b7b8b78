/** The PostgreSQL schema: same migrations story as SQLite (migrations.test.ts), on a real server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, MigrationError, PG_MIGRATIONS, createPostgresStore } from '../../src/store/index.js';
import type { Migration, PostgresStore } from '../../src/store/index.js';
import { migratePostgres } from '../../src/store/index.js';
import { createPool } from '../../src/store/postgres/pool.js';
import { postgresUrl, tempStores } from './helpers.js';

let t: ReturnType<typeof tempStores>;
beforeEach(() => {
  t = tempStores('postgres');
});
afterEach(async () => {
  await t.cleanup();
});

const ledger = (schema: string) => t.sql<{ version: number; name: string; applied_at: number }>(schema, 'SELECT * FROM schema_migrations ORDER BY version');

describe('PostgreSQL migrations', () => {
  it('has the same versions and names as the SQLite list', () => {
    expect(PG_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
  });

  it('creates the schema and applies every migration at start: jsonb JSON, bigint times', async () => {
    const schema = t.file();
    const store = t.open(schema) as PostgresStore;
    await store.ready();
    expect((await ledger(schema)).map((r) => [r.version, r.name])).toEqual(MIGRATIONS.map((m) => [m.version, m.name]));
    const types = await t.sql<{ table_name: string; column_name: string; data_type: string }>(
      schema,
      `SELECT table_name, column_name, data_type FROM information_schema.columns
        WHERE table_schema = $1 AND column_name IN ('args', 'facts', 'result', 'state', 'created_at', 'expires_at', 'next_poll_at', 'at')
        ORDER BY table_name, column_name`,
      [schema],
    );
    expect(types.map((c) => `${c.table_name}.${c.column_name}:${c.data_type}`)).toEqual([
      'aliases.created_at:bigint',
      'audit.args:jsonb',
      'audit.at:bigint',
      'deliveries.expires_at:bigint',
      'maintenance_windows.created_at:bigint',
      'monitor_state.state:jsonb',
      'operations.args:jsonb',
      'operations.created_at:bigint',
      'operations.expires_at:bigint',
      'operations.facts:jsonb',
      'operations.result:jsonb',
      'schedule_runs.result:text',
      'schedules.created_at:bigint',
      'steps.created_at:bigint',
      'subscriptions.created_at:bigint',
      'watches.next_poll_at:bigint',
      'watches.state:jsonb',
    ]);
  });

  it('migration 6 (accounts) adds a nullable account to operations, watches and audit; older rows read it as null', async () => {
    const schema = t.file();
    // A database left at version 5 by the previous release, with rows in every table.
    const old = createPool({ url: postgresUrl(), schema, max: 1 });
    try {
      expect(await migratePostgres(old, PG_MIGRATIONS.slice(0, 5), { schema })).toEqual([1, 2, 3, 4, 5]);
      await old.query(`
        INSERT INTO operations (id, op_id, args, status, requested_by, channel_id, created_at, updated_at, expires_at)
        VALUES ('op_AAAAAAAAAAAAAAAA', 'server.reinstall', '{}', 'pending', 'U', 'C', 1, 1, 2);
        INSERT INTO watches (id, kind, resource, operation_id, channel_id, requested_by, status, interval_ms,
                             started_at, deadline_at, next_poll_at, updated_at)
        VALUES ('wAAAAAAAA', 'server', 'srv-1', 'op_AAAAAAAAAAAAAAAA', 'C', 'U', 'active', 1000, 1, 2, 1, 1);
        INSERT INTO audit (at, user_id, op_id, tier, args, outcome) VALUES (1, 'U', 'server.reinstall', 'destroy', '{}', 'requested');
      `);
    } finally {
      await old.end();
    }

    const store = t.open(schema) as PostgresStore; // migrates to the newest version
    await store.ready();
    expect((await ledger(schema)).map((r) => [r.version, r.name])).toContainEqual([6, 'accounts']);
    expect(await store.operations.get('op_AAAAAAAAAAAAAAAA')).toMatchObject({ opId: 'server.reinstall', account: null });
    expect(await store.watches.get('wAAAAAAAA')).toMatchObject({ resource: 'srv-1', account: null });
    expect(await store.audit.list({ limit: 10 })).toEqual([expect.objectContaining({ outcome: 'requested', account: null })]);
    const { record } = await store.operations.create({ opId: 'x.y', args: {}, requestedBy: 'U', channelId: 'C', expiresAt: 3, account: 'acme-staging' });
    expect(await store.operations.get(record.id)).toMatchObject({ account: 'acme-staging' });

    const columns = await t.sql<{ table_name: string; data_type: string; is_nullable: string; column_default: string | null }>(
      schema,
      `SELECT table_name, data_type, is_nullable, column_default FROM information_schema.columns
        WHERE table_schema = $1 AND column_name = 'account' AND table_name IN ('audit', 'operations', 'watches') ORDER BY table_name`,
      [schema],
    );
    expect(columns).toEqual(
      ['audit', 'operations', 'watches'].map((table_name) => ({ table_name, data_type: 'text', is_nullable: 'YES', column_default: null })),
    );
  });

  it('migration 10 (known names) keeps each name seen so far, as a display name', async () => {
    const schema = t.file();
    const old = createPool({ url: postgresUrl(), schema, max: 1 });
    try {
      expect(await migratePostgres(old, PG_MIGRATIONS.slice(0, 9), { schema })).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      await old.query(`
        INSERT INTO known_resources (account, kind, id, uuid, name, first_seen, last_seen) VALUES
          ('prod', 'server', '101', NULL, 'web-1.example.net', 1, 5), ('', 'sg', '7', NULL, NULL, 2, 3);
      `);
    } finally {
      await old.end();
    }
    const store = t.open(schema) as PostgresStore;
    await store.ready();
    expect((await ledger(schema)).map((r) => [r.version, r.name])).toContainEqual([10, 'known names']);
    expect(await store.known.find('prod', 'server', 'WEB-1.example.net')).toEqual([
      expect.objectContaining({ id: '101', name: 'web-1.example.net', names: [{ name: 'web-1.example.net', field: 'name', via: null, lastSeen: 5 }], firstSeen: 1, lastSeen: 5 }),
    ]);
    expect(await store.known.list(null, 'sg', 10)).toEqual([expect.objectContaining({ id: '7', name: null, names: [] })]);
  });

  it('migration 16 (known addresses) keeps every name, and then holds several addresses of a server', async () => {
    const schema = t.file();
    const old = createPool({ url: postgresUrl(), schema, max: 1 });
    try {
      expect(await migratePostgres(old, PG_MIGRATIONS.slice(0, 15), { schema })).toHaveLength(15);
      await old.query(`
        INSERT INTO known_resources (account, kind, id, uuid, first_seen, last_seen) VALUES ('prod', 'server', '101', NULL, 1, 5);
        INSERT INTO known_names (account, kind, id, field, name, via, last_seen) VALUES
          ('prod', 'server', '101', 'name', 'web-1', 'server rename', 4), ('prod', 'server', '101', 'rdns', 'web-1.example.net', 'server ips', 5);
      `);
      await expect(old.query(`INSERT INTO known_names (account, kind, id, field, name, last_seen) VALUES ('prod', 'server', '101', 'ip', '185.10.20.11', 5)`)).rejects.toThrow(/check constraint/);
    } finally {
      await old.end();
    }
    const store = t.open(schema) as PostgresStore;
    await store.ready();
    expect((await ledger(schema)).map((r) => [r.version, r.name])).toContainEqual([16, 'known addresses']);
    await store.known.remember('prod', [{ kind: 'server', id: '101', name: '185.10.20.11', field: 'ip' }, { kind: 'server', id: '101', name: '2a0c:8c0:1::11', field: 'ip' }], 6);
    const [row] = await store.known.list('prod', 'server', 10);
    expect(row!.names.map((n) => `${n.field} ${n.name} ${n.via}`)).toEqual(['name web-1 server rename', 'rdns web-1.example.net server ips', 'ip 185.10.20.11 null', 'ip 2a0c:8c0:1::11 null']);
    expect((await store.known.find('prod', 'server', '2A0C:8C0:1::11')).map((r) => r.id)).toEqual(['101']);
  });

  it('migration 20 (digest posts owed) takes days claimed before it as posted, and holds only a known outcome', async () => {
    const schema = t.file();
    const old = createPool({ url: postgresUrl(), schema, max: 1 });
    try {
      expect(await migratePostgres(old, PG_MIGRATIONS.slice(0, 19), { schema })).toHaveLength(19);
      await old.query(`
        INSERT INTO subscriptions (id, channel_id, account, kind, resource, params, created_by, created_at, last_run)
          VALUES ('sub_aaaaaaaaaa', 'C_OPS', NULL, 'digest', '', '{"at":"09:00","tz":"UTC"}', 'U1', 1, '2026-11-22');
      `);
    } finally {
      await old.end();
    }
    const store = t.open(schema) as PostgresStore;
    await store.ready();
    expect((await ledger(schema)).map((r) => [r.version, r.name])).toContainEqual([20, 'digest posts owed']);
    expect(await store.subscriptions.get('sub_aaaaaaaaaa')).toMatchObject({ lastRun: '2026-11-22', runOwed: null });
    expect(await store.subscriptions.claimRun('sub_aaaaaaaaaa', '2026-11-22', { now: 5, until: 6 })).toBe(false);
    expect(await store.subscriptions.claimRun('sub_aaaaaaaaaa', '2026-11-23', { now: 5, until: 6 })).toBe(true);
    await expect(t.sql(schema, `UPDATE subscriptions SET run_owed = 'lost'`)).rejects.toThrow(/check constraint/);
  });

  it('several replicas starting together migrate once; a restart re-applies nothing', async () => {
    const schema = t.file();
    const replicas = Array.from({ length: 5 }, () => t.open(schema) as PostgresStore);
    await Promise.all(replicas.map((r) => r.ready()));
    const first = await ledger(schema);
    expect(first.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    await Promise.all(replicas.map((r) => r.close()));

    const again = t.open(schema) as PostgresStore;
    await again.ready();
    expect(await ledger(schema)).toEqual(first);
    expect(await migratePostgres(again.pool, PG_MIGRATIONS, { schema })).toEqual([]);
  });

  it('applies only a new migration, and rolls a failing one back entirely, naming it', async () => {
    const schema = t.file();
    const store = t.open(schema) as PostgresStore;
    await store.ready();
    const extra: Migration = { version: PG_MIGRATIONS.length + 1, name: 'example', up: 'CREATE TABLE example_later (id text PRIMARY KEY);' };
    expect(await migratePostgres(store.pool, [...PG_MIGRATIONS, extra], { schema })).toEqual([extra.version]);

    const broken: Migration = { version: extra.version + 1, name: 'half-done', up: 'CREATE TABLE half (id text); INSERT INTO no_such_table VALUES (1);' };
    await expect(migratePostgres(store.pool, [...PG_MIGRATIONS, extra, broken], { schema })).rejects.toThrow(
      /Migration \d+ \("half-done"\) failed: .*no_such_table/,
    );
    expect((await ledger(schema)).at(-1)?.version).toBe(extra.version);
    expect(await t.sql(schema, "SELECT to_regclass('half') AS t")).toEqual([{ t: null }]);
  });

  it('refuses a database written by a newer release, on every call, without the password in the message', async () => {
    const schema = t.file();
    await (t.open(schema) as PostgresStore).ready();
    await t.sql(schema, 'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, 0)', [MIGRATIONS.length + 41, 'from the future']);

    const url = new URL(postgresUrl());
    url.password = 'hunter2-secret';
    const store = createPostgresStore({ url: url.toString(), schema });
    try {
      const err = await store.ready().then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(MigrationError);
      expect((err as Error).message).toMatch(
        new RegExp(`schema version ${MIGRATIONS.length + 41}, newer than this cloudbot knows \\(${MIGRATIONS.length}\\)`),
      );
      expect((err as Error).message).not.toContain('hunter2');
      await expect(store.operations.get('op_aaaaaaaaaaaaaaaa')).rejects.toThrow(MigrationError);
    } finally {
      await store.close();
    }
  });

  it('a statement that waits on a held lock fails within the lock timeout instead of stalling', async () => {
    const schema = t.file();
    const store = t.open(schema, undefined, { lockTimeoutMs: 300 }) as PostgresStore;
    const { record } = await store.operations.create({ opId: 'x.y', args: {}, requestedBy: 'U', channelId: 'C', expiresAt: 1 });
    const holder = await store.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM operations WHERE id = $1 FOR UPDATE', [record.id]);
      // Refused by the lock timeout itself (not a test timeout): the statement gave up waiting.
      await expect(store.operations.setMessage(record.id, 'C', '1.2')).rejects.toThrow(/lock timeout/);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });
});
