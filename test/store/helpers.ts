import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, beforeEach, describe, inject } from 'vitest';
import { createPostgresStore, createSqliteStore } from '../../src/store/index.js';
import type { NewOperation, PostgresStore, Store } from '../../src/store/index.js';

export const T0 = Date.parse('2026-11-22T12:00:00Z');

/** The store test suites run once per backend. */
export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

/** A mutable clock for createdAt/updatedAt. */
export function fixedClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    set: (ms: number) => {
      now = ms;
    },
  };
}

/** The server from the global setup; throws (fails the test, never skips) if there is none. */
export function postgresUrl(): string {
  const pgInfo = inject('postgres');
  if ('error' in pgInfo) throw new Error(pgInfo.error);
  return pgInfo.url;
}

let schemaCount = 0;

/**
 * Databases per test, and every store opened on them, cleaned up by `cleanup()`. SQLite: files in
 * a temp folder (`file(name)` is a path). PostgreSQL: `file(name)` is a fresh schema of its own
 * in the test server (so parallel workers never meet), dropped at cleanup. Opening the same
 * name twice gives a second connection (pool) on the same database, as a second replica would.
 */
export function tempStores(backend: Backend = 'sqlite') {
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-store-'));
  const open: Store[] = [];
  const schemas = new Set<string>();
  const tag = `t${process.pid}_${Date.now().toString(36)}_${(schemaCount++).toString(36)}`;
  let admin: pg.Pool | undefined;
  const adminPool = () => (admin ??= new pg.Pool({ connectionString: postgresUrl(), max: 2 }));

  const file = (name = 'cloudbot.db') => {
    if (backend === 'sqlite') return join(dir, name);
    const schema = `${tag}_${name.toLowerCase().replace(/[^a-z0-9]+/g, '_')}`.slice(0, 63);
    schemas.add(schema);
    return schema;
  };

  return {
    backend,
    dir,
    file,
    open(path: string, clock = fixedClock(), options: { max?: number; lockTimeoutMs?: number } = {}): Store {
      const store =
        backend === 'sqlite'
          ? createSqliteStore({ path, clock })
          : createPostgresStore({ url: postgresUrl(), schema: path, clock, ...options });
      open.push(store);
      return store;
    },
    /** Rows in a table, read past the store (as an operator would). */
    async count(path: string, table: string): Promise<number> {
      if (backend === 'postgres') {
        const { rows } = await adminPool().query<{ n: string }>(`SELECT count(*) AS n FROM ${path}.${table}`);
        return Number(rows[0]!.n);
      }
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
      } finally {
        db.close();
      }
    },
    /** A raw query on a PostgreSQL test schema (for tests of the schema itself). */
    async sql<R extends pg.QueryResultRow = Record<string, unknown>>(schema: string, text: string, values: unknown[] = []): Promise<R[]> {
      const client = await adminPool().connect();
      try {
        await client.query(`SET search_path = ${schema}`);
        return (await client.query<R>(text, values)).rows;
      } finally {
        await client.query('RESET search_path').catch(() => {});
        client.release();
      }
    },
    async cleanup() {
      for (const s of open) await s.close();
      rmSync(dir, { recursive: true, force: true });
      if (schemas.size) {
        for (const s of schemas) await adminPool().query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
      }
      await admin?.end();
    },
  };
}

export type PgStore = PostgresStore;

export function newOp(over: Partial<NewOperation> = {}): NewOperation {
  return {
    opId: 'server.reinstall',
    args: { server: 'srv-123', image: 'ubuntu-24.04', tags: ['a', 'b'], nested: { n: 1, ok: true } },
    requestedBy: 'U_ALICE',
    teamId: 'T_ACME',
    channelId: 'C_OPS',
    expiresAt: T0 + 5 * 60_000,
    ...over,
  };
}

export type TempStores = ReturnType<typeof tempStores>;

/**
 * The suite once per backend, each test with fresh stores removed after it. `t` stays the
 * same object across tests; its methods are the current test's.
 */
export function describeStores(body: (t: TempStores, backend: Backend) => void): void {
  describe.each(BACKENDS)('%s', (backend) => {
    const t = {} as TempStores;
    beforeEach(() => {
      Object.assign(t, tempStores(backend));
    });
    afterEach(async () => {
      await t.cleanup();
    });
    body(t, backend);
  });
}
