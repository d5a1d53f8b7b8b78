/**
 * Maintenance windows (migration 14, issue 25 item 3): planned work on a server, a worker or a
 * whole account, during which the monitor posts no alert for it. What the monitor held back is
 * kept with the window (`muted`), and its end is claimed by one replica (`summary_claimed_by`)
 * so the summary of what happened during it is posted once. The claim is a lease (migration 17,
 * `summary_claimed_until`): a replica that stopped before recording its post leaves it to another
 * once it ends, told it is a take-over (so it looks for that post first); a post Slack refused
 * gives the claim up for good (no end), as it was before.
 */
import { sql as raw, type RawBuilder } from 'kysely';
import { bound, type P, type Sql } from './dialect.js';
import { newMaintenanceId } from './ids.js';
import type { MaintenanceRow } from './maintenance-row.js';
import { accountParam, assertInteger, assertText, objectToJson } from './operation-rows.js';

export type MaintenanceKind = 'server' | 'worker' | 'account';

/** An alert the window held back: first and last seen, so the summary can say when. */
export interface MutedAlert {
  kind: string;
  resource: string;
  condition: string;
  firstAt: number;
  lastAt: number;
}

export interface MaintenanceWindow {
  id: string;
  channelId: string;
  /** Null: the default account. */
  account: string | null;
  kind: MaintenanceKind;
  /** The server or worker id; '' for a whole account. */
  resource: string;
  createdBy: string;
  createdAt: number;
  startsAt: number;
  endsAt: number;
  /** Set when ended early (`/cloud maintenance end`), with who did. */
  endedAt: number | null;
  endedBy: string | null;
  muted: MutedAlert[];
  summaryClaimedBy: string | null;
  summaryTs: string | null;
}

export type SummaryClaim = 'fresh' | 'taken-over' | false;

export interface MaintenanceStore {
  create(input: { channelId: string; account: string | null; kind: MaintenanceKind; resource: string; createdBy: string; now: number; endsAt: number }): Promise<MaintenanceWindow>;
  get(id: string): Promise<MaintenanceWindow | undefined>;
  /** Windows in force at `now` (started, not over, not ended early). */
  listOpen(now: number): Promise<MaintenanceWindow[]>;
  /** Ends a window early; undefined when it was over or ended already (or is unknown). */
  end(id: string, by: string, now: number): Promise<MaintenanceWindow | undefined>;
  /** Records an alert held back (merged by kind, resource and condition). */
  noteMuted(id: string, alert: Omit<MutedAlert, 'firstAt' | 'lastAt'>, now: number): Promise<void>;
  /** Windows over by `now` whose summary is not posted and not claimed (or its claim ended). */
  listUnsummarised(now: number): Promise<MaintenanceWindow[]>;
  /**
   * Claims posting a window's summary until `until`, for exactly one caller at a time: 'fresh'
   * when no replica claimed it before, 'taken-over' when an earlier claim ended with no summary
   * recorded (its holder may have posted it and stopped before recording it), false when not claimed.
   */
  claimSummary(id: string, owner: string, now: number, until: number): Promise<SummaryClaim>;
  /** The summary is posted: the claim holds for good. */
  setSummaryTs(id: string, ts: string): Promise<void>;
  /** The summary could not be posted: the claim holds for good, nothing posts it later. */
  giveUpSummary(id: string): Promise<void>;
}


const toWindow = (r: MaintenanceRow): MaintenanceWindow => ({
  id: r.id,
  channelId: r.channel_id,
  account: r.account,
  kind: r.kind as MaintenanceKind,
  resource: r.resource,
  createdBy: r.created_by,
  createdAt: Number(r.created_at),
  startsAt: Number(r.starts_at),
  endsAt: Number(r.ends_at),
  endedAt: r.ended_at === null ? null : Number(r.ended_at),
  endedBy: r.ended_by,
  muted: ((JSON.parse(r.muted) as { alerts?: MutedAlert[] }).alerts ?? []),
  summaryClaimedBy: r.summary_claimed_by,
  summaryTs: r.summary_ts,
});

export function createMaintenanceStore(sql: Sql): MaintenanceStore {
  const { f } = sql;
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('maintenance_windows')
      .values({ ...bound(p, ['id', 'channel_id', 'account', 'kind', 'resource', 'created_by', 'ends_at']), created_at: p('now'), starts_at: p('now'), muted: '{}' })
      .returningAll(),
  );
  const byId = sql.prepare((k, p) => k.selectFrom('maintenance_windows').selectAll().where('id', '=', p('id')));
  const open = sql.prepare((k, p) =>
    k.selectFrom('maintenance_windows').selectAll().where('ended_at', 'is', null).where('starts_at', '<=', p('now')).where('ends_at', '>', p('now')).orderBy('ends_at'),
  );
  const endEarly = sql.prepare((k, p) =>
    k
      .updateTable('maintenance_windows')
      .set({ ended_at: p('now'), ended_by: p('by') })
      .where('id', '=', p('id'))
      .where('ended_at', 'is', null)
      .where('ends_at', '>', p('now'))
      .returningAll(),
  );
  const setMuted = sql.prepare((k, p) => k.updateTable('maintenance_windows').set({ muted: p('muted') }).where('id', '=', p('id')));
  const unsummarised = sql.prepare((k, p) =>
    k
      .selectFrom('maintenance_windows')
      .selectAll()
      .where('summary_ts', 'is', null)
      .where(raw<boolean>`(summary_claimed_by IS NULL OR summary_claimed_until <= ${f.typed(p('now'), 'bigint')})`)
      .where(raw<boolean>`(ended_at IS NOT NULL OR ends_at <= ${f.typed(p('now'), 'bigint')})`)
      .orderBy('ends_at'),
  );
  // Two claims, each one conditional UPDATE: a first one, and a take-over of a claim that ended.
  // A claimant is never cleared, so the first can only succeed while nobody ever claimed.
  // A null end never passes `<=`: a claim without one (given up, or from before migration 17) holds.
  const claimWhere = (claimable: (p: P) => RawBuilder<boolean>) =>
    sql.prepare((k, p) =>
      k
        .updateTable('maintenance_windows')
        .set({ summary_claimed_by: p('owner'), summary_claimed_until: p('until') })
        .where('id', '=', p('id'))
        .where('summary_ts', 'is', null)
        .where(claimable(p))
        .returning('id'),
    );
  const claimUnclaimed = claimWhere(() => raw<boolean>`summary_claimed_by IS NULL`);
  const claimEnded = claimWhere((p) => raw<boolean>`(summary_claimed_by IS NOT NULL AND summary_claimed_until <= ${f.typed(p('now'), 'bigint')})`);
  const summaryTs = sql.prepare((k, p) => k.updateTable('maintenance_windows').set({ summary_ts: p('ts'), summary_claimed_until: null }).where('id', '=', p('id')));
  const giveUp = sql.prepare((k, p) => k.updateTable('maintenance_windows').set({ summary_claimed_until: null }).where('id', '=', p('id')));
  const get = async (id: string) => {
    const row = await sql.one<MaintenanceRow>(byId, { id });
    return row ? toWindow(row) : undefined;
  };
  return {
    async create(input) {
      assertText(input.channelId, 'channelId');
      assertText(input.createdBy, 'createdBy');
      assertInteger(input.now, 'now');
      assertInteger(input.endsAt, 'endsAt');
      const row = await sql.one<MaintenanceRow>(insert, {
        id: newMaintenanceId(),
        channel_id: input.channelId,
        account: accountParam(input.account),
        kind: input.kind,
        resource: input.resource,
        created_by: input.createdBy,
        now: input.now,
        ends_at: input.endsAt,
      });
      return toWindow(row!);
    },
    get,
    async listOpen(now) {
      assertInteger(now, 'now');
      return (await sql.all<MaintenanceRow>(open, { now })).map(toWindow);
    },
    async end(id, by, now) {
      assertInteger(now, 'now');
      const row = await sql.one<MaintenanceRow>(endEarly, { id, by, now });
      return row ? toWindow(row) : undefined;
    },
    async noteMuted(id, alert, now) {
      // Read and written under the write lock (SQLite) / one transaction (PostgreSQL).
      await sql.exclusive(async (q) => {
        const row = await q.one<MaintenanceRow>(byId, { id });
        if (!row) return;
        const muted = toWindow(row).muted;
        const same = muted.find((m) => m.kind === alert.kind && m.resource === alert.resource && m.condition === alert.condition);
        if (same) same.lastAt = now;
        else if (muted.length < 50) muted.push({ ...alert, firstAt: now, lastAt: now });
        await q.run(setMuted, { id, muted: objectToJson({ alerts: muted }, 'muted') });
      });
    },
    async listUnsummarised(now) {
      assertInteger(now, 'now');
      return (await sql.all<MaintenanceRow>(unsummarised, { now })).map(toWindow);
    },
    async claimSummary(id, owner, now, until) {
      assertInteger(now, 'now');
      assertInteger(until, 'until');
      if ((await sql.one(claimUnclaimed, { id, owner, until })) !== undefined) return 'fresh';
      return (await sql.one(claimEnded, { id, owner, now, until })) !== undefined ? 'taken-over' : false;
    },
    async setSummaryTs(id, ts) {
      await sql.run(summaryTs, { id, ts });
    },
    async giveUpSummary(id) {
      await sql.run(giveUp, { id });
    },
  };
}
