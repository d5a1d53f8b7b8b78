/**
 * The embedded store: SQLite through better-sqlite3, WAL mode, migrations applied at open.
 * The stores are the same as PostgreSQL's (written once over dialect.ts); every state change is
 * one conditional UPDATE, so concurrent clicks — in this process, in a second connection, or in
 * another process on the same file — have exactly one winner.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { migrate } from './migrations.js';
import { createWatchStore } from './watch-store.js';
import { createAuditStore } from './audit-store.js';
import { createMonitorStores } from './monitor-store.js';
import { createKnownStore } from './known-store.js';
import { createAliasStore } from './alias-store.js';
import { createDeliveryStore } from './delivery-store.js';
import { createScheduleStore } from './schedule-store.js';
import { createMaintenanceStore } from './maintenance-store.js';
import { createStepStore } from './step-store.js';
import { sqliteSql } from './dialect.js';
import { createLockRetry, retryingMethods, type LockRetryOptions } from './sqlite-retry.js';
import { createOperationStore } from './operation-store.js';
import type { Store } from './store.js';

export interface SqliteStoreOptions {
  /** File path (its folder is created) or ':memory:'. */
  path: string;
  /** Source of createdAt/updatedAt where the caller gives no `now`; default the system clock. */
  clock?: Pick<Clock, 'now'>;
  /**
   * Milliseconds the driver itself waits for another connection's lock (default 2). It waits
   * synchronously, stalling the whole process, so it stays tiny: the wait happens in `lockRetry`.
   */
  busyTimeoutMs?: number;
  /** The async wait for a lock: budget (default 2 s), pauses, and the timer tests inject. */
  lockRetry?: LockRetryOptions;
}

const BUSY_TIMEOUT_MS = 2;
/** Opening and migrating happen once at start, before any request: they may wait like before. */
const OPEN_BUSY_TIMEOUT_MS = 5000;

/** Opens (creating if needed) and migrates the database. Throws if it cannot, closing what it opened. */
export function createSqliteStore(options: SqliteStoreOptions): Store {
  const { path } = options;
  const clock = options.clock ?? { now: () => Date.now() };
  const busyTimeout = options.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
  const inMemory = path === ':memory:';
  if (!path) throw new TypeError('createSqliteStore needs a path (a file path or ":memory:")');
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true });

  const db = new Database(path, { timeout: OPEN_BUSY_TIMEOUT_MS });
  try {
    db.pragma(`busy_timeout = ${OPEN_BUSY_TIMEOUT_MS}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    // Overwrite freed content (erased sealed secrets) instead of leaving it in free pages.
    db.pragma('secure_delete = ON');
    migrate(db, undefined, clock.now);
    // From here on requests run: a lock is waited for asynchronously (sqlite-retry.ts).
    db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(busyTimeout))}`);
    const run = createLockRetry(options.lockRetry);
    const sql = sqliteSql(db);
    const operations = retryingMethods(createOperationStore(sql, clock), run);
    const watches = retryingMethods(createWatchStore(sql, clock), run);
    const audit = retryingMethods(createAuditStore(sql, clock), run);
    const monitor = createMonitorStores(sql);
    return {
      operations,
      watches,
      audit,
      subscriptions: retryingMethods(monitor.subscriptions, run),
      alerts: retryingMethods(monitor.alerts, run),
      monitorState: retryingMethods(monitor.monitorState, run),
      leases: retryingMethods(monitor.leases, run),
      known: retryingMethods(createKnownStore(sql), run),
      aliases: retryingMethods(createAliasStore(sql), run),
      deliveries: retryingMethods(createDeliveryStore(sql), run),
      schedules: retryingMethods(createScheduleStore(sql), run),
      maintenance: retryingMethods(createMaintenanceStore(sql), run),
      steps: retryingMethods(createStepStore(sql), run),
      async close() {
        if (db.open) db.close();
      },
    };
  } catch (err) {
    db.close();
    throw err;
  }
}

