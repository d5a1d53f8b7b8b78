/**
 * Durable watches in SQLite. Like operations, every move between statuses is a conditional
 * UPDATE, so the final post of a watch is claimed by exactly one poller (in this process or
 * after a restart).
 */
import type { Database as Db } from 'better-sqlite3';
import type { Clock } from '../clock.js';
import { newWatchId } from './ids.js';
import { accountParam } from './operation-rows.js';

export type WatchKind = 'worker' | 'server';
/** What a watch last saw: only what the channel may see (a secret travels apart). */
export type WatchState = Record<string, string | boolean | null>;
/** active → finalizing (claimed for the final post) → done; or expired / cancelled / gone. */
export type WatchStatus = 'active' | 'finalizing' | 'done' | 'expired' | 'cancelled' | 'gone';

export interface WatchRecord {
  id: string;
  kind: WatchKind;
  /** Worker uuid, or server identifier. */
  resource: string;
  /** The change that started it, whose status message is the thread parent; null if by hand. */
  operationId: string | null;
  channelId: string;
  /** The message whose thread gets the updates. */
  threadTs: string | null;
  requestedBy: string;
  status: WatchStatus;
  /** The last state seen (no secrets). */
  state: WatchState | null;
  /** How it ended: 'succeeded' | 'failed' | … (set with the final status). */
  outcome: string | null;
  polls: number;
  intervalMs: number;
  startedAt: number;
  deadlineAt: number;
  nextPollAt: number;
  updatedAt: number;
  /** ts of the final thread reply, once posted. */
  finalTs: string | null;
  /** The replica polling it (claimDue), until `leaseUntil` (epoch ms); null before any claim. */
  leaseOwner: string | null;
  leaseUntil: number | null;
  /** The named cloud account the resource lives in; null means the default account. */
  account: string | null;
}

export interface NewWatch {
  kind: WatchKind;
  resource: string;
  operationId?: string | null;
  channelId: string;
  threadTs?: string | null;
  requestedBy: string;
  intervalMs: number;
  startedAt: number;
  deadlineAt: number;
  nextPollAt: number;
  /** Null or absent: the default account. */
  account?: string | null;
}

export interface WatchPatch {
  state?: WatchState | null;
  outcome?: string | null;
  intervalMs?: number;
  nextPollAt?: number;
  deadlineAt?: number;
  threadTs?: string | null;
  finalTs?: string | null;
  /** Extends (or ends) the holder's lease, e.g. for the final post. */
  leaseUntil?: number | null;
  /** Count one more poll. */
  polled?: boolean;
}

export interface WatchStore {
  create(input: NewWatch): Promise<WatchRecord>;
  get(id: string): Promise<WatchRecord | undefined>;
  /** Active (and finalizing: a final post interrupted by a stop) watches, oldest first. */
  listOpen(): Promise<WatchRecord[]>;
  /**
   * Leases up to `limit` due watches to `owner` until now + leaseMs and returns them (oldest
   * first): active or finalizing ones whose next poll is due, whose lease is free, expired or
   * already `owner`'s. Atomic across connections and replicas: a watch goes to one claimer.
   */
  claimDue(owner: string, now: number, leaseMs: number, limit: number): Promise<WatchRecord[]>;
  /** Ends every lease `owner` holds (a clean stop), so another replica takes them over at once. */
  release(owner: string): Promise<number>;
  /**
   * Moves status from one of `from` to `to` and applies the patch; undefined if it was not in
   * `from` or, with `owner`, if the lease is no longer `owner`'s (another replica took it over).
   */
  move(id: string, from: WatchStatus[], to: WatchStatus, now: number, patch?: WatchPatch, owner?: string): Promise<WatchRecord | undefined>;
  /** Applies the patch only while the watch is in one of `in` (and, with `owner`, still leased to it). */
  update(id: string, inStatus: WatchStatus[], now: number, patch: WatchPatch, owner?: string): Promise<WatchRecord | undefined>;
  /** Newest first. */
  listRecent(limit: number): Promise<WatchRecord[]>;
}

/** The named parameters of a new watch's INSERT (both backends). */
export function watchInsertParams(input: NewWatch, id: string, now: number) {
  return {
    id,
    kind: input.kind,
    resource: input.resource,
    operation_id: input.operationId ?? null,
    channel_id: input.channelId,
    thread_ts: input.threadTs ?? null,
    requested_by: input.requestedBy,
    interval_ms: input.intervalMs,
    started_at: input.startedAt,
    deadline_at: input.deadlineAt,
    next_poll_at: input.nextPollAt,
    now,
    account: accountParam(input.account),
  };
}

/** A watches row as both backends return it (times as numbers, state as JSON text). */
export interface WatchRow {
  id: string;
  kind: string;
  resource: string;
  operation_id: string | null;
  channel_id: string;
  thread_ts: string | null;
  requested_by: string;
  status: string;
  state: string | null;
  outcome: string | null;
  polls: number;
  interval_ms: number;
  started_at: number;
  deadline_at: number;
  next_poll_at: number;
  updated_at: number;
  final_ts: string | null;
  lease_owner: string | null;
  lease_until: number | null;
  account: string | null;
}

export function toRecord(r: WatchRow): WatchRecord {
  return {
    id: r.id,
    kind: r.kind as WatchKind,
    resource: r.resource,
    operationId: r.operation_id,
    channelId: r.channel_id,
    threadTs: r.thread_ts,
    requestedBy: r.requested_by,
    status: r.status as WatchStatus,
    state: r.state === null ? null : (JSON.parse(r.state) as WatchState),
    outcome: r.outcome,
    polls: r.polls,
    intervalMs: r.interval_ms,
    startedAt: r.started_at,
    deadlineAt: r.deadline_at,
    nextPollAt: r.next_poll_at,
    updatedAt: r.updated_at,
    finalTs: r.final_ts,
    leaseOwner: r.lease_owner,
    leaseUntil: r.lease_until,
    account: r.account,
  };
}

const PATCHABLE = {
  state: 'state',
  outcome: 'outcome',
  intervalMs: 'interval_ms',
  nextPollAt: 'next_poll_at',
  deadlineAt: 'deadline_at',
  threadTs: 'thread_ts',
  finalTs: 'final_ts',
  leaseUntil: 'lease_until',
} as const;

function patchParams(patch: WatchPatch): Record<string, unknown> {
  const out: Record<string, unknown> = { polled: patch.polled ? 1 : 0 };
  for (const [key, column] of Object.entries(PATCHABLE) as [keyof typeof PATCHABLE, string][]) {
    const present = Object.hasOwn(patch, key) && patch[key] !== undefined;
    const value = present ? patch[key] : null;
    out[`set_${column}`] = present ? 1 : 0;
    out[column] = key === 'state' && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}

const SET = Object.values(PATCHABLE)
  .map((c) => `${c} = CASE WHEN @set_${c} THEN @${c} ELSE ${c} END`)
  .join(', ');

/** RETURNING gives no order: the claimed watches, oldest first (as listOpen). */
export const oldestFirst = (a: WatchRecord, b: WatchRecord): number => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function createWatchStore(db: Db, clock: Pick<Clock, 'now'>): WatchStore {
  const insert = db.prepare<Record<string, unknown>, WatchRow>(`
    INSERT INTO watches (id, kind, resource, operation_id, channel_id, thread_ts, requested_by, status,
                         interval_ms, started_at, deadline_at, next_poll_at, updated_at, account)
    VALUES (@id, @kind, @resource, @operation_id, @channel_id, @thread_ts, @requested_by, 'active',
            @interval_ms, @started_at, @deadline_at, @next_poll_at, @now, @account)
    RETURNING *`);
  const byId = db.prepare<[string], WatchRow>('SELECT * FROM watches WHERE id = ?');
  const open = db.prepare<[], WatchRow>(
    "SELECT * FROM watches WHERE status IN ('active', 'finalizing') ORDER BY started_at, rowid",
  );
  const recent = db.prepare<[number], WatchRow>('SELECT * FROM watches ORDER BY started_at DESC, rowid DESC LIMIT ?');
  const cas = db.prepare<Record<string, unknown>, WatchRow>(`
    UPDATE watches SET status = @to, updated_at = @now, polls = polls + @polled, ${SET}
     WHERE id = @id AND status IN (SELECT value FROM json_each(@from))
       AND (@owner IS NULL OR lease_owner = @owner)
    RETURNING *`);
  // One statement, so SQLite's write lock makes it atomic across connections and processes.
  const releaseAll = db.prepare<[string]>('UPDATE watches SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = ?');
  const claim = db.prepare<Record<string, unknown>, WatchRow>(`
    UPDATE watches SET lease_owner = @owner, lease_until = @until
     WHERE id IN (
       SELECT id FROM watches
        WHERE status IN ('active', 'finalizing') AND next_poll_at <= @now
          AND (lease_owner IS NULL OR lease_until <= @now OR lease_owner = @owner)
        ORDER BY next_poll_at, started_at, rowid
        LIMIT @limit)
    RETURNING *`);

  return {
    async create(input) {
      for (let attempt = 0; ; attempt++) {
        try {
          const row = insert.get(watchInsertParams(input, newWatchId(), clock.now()));
          return toRecord(row!);
        } catch (e) {
          // A 40-bit id collides rarely; try a fresh one.
          if (attempt < 3 && String((e as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT_PRIMARYKEY')) continue;
          throw e;
        }
      }
    },
    async get(id) {
      const row = byId.get(id);
      return row ? toRecord(row) : undefined;
    },
    async listOpen() {
      return open.all().map(toRecord);
    },
    async release(owner) {
      return releaseAll.run(owner).changes;
    },
    async claimDue(owner, now, leaseMs, limit) {
      const rows = claim.all({ owner, now, until: now + leaseMs, limit: Math.max(0, Math.trunc(limit)) });
      return rows.map(toRecord).sort(oldestFirst);
    },
    async move(id, from, to, now, patch = {}, owner) {
      const row = cas.get({ id, to, now, from: JSON.stringify(from), owner: owner ?? null, ...patchParams(patch) });
      return row ? toRecord(row) : undefined;
    },
    async update(id, inStatus, now, patch, owner) {
      const current = byId.get(id);
      if (!current || !inStatus.includes(current.status as WatchStatus)) return undefined;
      const row = cas.get({ id, to: current.status, now, from: JSON.stringify(inStatus), owner: owner ?? null, ...patchParams(patch) });
      return row ? toRecord(row) : undefined;
    },
    async listRecent(limit) {
      return recent.all(Math.min(Math.max(1, limit), 1000)).map(toRecord);
    },
  };
}
