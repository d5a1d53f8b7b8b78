/**
 * The embedded store: SQLite through better-sqlite3, WAL mode, migrations applied at open.
 * Every state change is one conditional UPDATE, so concurrent clicks — in this process, in a
 * second connection, or in another process on the same file — have exactly one winner.
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { newOperationId } from './ids.js';
import { migrate } from './migrations.js';
import { createWatchStore } from './watch-store.js';
import { createAuditStore } from './audit-store.js';
import { createMonitorStores } from './monitor-store.js';
import { createKnownStore } from './known-store.js';
import { createAliasStore } from './alias-store.js';
import { createLockRetry, retryingMethods, type LockRetryOptions } from './sqlite-retry.js';
import { PATCH_COLUMN_NAMES, assertInteger, assertText, insertParams, patchParams, rowToRecord } from './operation-rows.js';
import type { OperationRow } from './operation-rows.js';
import { TERMINAL_STATUSES } from './types.js';
import type { NewOperation, OperationStore, TransitionRequest, TransitionResult } from './types.js';
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
    const operations = retryingMethods(createOperationStore(db, clock), run);
    const watches = retryingMethods(createWatchStore(db, clock), run);
    const audit = retryingMethods(createAuditStore(db, clock), run);
    const monitor = createMonitorStores(db);
    return {
      operations,
      watches,
      audit,
      subscriptions: retryingMethods(monitor.subscriptions, run),
      alerts: retryingMethods(monitor.alerts, run),
      monitorState: retryingMethods(monitor.monitorState, run),
      leases: retryingMethods(monitor.leases, run),
      known: retryingMethods(createKnownStore(db), run),
      aliases: retryingMethods(createAliasStore(db), run),
      async close() {
        if (db.open) db.close();
      },
    };
  } catch (err) {
    db.close();
    throw err;
  }
}


function createOperationStore(db: Db, clock: Pick<Clock, 'now'>): OperationStore {
  const insert = db.prepare<Record<string, unknown>, OperationRow>(`
    INSERT INTO operations (id, op_id, args, facts, sealed_secrets, status, requested_by, team_id, channel_id,
                            dedupe_key, created_at, updated_at, expires_at, account)
    VALUES (@id, @op_id, @args, @facts, @sealed_secrets, 'pending', @requested_by, @team_id, @channel_id,
            @dedupe_key, @now, @now, @expires_at, @account)
    ON CONFLICT (dedupe_key) DO NOTHING
    RETURNING *`);
  const byId = db.prepare<[string], OperationRow>('SELECT * FROM operations WHERE id = ?');
  const byDedupeKey = db.prepare<[string], OperationRow>('SELECT * FROM operations WHERE dedupe_key = ?');
  const updateMessage = db.prepare<[string, string, number, string]>(
    'UPDATE operations SET channel_id = ?, message_ts = ?, updated_at = ? WHERE id = ?',
  );

  const patchSql = PATCH_COLUMN_NAMES.filter((c) => c !== 'sealed_secrets' && c !== 'finished_at')
    .map((c) => `${c} = CASE WHEN @set_${c} THEN @${c} ELSE ${c} END`)
    .join(',\n      ');
  const compareAndSet = db.prepare<Record<string, unknown>, OperationRow>(`
    UPDATE operations SET
      status = @to,
      updated_at = @now,
      ${patchSql},
      sealed_secrets = CASE WHEN @terminal THEN NULL
                            WHEN @set_sealed_secrets THEN @sealed_secrets ELSE sealed_secrets END,
      finished_at = CASE WHEN @set_finished_at THEN @finished_at
                         WHEN @terminal THEN @now ELSE finished_at END
    WHERE id = @id
      AND status IN (SELECT value FROM json_each(@from))
      AND (@require_unexpired = 0 OR expires_at > @now)
    RETURNING *`);
  const expire = db.prepare<{ now: number }, OperationRow>(`
    UPDATE operations
       SET status = 'expired', sealed_secrets = NULL, updated_at = @now, finished_at = @now
     WHERE status = 'pending' AND expires_at <= @now
    RETURNING *`);
  const unfinished = db.prepare<[], OperationRow>(`
    SELECT * FROM operations WHERE status IN ('confirmed', 'running') ORDER BY created_at, rowid`);
  const recent = db.prepare<[number], OperationRow>(
    'SELECT * FROM operations ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );
  const recentBy = db.prepare<[string, number], OperationRow>(
    'SELECT * FROM operations WHERE requested_by = ? ORDER BY created_at DESC, rowid DESC LIMIT ?',
  );

  // IMMEDIATE: take the write lock up front, so the follow-up read in the same transaction
  // sees exactly the state that decided the outcome.
  const createTx = db.transaction((params: Record<string, unknown>, dedupeKey: string | null) => {
    const row = insert.get(params);
    if (row) return { record: rowToRecord(row), created: true };
    const existing = dedupeKey === null ? undefined : byDedupeKey.get(dedupeKey);
    if (!existing) throw new Error('operation insert returned no row and no existing record');
    return { record: rowToRecord(existing), created: false };
  });

  const transitionTx = db.transaction((id: string, t: TransitionRequest): TransitionResult => {
    const row = compareAndSet.get({
      id,
      to: t.to,
      now: t.now,
      from: JSON.stringify(t.from),
      require_unexpired: t.requireUnexpired ? 1 : 0,
      terminal: TERMINAL_STATUSES.includes(t.to) ? 1 : 0,
      ...patchParams(t.patch ?? {}),
    });
    if (row) return { ok: true, record: rowToRecord(row) };
    const current = byId.get(id);
    if (!current) return { ok: false, record: undefined, reason: 'not_found' };
    const record = rowToRecord(current);
    const inFrom = t.from.includes(record.status);
    const expired =
      (inFrom && t.requireUnexpired === true && record.expiresAt <= t.now) ||
      (!inFrom && record.status === 'expired');
    return { ok: false, record, reason: expired ? 'expired' : 'wrong_status' };
  });

  return {
    async create(input: NewOperation) {
      const now = clock.now();
      const params = insertParams(input, newOperationId(), now);
      const dedupeKey = params.dedupe_key;
      return createTx.immediate(params, dedupeKey);
    },

    async get(id) {
      const row = byId.get(id);
      return row ? rowToRecord(row) : undefined;
    },

    async setMessage(id, channelId, messageTs) {
      assertText(channelId, 'channelId');
      assertText(messageTs, 'messageTs');
      const { changes } = updateMessage.run(channelId, messageTs, clock.now(), id);
      if (changes === 0) throw new Error(`No operation ${id} to attach a message to`);
    },

    async transition(id, t) {
      if (!Array.isArray(t.from) || t.from.length === 0) throw new TypeError('transition needs at least one `from` status');
      assertInteger(t.now, 'now');
      return transitionTx.immediate(id, t);
    },

    async expireDue(now) {
      assertInteger(now, 'now');
      return expire
        .all({ now })
        .map(rowToRecord)
        .sort((a, b) => a.expiresAt - b.expiresAt || a.createdAt - b.createdAt);
    },

    async listUnfinished() {
      return unfinished.all().map(rowToRecord);
    },

    async listRecent({ limit, requestedBy }) {
      const n = Math.max(0, Math.min(Math.trunc(limit), 1000));
      if (!Number.isFinite(n) || n === 0) return [];
      const rows = requestedBy === undefined ? recent.all(n) : recentBy.all(requestedBy, n);
      return rows.map(rowToRecord);
    },
  };
}
