/**
 * The shared store: PostgreSQL through a `pg` pool, for several bot replicas on one database.
 * The store is usable at once; migrations start immediately and every query waits for them, so
 * a failed migration (or an unreachable server) rejects each call with the reason.
 */
import type pg from 'pg';
import type { Clock } from '../../clock.js';
import type { Store } from '../store.js';
import { createAuditStore } from '../audit-store.js';
import { migratePostgres } from './migrations.js';
import { createOperationStore } from '../operation-store.js';
import { createPool, describeUrl, type PoolOptions } from './pool.js';
import { createWatchStore } from '../watch-store.js';
import { createMonitorStores } from '../monitor-store.js';
import { createKnownStore } from '../known-store.js';
import { createAliasStore } from '../alias-store.js';
import { createDeliveryStore } from '../delivery-store.js';
import { createScheduleStore } from '../schedule-store.js';
import { createMaintenanceStore } from '../maintenance-store.js';
import { createStepStore } from '../step-store.js';
import { postgresSql } from '../dialect.js';
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

  const sql = postgresSql(async () => {
    if (closed) throw new Error(`The store is not open (PostgreSQL at ${describeUrl(options.url)} was closed)`);
    // An unreachable server at start rejects every call with the store's error, not pg's.
    await migrated.catch((e: unknown) => Promise.reject(toStoreError(e)));
    return pool;
  });

  return {
    operations: createOperationStore(sql, clock),
    watches: createWatchStore(sql, clock),
    audit: createAuditStore(sql, clock),
    ...createMonitorStores(sql),
    known: createKnownStore(sql),
    aliases: createAliasStore(sql),
    deliveries: createDeliveryStore(sql),
    schedules: createScheduleStore(sql),
    maintenance: createMaintenanceStore(sql),
    steps: createStepStore(sql),
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
