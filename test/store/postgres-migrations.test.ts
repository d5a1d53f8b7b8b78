/** The PostgreSQL schema: same migrations story as SQLite (migrations.test.ts), on a real server. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, MigrationError, PG_MIGRATIONS, createPostgresStore } from '../../src/store/index.js';
import type { Migration, PostgresStore } from '../../src/store/index.js';
import { migratePostgres } from '../../src/store/index.js';
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
      'audit.args:jsonb',
      'audit.at:bigint',
      'operations.args:jsonb',
      'operations.created_at:bigint',
      'operations.expires_at:bigint',
      'operations.facts:jsonb',
      'operations.result:jsonb',
      'watches.next_poll_at:bigint',
      'watches.state:jsonb',
    ]);
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
      const started = Date.now();
      await expect(store.operations.setMessage(record.id, 'C', '1.2')).rejects.toThrow(/lock timeout/);
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  });
});
