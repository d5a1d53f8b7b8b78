/**
 * Schedules and their runs (migration 13), one implementation for both databases. Every claim
 * is one statement with one winner: a run is an INSERT … ON CONFLICT DO NOTHING on (schedule,
 * occurrence); advancing the next run and taking over a stale run are conditional UPDATEs.
 */
import { sql as raw } from 'kysely';
import type { Sql } from './dialect.js';
import { assertText } from './operation-rows.js';
import { newScheduleId, toRun, toSchedule, type ScheduleRow, type ScheduleRunRow, type ScheduleStore } from './schedule-types.js';

export function createScheduleStore(sql: Sql): ScheduleStore {
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('schedules')
      .values({
        id: p('id'),
        channel_id: p('channel_id'),
        team_id: p('team_id'),
        created_by: p('created_by'),
        command: p('command'),
        op_id: p('op_id'),
        when_kind: p('when_kind'),
        when_expr: p('when_expr'),
        when_text: p('when_text'),
        tz: p('tz'),
        keep: p('keep'),
        status: p('status'),
        confirm_record: p('confirm_record'),
        next_at: p('next_at'),
        last_at: null,
        last_result: null,
        created_at: p('now'),
        updated_at: p('now'),
      })
      .returningAll(),
  );
  const one = sql.prepare((k, p) => k.selectFrom('schedules').selectAll().where('id', '=', p('id')));
  const open = ['pending', 'active'];
  const ofChannel = sql.prepare((k, p, f) =>
    k.selectFrom('schedules').selectAll().where('channel_id', '=', p('c')).where(f.inList('status', f.list(open))).orderBy('created_at').orderBy(f.seq),
  );
  const ofAll = sql.prepare((k, _p, f) => k.selectFrom('schedules').selectAll().where(f.inList('status', f.list(open))).orderBy('created_at').orderBy(f.seq).limit(500));
  const due = sql.prepare((k, p, f) =>
    k
      .selectFrom('schedules')
      .selectAll()
      .where('status', '=', 'active')
      .where('next_at', '<=', f.typed<number>(p('now'), 'bigint'))
      .orderBy('next_at')
      .limit(p('limit')),
  );
  const pending = sql.prepare((k, p) => k.selectFrom('schedules').selectAll().where('status', '=', 'pending').orderBy('created_at').limit(p('limit')));
  const claim = sql.prepare((k, p) =>
    k
      .insertInto('schedule_runs')
      .values({
        schedule_id: p('id'),
        occurrence: p('occ'),
        status: p('status'),
        owner: p('owner'),
        lease_until: p('until'),
        started_at: p('now'),
        finished_at: p('finished'),
        result: p('result'),
      })
      .onConflict((oc) => oc.columns(['schedule_id', 'occurrence']).doNothing())
      .returning('schedule_id'),
  );
  const advance = sql.prepare((k, p, f) =>
    k
      .updateTable('schedules')
      .set({
        next_at: f.typed<number | null>(p('to'), 'bigint'),
        status: raw<string>`CASE WHEN ${f.typed(p('to'), 'bigint')} IS NULL THEN 'done' ELSE status END`,
        updated_at: p('now'),
      })
      .where('id', '=', p('id'))
      .where('status', '=', 'active')
      .where('next_at', '=', f.typed<number>(p('from'), 'bigint')),
  );
  const stale = sql.prepare((k, p, f) =>
    k.selectFrom('schedule_runs').selectAll().where('status', '=', 'running').where('lease_until', '<=', f.typed<number>(p('now'), 'bigint')).orderBy('started_at').limit(p('limit')),
  );
  const takeOver = sql.prepare((k, p, f) =>
    k
      .updateTable('schedule_runs')
      .set({ owner: p('owner'), lease_until: p('until') })
      .where('schedule_id', '=', p('id'))
      .where('occurrence', '=', f.typed<number>(p('occ'), 'bigint'))
      .where('status', '=', 'running')
      .where('lease_until', '<=', f.typed<number>(p('now'), 'bigint')),
  );
  const renew = sql.prepare((k, p, f) =>
    k
      .updateTable('schedule_runs')
      .set({ lease_until: p('until') })
      .where('schedule_id', '=', p('id'))
      .where('occurrence', '=', f.typed<number>(p('occ'), 'bigint'))
      .where('status', '=', 'running')
      .where('owner', '=', p('owner')),
  );
  const finish = sql.prepare((k, p, f) =>
    k
      .updateTable('schedule_runs')
      .set({ status: p('status'), finished_at: p('now'), result: p('result') })
      .where('schedule_id', '=', p('id'))
      .where('occurrence', '=', f.typed<number>(p('occ'), 'bigint'))
      .where('status', '=', 'running')
      .where('owner', '=', p('owner')),
  );
  const noteResult = sql.prepare((k, p) =>
    k.updateTable('schedules').set({ last_at: p('occ'), last_result: p('result'), updated_at: p('now') }).where('id', '=', p('id')),
  );
  const runsOf = sql.prepare((k, p) => k.selectFrom('schedule_runs').selectAll().where('schedule_id', '=', p('id')).orderBy('occurrence'));

  return {
    async add(input) {
      for (const [k, v] of [['channelId', input.channelId], ['createdBy', input.createdBy], ['command', input.command], ['opId', input.opId]] as const) assertText(v, k);
      const row = await sql.one<ScheduleRow>(insert, {
        id: newScheduleId(),
        channel_id: input.channelId,
        team_id: input.teamId ?? null,
        created_by: input.createdBy,
        command: input.command,
        op_id: input.opId,
        when_kind: input.when.kind,
        when_expr: input.when.kind === 'cron' ? input.when.expr : String(input.when.at),
        when_text: input.when.text,
        tz: input.when.tz,
        keep: input.keep ?? null,
        status: input.status,
        confirm_record: input.confirmRecord ?? null,
        next_at: input.nextAt,
        now: input.now,
      });
      if (!row) throw new Error('schedule insert returned no row');
      return toSchedule(row);
    },
    async get(id) {
      const row = await sql.one<ScheduleRow>(one, { id });
      return row ? toSchedule(row) : undefined;
    },
    async list(channelId) {
      const rows = channelId === undefined ? await sql.all<ScheduleRow>(ofAll) : await sql.all<ScheduleRow>(ofChannel, { c: channelId });
      return rows.map(toSchedule);
    },
    async move(id, from, to, now, nextAt) {
      const q = sql.k
        .updateTable('schedules')
        .set({ status: to, updated_at: now, ...(nextAt !== undefined ? { next_at: nextAt } : {}) })
        .where('id', '=', id)
        .where(sql.f.inList('status', sql.f.list(from)))
        .returningAll();
      const row = await sql.one<ScheduleRow>(q);
      return row ? toSchedule(row) : undefined;
    },
    async link(id, confirmRecord, now) {
      const row = await sql.one<ScheduleRow>(sql.k.updateTable('schedules').set({ confirm_record: confirmRecord, updated_at: now }).where('id', '=', id).returningAll());
      return row ? toSchedule(row) : undefined;
    },
    async due(now, limit) {
      return (await sql.all<ScheduleRow>(due, { now, limit })).map(toSchedule);
    },
    async pending(limit) {
      return (await sql.all<ScheduleRow>(pending, { limit })).map(toSchedule);
    },
    async claimRun(id, occ, owner, now, leaseMs, status = 'running') {
      const skipped = status === 'skipped';
      const row = await sql.one(claim, { id, occ, status, owner, until: now + leaseMs, now, finished: skipped ? now : null, result: skipped ? 'skipped' : null });
      return !!row;
    },
    async advance(id, from, to, now) {
      return (await sql.run(advance, { id, from, to, now })) === 1;
    },
    async stale(now, limit) {
      return (await sql.all<ScheduleRunRow>(stale, { now, limit })).map(toRun);
    },
    async takeOver(id, occ, owner, now, leaseMs) {
      return (await sql.run(takeOver, { id, occ, owner, now, until: now + leaseMs })) === 1;
    },
    async renew(id, occ, owner, now, leaseMs) {
      return (await sql.run(renew, { id, occ, owner, until: now + leaseMs })) === 1;
    },
    async finishRun(id, occ, owner, result, now, status = 'done') {
      const ok = (await sql.run(finish, { id, occ, owner, result, now, status })) === 1;
      if (ok) await sql.run(noteResult, { id, occ, result, now });
      return ok;
    },
    async runs(id) {
      return (await sql.all<ScheduleRunRow>(runsOf, { id })).map(toRun);
    },
  };
}
