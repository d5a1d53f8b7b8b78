/**
 * The audit trail in SQLite (migration 4): append-only rows, read newest first. The store
 * keeps what it is given exactly (args as a JSON object); masking and trimming are the
 * auditor's job, before anything reaches a sink.
 */
import type { Database as Db } from 'better-sqlite3';
import type { AuditEntry, AuditOutcome, NewAuditEntry } from '../domain/audit-entry.js';
import type { Clock } from '../clock.js';
import type { Tier } from '../domain/tier.js';
import { accountParam, objectToJson } from './operation-rows.js';

export const AUDIT_TIERS = ['read', 'change', 'billing', 'destroy', 'secret'] as const satisfies readonly Tier[];
export const AUDIT_OUTCOMES = [
  'succeeded',
  'failed',
  'refused',
  'requested',
  'cancelled',
  'expired',
] as const satisfies readonly AuditOutcome[];

// Compile-time: the lists above name every value of their types (the migration's CHECKs match them).
type Missing<T, L extends readonly unknown[]> = Exclude<T, L[number]>;
const everyTier: [Missing<Tier, typeof AUDIT_TIERS>] extends [never] ? true : never = true;
const everyOutcome: [Missing<AuditOutcome, typeof AUDIT_OUTCOMES>] extends [never] ? true : never = true;
void everyTier;
void everyOutcome;

/** Most rows one `list` returns. */
export const AUDIT_LIST_MAX = 500;

export interface AuditStore {
  /** Appends one entry; `at` is epoch ms (the clock's now if left out). Rejects on a bad tier, outcome or args. */
  insert(entry: NewAuditEntry & { at: number }): Promise<AuditEntry>;
  /**
   * Appends several entries at once, all or none (one transaction, one statement on
   * PostgreSQL); the stored entries come back in the order given. The auditor groups the
   * entries that arrive while a write is in flight (group commit).
   */
  insertMany(entries: readonly (NewAuditEntry & { at: number })[]): Promise<AuditEntry[]>;
  /** Newest first (by `at`, then id); `limit` is clamped to 1..500. */
  list(query: { userId?: string; limit: number }): Promise<AuditEntry[]>;
}

export interface AuditRow {
  id: number;
  at: number;
  user_id: string;
  channel_id: string | null;
  op_id: string;
  tier: string;
  args: string;
  outcome: string;
  error_code: string | null;
  confirmed_by: string | null;
  approved_by: string | null;
  operation_id: string | null;
  duration_ms: number | null;
  detail: string | null;
  account: string | null;
}

export function toEntry(r: AuditRow): AuditEntry {
  if (!(AUDIT_TIERS as readonly string[]).includes(r.tier)) throw new Error(`audit.tier of ${r.id} is unknown: ${r.tier}`);
  if (!(AUDIT_OUTCOMES as readonly string[]).includes(r.outcome)) throw new Error(`audit.outcome of ${r.id} is unknown: ${r.outcome}`);
  return {
    id: r.id,
    at: r.at,
    userId: r.user_id,
    channelId: r.channel_id,
    opId: r.op_id,
    tier: r.tier as Tier,
    args: JSON.parse(r.args) as Record<string, unknown>,
    outcome: r.outcome as AuditOutcome,
    errorCode: r.error_code,
    confirmedBy: r.confirmed_by,
    approvedBy: r.approved_by,
    operationId: r.operation_id,
    durationMs: r.duration_ms,
    detail: r.detail,
    account: r.account,
  };
}

export function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${what} must be a non-empty string`);
  return value;
}

export function optionalText(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string or null`);
  return value;
}

/** Checks a new entry and gives the named parameters of its INSERT (both backends). */
export function auditInsertParams(entry: NewAuditEntry & { at?: number }, now: number) {
  const at = entry.at ?? now;
  if (!Number.isSafeInteger(at)) throw new TypeError('at must be an integer (epoch ms)');
  const duration = entry.durationMs ?? null;
  if (duration !== null && !(Number.isFinite(duration) && duration >= 0)) {
    throw new TypeError('durationMs must be a non-negative number or null');
  }
  return {
      at,
      user_id: text(entry.userId, 'userId'),
      channel_id: optionalText(entry.channelId, 'channelId'),
      op_id: text(entry.opId, 'opId'),
      tier: entry.tier,
      args: objectToJson(entry.args, 'args'),
      outcome: entry.outcome,
      error_code: optionalText(entry.errorCode, 'errorCode'),
      confirmed_by: optionalText(entry.confirmedBy, 'confirmedBy'),
      approved_by: optionalText(entry.approvedBy, 'approvedBy'),
      operation_id: optionalText(entry.operationId, 'operationId'),
      // An integer column in both backends: a measured 12.5 ms is stored as 13.
      duration_ms: duration === null ? null : Math.round(duration),
      detail: optionalText(entry.detail, 'detail'),
      account: accountParam(entry.account),
  };
}

/** Clamps a requested page size to 1..AUDIT_LIST_MAX (NaN counts as 1). */
export function clampAuditLimit(limit: number): number {
  if (Number.isNaN(limit)) return 1;
  return Math.min(AUDIT_LIST_MAX, Math.max(1, Math.trunc(limit)));
}

export function createAuditStore(db: Db, clock: Pick<Clock, 'now'>): AuditStore {
  const insert = db.prepare<Record<string, unknown>, AuditRow>(`
    INSERT INTO audit (at, user_id, channel_id, op_id, tier, args, outcome, error_code, confirmed_by,
                       approved_by, operation_id, duration_ms, detail, account)
    VALUES (@at, @user_id, @channel_id, @op_id, @tier, @args, @outcome, @error_code, @confirmed_by,
            @approved_by, @operation_id, @duration_ms, @detail, @account)
    RETURNING *`);
  const recent = db.prepare<[number], AuditRow>('SELECT * FROM audit ORDER BY at DESC, id DESC LIMIT ?');
  const recentBy = db.prepare<[string, number], AuditRow>(
    'SELECT * FROM audit WHERE user_id = ? ORDER BY at DESC, id DESC LIMIT ?',
  );

  const insertOne = (entry: NewAuditEntry & { at?: number }): AuditEntry => {
    const row = insert.get(auditInsertParams(entry, clock.now()));
    if (!row) throw new Error('audit insert returned no row');
    return toEntry(row);
  };
  const insertAll = db.transaction((entries: readonly (NewAuditEntry & { at: number })[]) => entries.map(insertOne));

  return {
    async insert(entry) {
      return insertOne(entry);
    },

    async insertMany(entries) {
      return entries.length === 0 ? [] : insertAll(entries);
    },

    async list({ userId, limit }) {
      const n = clampAuditLimit(limit);
      const rows = userId === undefined ? recent.all(n) : recentBy.all(userId, n);
      return rows.map(toEntry);
    },
  };
}
