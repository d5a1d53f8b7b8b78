/**
 * The shared store: PostgreSQL through a `pg` pool, for several bot replicas on one database.
 * The store is usable at once; migrations start immediately and every query waits for them, so
 * a failed migration (or an unreachable server) rejects each call with the reason.
 */
import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { Store } from '../store.js';
import { createPgAuditStore } from './audit-store.js';
import { migratePostgres } from './migrations.js';
import { createPgOperationStore } from './operation-store.js';
import { createPool, describeUrl, type PoolOptions } from './pool.js';
import type { Queryable } from './sql.js';
import { createPgWatchStore } from './watch-store.js';
import { createPgMonitorStores } from './monitor-store.js';
import { createPgKnownStore } from './known-store.js';
import { createPgAliasStore } from './alias-store.js';
import { toStoreError } from './pg-errors.js';

export interface PostgresStoreOptions extends PoolOptions {
  clock?: Pick<Clock, 'now'>;
  /** How long start-up waits for migrations, another replica's included (default 60 s). */
  migrationTimeoutMs?: number;
}

export interface PostgresStore extends Store {
  /** Resolves once the schema is migrated; rejects with why not. */
  ready(): Promise<void>;
  /** The pool (tests look at how many connections it opened). */
  readonly pool: pg.Pool;
  /** host:port/database, without credentials. */
  readonly description: string;
}

export function createPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const clock = options.clock ?? { now: () => Date.now() };
  const pool = createPool(options);
  const migrated = migratePostgres(pool, undefined, {
    ...(options.schema !== undefined ? { schema: options.schema } : {}),
    ...(options.migrationTimeoutMs !== undefined ? { timeoutMs: options.migrationTimeoutMs } : {}),
    now: clock.now,
    url: options.url,
  }).then(() => undefined);
  migrated.catch(() => {}); // reported by ready() and by every call, not as an unhandled rejection
  let closed = false;

  const db = async (): Promise<Queryable> => {
    if (closed) throw new Error(`The store is not open (PostgreSQL at ${describeUrl(options.url)} was closed)`);
    // An unreachable server at start rejects every call with the store's error, not pg's.
    await migrated.catch((e: unknown) => Promise.reject(toStoreError(e)));
    return pool;
  };

  return {
    operations: createPgOperationStore(db, clock),
    watches: createPgWatchStore(db, clock),
    audit: createPgAuditStore(db, clock),
    ...createPgMonitorStores(db),
    known: createPgKnownStore(db),
    aliases: createPgAliasStore(db),
    pool,
    description: describeUrl(options.url),
    ready: () => migrated,
    async close() {
      if (closed) return;
      closed = true;
      await migrated.catch(() => {});
      await pool.end();
    },
  };
}
