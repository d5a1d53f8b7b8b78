/**
 * Durable watches, one implementation for both databases. Like operations, every move between
 * statuses is a conditional UPDATE, so the final post of a watch is claimed by exactly one poller (in this process, after a
 * restart, or in another replica).
 */
import { sql as raw, type RawBuilder } from 'kysely';
import type { Clock } from '../clock.js';
import { snake } from './camel-row.js';
import { prepareClaimDue } from './claim-row.js';
import { bound, type PgType, type Sql } from './dialect.js';
import { newWatchId } from './ids.js';
import { accountParam } from './operation-rows.js';
import type { WatchRow } from './watch-row.js';
export type { WatchRow } from './watch-row.js';

export type WatchKind = 'worker' | 'server';
/** What a watch last saw: only what the channel may see (a secret travels apart). */
export type WatchState = Record<string, string | boolean | null>;
/**
 * Polls that failed since the watch last read its resource: when the first of them was made,
 * and the latest one's answer (HTTP status, 0 for none; code; message), so what the watch says
 * when it ends is what the bot saw — never a state it could not read.
 */
export interface WatchUnread {
  since: number;
  status: number;
  code: string;
  message: string;
}

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
  /** Set while polls fail (since the last one that read the resource); null once one reads it. */
  unread: WatchUnread | null;
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
  /** Null once a poll read the resource. */
  unread?: WatchUnread | null;
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
  /** The newest watch a change started (a workflow step waits on it), if any. */
  forOperation(operationId: string): Promise<WatchRecord | undefined>;
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
    unread: r.unread === null || r.unread === undefined ? null : (JSON.parse(r.unread) as WatchUnread),
  };
}

/** Patchable fields (their columns are the snake_case names) and PostgreSQL's type for each (a CASE needs it). */
const PATCHABLE = {
  state: 'jsonb',
  outcome: 'text',
  intervalMs: 'bigint',
  nextPollAt: 'bigint',
  deadlineAt: 'bigint',
  threadTs: 'text',
  finalTs: 'text',
  leaseUntil: 'bigint',
  unread: 'jsonb',
} as const satisfies Record<string, PgType>;
const PATCHED = (Object.entries(PATCHABLE) as [keyof typeof PATCHABLE, PgType][]).map(([key, type]) => ({ key, column: snake(key), type }));

function patchParams(patch: WatchPatch): Record<string, unknown> {
  const out: Record<string, unknown> = { polled: patch.polled ? 1 : 0 };
  for (const { key, column } of PATCHED) {
    const present = Object.hasOwn(patch, key) && patch[key] !== undefined;
    const value = present ? patch[key] : null;
    out[`set_${column}`] = present ? 1 : 0;
    out[column] = (key === 'state' || key === 'unread') && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}

/** RETURNING gives no order: the claimed watches, oldest first (as listOpen). */
export const oldestFirst = (a: WatchRecord, b: WatchRecord): number => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function createWatchStore(sql: Sql, clock: Pick<Clock, 'now'>): WatchStore {
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('watches')
      .values({ ...bound(p, ['id', 'kind', 'resource', 'operation_id', 'channel_id', 'thread_ts', 'requested_by', 'interval_ms', 'started_at', 'deadline_at', 'next_poll_at', 'account']), status: 'active', updated_at: p('now') })
      .returningAll(),
  );
  const byId = sql.prepare((k, p) => k.selectFrom('watches').selectAll().where('id', '=', p('id')));
  const open = sql.prepare((k, _p, f) =>
    k.selectFrom('watches').selectAll().where('status', 'in', ['active', 'finalizing']).orderBy('started_at').orderBy(f.seq),
  );
  const ofOperation = sql.prepare((k, p, f) =>
    k.selectFrom('watches').selectAll().where('operation_id', '=', p('op')).orderBy('started_at', 'desc').orderBy(raw`${f.seq} DESC`).limit(1),
  );
  const recent = sql.prepare((k, p, f) => k.selectFrom('watches').selectAll().orderBy('started_at', 'desc').orderBy(raw`${f.seq} DESC`).limit(p('n')));
  // With `to` null the status stays (update); otherwise it moves (move). Either way only from `from`.
  const cas = sql.prepare((k, p, f) => {
    const set: Record<string, RawBuilder<unknown>> = {};
    for (const { column: c, type } of PATCHED) {
      set[c] = raw`CASE WHEN ${f.typed(p(`set_${c}`), 'int')} = 1 THEN ${f.typed(p(c), type)} ELSE ${raw.ref(c)} END`;
    }
    return k
      .updateTable('watches')
      .set({
        status: raw`COALESCE(${f.typed(p('to'), 'text')}, status)`,
        updated_at: p('now'),
        polls: raw`polls + ${f.typed(p('polled'), 'int')}`,
        ...set,
      })
      .where('id', '=', p('id'))
      .where(f.inList('status', p('from')))
      .where(raw<boolean>`(${f.typed(p('owner'), 'text')} IS NULL OR lease_owner = ${f.typed(p('owner'), 'text')})`)
      .returningAll();
  });
  // One statement: SQLite's write lock makes it atomic across connections and processes.
  const releaseAll = sql.prepare((k, p) => k.updateTable('watches').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', p('owner')));
  const claim = prepareClaimDue(sql, { table: 'watches', key: 'id', statuses: ['active', 'finalizing'], due: 'next_poll_at', order: ['next_poll_at', 'started_at', 'seq'] });

  return {
    async create(input) {
      for (let attempt = 0; ; attempt++) {
        try {
          const row = await sql.one<WatchRow>(insert, watchInsertParams(input, newWatchId(), clock.now()));
          return toRecord(row!);
        } catch (e) {
          // A 40-bit id collides rarely; try a fresh one.
          if (attempt < 3 && sql.f.keyTaken(e, 'watches_pkey')) continue;
          throw e;
        }
      }
    },
    async get(id) {
      const row = await sql.one<WatchRow>(byId, { id });
      return row ? toRecord(row) : undefined;
    },
    async listOpen() {
      return (await sql.all<WatchRow>(open)).map(toRecord);
    },
    async release(owner) {
      return sql.run(releaseAll, { owner });
    },
    async claimDue(owner, now, leaseMs, limit) {
      const rows = await sql.all<WatchRow>(claim, { owner, now, until: now + leaseMs, limit: Math.max(0, Math.trunc(limit)) });
      return rows.map(toRecord).sort(oldestFirst);
    },
    async move(id, from, to, now, patch = {}, owner) {
      const row = await sql.one<WatchRow>(cas, { id, to, now, from: sql.f.list(from), owner: owner ?? null, ...patchParams(patch) });
      return row ? toRecord(row) : undefined;
    },
    async update(id, inStatus, now, patch, owner) {
      const row = await sql.one<WatchRow>(cas, { id, to: null, now, from: sql.f.list(inStatus), owner: owner ?? null, ...patchParams(patch) });
      return row ? toRecord(row) : undefined;
    },
    async forOperation(operationId) {
      const row = await sql.one<WatchRow>(ofOperation, { op: operationId });
      return row ? toRecord(row) : undefined;
    },
    async listRecent(limit) {
      const rows = await sql.all<WatchRow>(recent, { n: Math.min(Math.max(1, limit), 1000) });
      return rows.map(toRecord);
    },
  };
}
