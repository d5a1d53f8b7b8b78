/**
 * Chooses the store from DATABASE_URL: `postgres://…` / `postgresql://…` → PostgreSQL (several
 * replicas can share it); `sqlite:<path>`, a bare path or `:memory:` → the embedded SQLite file.
 */
import type { Clock } from '../clock.js';
import { createPostgresStore, type PostgresStoreOptions } from './postgres/postgres-store.js';
import { createSqliteStore } from './sqlite-store.js';
import type { LockRetryOptions } from './sqlite-retry.js';
import type { Store } from './store.js';

export type DatabaseTarget = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export interface CreateStoreOptions extends Omit<PostgresStoreOptions, 'url' | 'clock'> {
  clock?: Pick<Clock, 'now'>;
  /** SQLite only: ms the driver waits synchronously for another connection's lock (keep it tiny). */
  busyTimeoutMs?: number;
  /** SQLite only: the async wait for a lock (budget, pauses, timer). */
  lockRetry?: LockRetryOptions;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** `postgres(ql)://…` → postgres; `sqlite:<path>` or anything else → a SQLite path. */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  if (isPostgresUrl(url)) return { kind: 'postgres', url };
  return { kind: 'sqlite', path: url.startsWith('sqlite:') ? url.slice('sqlite:'.length) : url };
}

export function createStore(target: string | DatabaseTarget, options: CreateStoreOptions = {}): Store {
  const t = typeof target === 'string' ? parseDatabaseUrl(target) : target;
  const { clock, busyTimeoutMs, lockRetry, ...pg } = options;
  if (t.kind === 'postgres') return createPostgresStore({ ...pg, url: t.url, ...(clock ? { clock } : {}) });
  return createSqliteStore({
    path: t.path,
    ...(clock ? { clock } : {}),
    ...(busyTimeoutMs !== undefined ? { busyTimeoutMs } : {}),
    ...(lockRetry ? { lockRetry } : {}),
  });
}
