/**
 * Durable watches in PostgreSQL: the same conditional moves as the SQLite store (watch-store.ts),
 * so a final post is claimed (active → finalizing) by exactly one poller across replicas.
 */
import type { Clock } from '../../clock.js';
import { newWatchId } from '../ids.js';
import { oldestFirst, toRecord, watchInsertParams, type WatchPatch, type WatchRow, type WatchStore } from '../watch-store.js';
import { isUniqueViolation, run, type Queryable } from './sql.js';


const PATCHABLE = {
  state: ['state', 'jsonb'],
  outcome: ['outcome', 'text'],
  intervalMs: ['interval_ms', 'bigint'],
  nextPollAt: ['next_poll_at', 'bigint'],
  deadlineAt: ['deadline_at', 'bigint'],
  threadTs: ['thread_ts', 'text'],
  finalTs: ['final_ts', 'text'],
  leaseUntil: ['lease_until', 'bigint'],
} as const;

function patchParams(patch: WatchPatch): Record<string, unknown> {
  const out: Record<string, unknown> = { polled: patch.polled ? 1 : 0 };
  for (const [key, [column]] of Object.entries(PATCHABLE) as [keyof typeof PATCHABLE, readonly [string, string]][]) {
    const present = Object.hasOwn(patch, key) && patch[key] !== undefined;
    const value = present ? patch[key] : null;
    out[`set_${column}`] = present ? 1 : 0;
    out[column] = key === 'state' && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}

const SET = Object.values(PATCHABLE)
  .map(([c, type]) => `${c} = CASE WHEN @set_${c}::int = 1 THEN @${c}::${type} ELSE ${c} END`)
  .join(', ');

/** With `to` null the status stays (update); otherwise it moves (move). Either way only from `from`. */
const CAS = `
  UPDATE watches SET status = COALESCE(@to::text, status), updated_at = @now, polls = polls + @polled::int, ${SET}
   WHERE id = @id AND status = ANY(@from::text[])
     AND (@owner::text IS NULL OR lease_owner = @owner::text)
  RETURNING *`;

/**
 * Replicas claiming together skip the rows another is locking (SKIP LOCKED) rather than wait;
 * the outer WHERE re-checks the lease, so a row claimed meanwhile is not taken twice.
 */
const CLAIM = `
  UPDATE watches SET lease_owner = @owner::text, lease_until = @until::bigint
   WHERE id IN (
     SELECT id FROM watches
      WHERE status IN ('active', 'finalizing') AND next_poll_at <= @now::bigint
        AND (lease_owner IS NULL OR lease_until <= @now::bigint OR lease_owner = @owner::text)
      ORDER BY next_poll_at, started_at, seq
      LIMIT @limit::int
      FOR UPDATE SKIP LOCKED)
  RETURNING *`;

export function createPgWatchStore(db: () => Promise<Queryable>, clock: Pick<Clock, 'now'>): WatchStore {
  return {
    async create(input) {
      for (let attempt = 0; ; attempt++) {
        try {
          const [row] = await run<WatchRow>(
            await db(),
            `INSERT INTO watches (id, kind, resource, operation_id, channel_id, thread_ts, requested_by, status,
                                  interval_ms, started_at, deadline_at, next_poll_at, updated_at, account)
             VALUES (@id, @kind, @resource, @operation_id, @channel_id, @thread_ts, @requested_by, 'active',
                     @interval_ms, @started_at, @deadline_at, @next_poll_at, @now, @account)
             RETURNING *`,
            watchInsertParams(input, newWatchId(), clock.now()),
          );
          return toRecord(row!);
        } catch (e) {
          // A 40-bit id collides rarely; try a fresh one.
          if (attempt < 3 && isUniqueViolation(e, 'watches_pkey')) continue;
          throw e;
        }
      }
    },
    async get(id) {
      const [row] = await run<WatchRow>(await db(), 'SELECT * FROM watches WHERE id = @id', { id });
      return row ? toRecord(row) : undefined;
    },
    async listOpen() {
      const rows = await run<WatchRow>(
        await db(),
        "SELECT * FROM watches WHERE status IN ('active', 'finalizing') ORDER BY started_at, seq",
      );
      return rows.map(toRecord);
    },
    async release(owner) {
      const rows = await run<{ id: string }>(await db(), 'UPDATE watches SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = @owner::text RETURNING id', { owner });
      return rows.length;
    },
    async claimDue(owner, now, leaseMs, limit) {
      const rows = await run<WatchRow>(await db(), CLAIM, { owner, now, until: now + leaseMs, limit: Math.max(0, Math.trunc(limit)) });
      return rows.map(toRecord).sort(oldestFirst);
    },
    async move(id, from, to, now, patch = {}, owner) {
      const [row] = await run<WatchRow>(await db(), CAS, { id, to, now, from, owner: owner ?? null, ...patchParams(patch) });
      return row ? toRecord(row) : undefined;
    },
    async update(id, inStatus, now, patch, owner) {
      const [row] = await run<WatchRow>(await db(), CAS, { id, to: null, now, from: inStatus, owner: owner ?? null, ...patchParams(patch) });
      return row ? toRecord(row) : undefined;
    },
    async listRecent(limit) {
      const n = Math.min(Math.max(1, limit), 1000);
      const rows = await run<WatchRow>(await db(), 'SELECT * FROM watches ORDER BY started_at DESC, seq DESC LIMIT @n', { n });
      return rows.map(toRecord);
    },
  };
}
