/**
 * Operation records, one implementation for both databases. Each state change is one
 * conditional UPDATE, so of N concurrent claims (any connection, process or replica) exactly
 * one matches: SQLite's write lock serialises them; under PostgreSQL's READ COMMITTED a second
 * UPDATE of the row waits for the first to commit and re-checks its WHERE against the new row.
 */
import { sql as raw, type RawBuilder } from 'kysely';
import type { Clock } from '../clock.js';
import { bound, type PgType, type Sql } from './dialect.js';
import { newOperationId } from './ids.js';
import { PATCH_COLUMN_NAMES, assertInteger, assertText, insertParams, patchParams, rowToRecord, type OperationRow, type PatchColumn } from './operation-rows.js';
import { TERMINAL_STATUSES, type NewOperation, type OperationStore, type TransitionResult } from './types.js';

const COLUMN_TYPES: Record<PatchColumn, PgType> = {
  confirmed_by: 'text',
  confirmed_at: 'bigint',
  approved_by: 'text',
  approved_at: 'bigint',
  finished_at: 'bigint',
  result: 'jsonb',
  error_code: 'text',
  error_message: 'text',
  sealed_secrets: 'text',
  send_at: 'bigint',
};

export function createOperationStore(sql: Sql, clock: Pick<Clock, 'now'>): OperationStore {
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('operations')
      .values({ ...bound(p, ['id', 'op_id', 'args', 'facts', 'sealed_secrets', 'requested_by', 'team_id', 'channel_id', 'dedupe_key', 'expires_at', 'account']), status: 'pending', created_at: p('now'), updated_at: p('now') })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returningAll(),
  );
  const byId = sql.prepare((k, p) => k.selectFrom('operations').selectAll().where('id', '=', p('id')));
  const byDedupeKey = sql.prepare((k, p) => k.selectFrom('operations').selectAll().where('dedupe_key', '=', p('k')));
  const updateMessage = sql.prepare((k, p) =>
    k.updateTable('operations').set({ channel_id: p('c'), message_ts: p('ts'), updated_at: p('now') }).where('id', '=', p('id')),
  );
  // One statement serves every patch: each column has a set_<col> flag (1 = take the value, even null).
  const compareAndSet = sql.prepare((k, p, f) => {
    const flag = (name: string) => f.typed<number>(p(name), 'int');
    const set: Record<string, RawBuilder<unknown>> = {};
    for (const c of PATCH_COLUMN_NAMES.filter((c) => c !== 'sealed_secrets' && c !== 'finished_at')) {
      set[c] = raw`CASE WHEN ${flag(`set_${c}`)} = 1 THEN ${f.typed(p(c), COLUMN_TYPES[c])} ELSE ${raw.ref(c)} END`;
    }
    return k
      .updateTable('operations')
      .set({
        status: p('to'),
        updated_at: p('now'),
        ...set,
        sealed_secrets: raw`CASE WHEN ${flag('terminal')} = 1 THEN NULL
                                 WHEN ${flag('set_sealed_secrets')} = 1 THEN ${f.typed(p('sealed_secrets'), 'text')} ELSE sealed_secrets END`,
        finished_at: raw`CASE WHEN ${flag('set_finished_at')} = 1 THEN ${f.typed(p('finished_at'), 'bigint')}
                              WHEN ${flag('terminal')} = 1 THEN ${f.typed(p('now'), 'bigint')} ELSE finished_at END`,
      })
      .where('id', '=', p('id'))
      .where(f.inList('status', p('from')))
      .where(raw<boolean>`(${flag('require_unexpired')} = 0 OR expires_at > ${f.typed(p('now'), 'bigint')})`)
      .where(raw<boolean>`(${flag('require_due')} = 0 OR send_at IS NULL OR send_at <= ${f.typed(p('now'), 'bigint')})`)
      .where(raw<boolean>`(${flag('require_unchanged')} = 0 OR updated_at = ${f.typed(p('unchanged_since'), 'bigint')})`)
      .returningAll();
  });
  const expire = sql.prepare((k, p) =>
    k
      .updateTable('operations')
      .set({ status: 'expired', sealed_secrets: null, updated_at: p('now'), finished_at: p('now') })
      .where('status', '=', 'pending')
      .where('expires_at', '<=', p('now'))
      .returningAll(),
  );
  const unfinished = sql.prepare((k, _p, f) =>
    k.selectFrom('operations').selectAll().where('status', 'in', ['confirmed', 'running']).orderBy('created_at').orderBy(f.seq),
  );
  const recent = sql.prepare((k, p, f) =>
    k.selectFrom('operations').selectAll().orderBy('created_at', 'desc').orderBy(raw`${f.seq} DESC`).limit(p('n')),
  );
  const during = sql.prepare((k, p, f) =>
    k
      .selectFrom('operations')
      .selectAll()
      .where('channel_id', '=', p('c'))
      .where('created_at', '>=', p('from'))
      .where('created_at', '<=', p('until'))
      .orderBy('created_at')
      .orderBy(f.seq)
      .limit(p('n')),
  );
  const recentBy = sql.prepare((k, p, f) =>
    k
      .selectFrom('operations')
      .selectAll()
      .where('requested_by', '=', p('r'))
      .orderBy('created_at', 'desc')
      .orderBy(raw`${f.seq} DESC`)
      .limit(p('n')),
  );
  const get = async (id: string) => sql.one<OperationRow>(byId, { id });

  return {
    async create(input: NewOperation) {
      const params = insertParams(input, newOperationId(), clock.now());
      // SQLite: under the write lock, so the read sees exactly the state that decided.
      // PostgreSQL: a concurrent insert of the same key makes this one wait for it, then do nothing.
      return sql.exclusive(async (q) => {
        const row = await q.one<OperationRow>(insert, params);
        if (row) return { record: rowToRecord(row), created: true };
        const existing = params.dedupe_key === null ? undefined : await q.one<OperationRow>(byDedupeKey, { k: params.dedupe_key });
        if (!existing) throw new Error('operation insert returned no row and no existing record');
        return { record: rowToRecord(existing), created: false };
      });
    },

    async get(id) {
      const row = await get(id);
      return row ? rowToRecord(row) : undefined;
    },
    async byDedupeKey(key) {
      assertText(key, 'dedupe key');
      const row = await sql.one<OperationRow>(byDedupeKey, { k: key });
      return row ? rowToRecord(row) : undefined;
    },

    async setMessage(id, channelId, messageTs) {
      assertText(channelId, 'channelId');
      assertText(messageTs, 'messageTs');
      const changed = await sql.run(updateMessage, { c: channelId, ts: messageTs, now: clock.now(), id });
      if (changed === 0) throw new Error(`No operation ${id} to attach a message to`);
    },

    async transition(id, t): Promise<TransitionResult> {
      if (!Array.isArray(t.from) || t.from.length === 0) throw new TypeError('transition needs at least one `from` status');
      assertInteger(t.now, 'now');
      if (t.unchangedSince !== undefined) assertInteger(t.unchangedSince, 'unchangedSince');
      // SQLite: the refusal's read happens under the same write lock as the CAS.
      return sql.exclusive(async (q): Promise<TransitionResult> => {
        const row = await q.one<OperationRow>(compareAndSet, {
          id,
          to: t.to,
          now: t.now,
          from: sql.f.list(t.from),
          require_unexpired: t.requireUnexpired ? 1 : 0,
          require_due: t.requireDue ? 1 : 0,
          require_unchanged: t.unchangedSince === undefined ? 0 : 1,
          unchanged_since: t.unchangedSince ?? 0,
          terminal: TERMINAL_STATUSES.includes(t.to) ? 1 : 0,
          ...patchParams(t.patch ?? {}),
        });
        if (row) return { ok: true, record: rowToRecord(row) };
        // Read after the refusal: the state that beat us (or a later one), never an earlier one.
        const current = await q.one<OperationRow>(byId, { id });
        if (!current) return { ok: false, record: undefined, reason: 'not_found' };
        const record = rowToRecord(current);
        const inFrom = t.from.includes(record.status);
        const expired =
          (inFrom && t.requireUnexpired === true && record.expiresAt <= t.now) || (!inFrom && record.status === 'expired');
        return { ok: false, record, reason: expired ? 'expired' : 'wrong_status' };
      });
    },

    async expireDue(now) {
      assertInteger(now, 'now');
      const rows = await sql.all<OperationRow>(expire, { now });
      return rows.map(rowToRecord).sort((a, b) => a.expiresAt - b.expiresAt || a.createdAt - b.createdAt);
    },

    async listUnfinished() {
      return (await sql.all<OperationRow>(unfinished)).map(rowToRecord);
    },

    async listRecent({ limit, requestedBy }) {
      const n = Math.max(0, Math.min(Math.trunc(limit), 1000));
      if (!Number.isFinite(n) || n === 0) return [];
      const rows = requestedBy === undefined ? await sql.all<OperationRow>(recent, { n }) : await sql.all<OperationRow>(recentBy, { r: requestedBy, n });
      return rows.map(rowToRecord);
    },

    async listDuring({ channelId, from, until, limit }) {
      assertInteger(from, 'from');
      assertInteger(until, 'until');
      const n = Math.max(0, Math.min(Math.trunc(limit), 1000));
      if (!Number.isFinite(n) || n === 0) return [];
      return (await sql.all<OperationRow>(during, { c: channelId, from, until, n })).map(rowToRecord);
    },
  };
}
