/**
 * The monitor's stores (migration 7), one implementation for both databases. Every claim is
 * one conditional statement, or an insert-else-read under `exclusive` (SQLite's write lock;
 * on PostgreSQL INSERT … ON CONFLICT waits for a concurrent inserter of the same key and a
 * second UPDATE of a row re-checks its WHERE): one subscription per (channel, account, kind,
 * resource), one firing alert per condition, one digest per day, one lease holder.
 */
import { sql as raw, type CompiledQuery } from 'kysely';
import { bound, type Sql } from './dialect.js';
import { prepareClaim } from './claim-row.js';
import { newAlertId, newSubscriptionId } from './ids.js';
import {
  alertInsertParams,
  assertAlertId,
  assertDay,
  assertDigestOutcome,
  assertIdText,
  assertLease,
  assertMuteUntil,
  assertSubscriptionId,
  clampAlertLimit,
  mergeDetail,
  subscriptionInsertParams,
  toAlert,
  toSubscription,
  type AlertRow,
  type SubscriptionRow,
} from './monitor-rows.js';
import type { AlertStore, LeaseStore, MonitorStateStore, MonitorStores, NewAlert, NewSubscription, SubscriptionStore } from './monitor-types.js';
import { assertInteger, assertText, objectToJson } from './operation-rows.js';

/** Fresh ids to try when the random one is taken (50 bits: practically never). */
const ID_ATTEMPTS = 4;

/**
 * Inserts a row under a fresh random id, or finds the live twin that made the insert do
 * nothing; when neither happened, the random id was taken (or, on PostgreSQL, the twin
 * removed meanwhile), and a new id is tried.
 */
async function insertOrTwin<Row, Rec, V extends Record<string, unknown>>(
  sql: Sql,
  what: string,
  fresh: () => V,
  insert: CompiledQuery<unknown>,
  twin: (values: V) => [CompiledQuery<unknown>, Record<string, unknown>],
  toRecord: (row: Row) => Rec,
): Promise<{ record: Rec; created: boolean }> {
  return sql.exclusive(async (q) => {
    for (let i = 0; i < ID_ATTEMPTS; i++) {
      const values = fresh();
      const row = await q.one<Row>(insert, values);
      if (row) return { record: toRecord(row), created: true };
      const found = await q.one<Row>(...twin(values));
      if (found) return { record: toRecord(found), created: false };
    }
    throw new Error(`${what} insert found no free id`);
  });
}

export function createMonitorStores(sql: Sql): MonitorStores {
  return {
    subscriptions: createSubscriptionStore(sql),
    alerts: createAlertStore(sql),
    monitorState: createMonitorStateStore(sql),
    leases: createLeaseStore(sql),
  };
}

function createSubscriptionStore(sql: Sql): SubscriptionStore {
  const { f } = sql;
  // No conflict target: the active-duplicate index and the primary key both make it do nothing.
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('subscriptions')
      .values(bound(p, ['id', 'channel_id', 'account', 'kind', 'resource', 'params', 'created_by', 'created_at']))
      .onConflict((oc) => oc.doNothing())
      .returningAll(),
  );
  const activeTwin = sql.prepare((k, p) =>
    k
      .selectFrom('subscriptions')
      .selectAll()
      .where('channel_id', '=', p('channel_id'))
      .where(raw<boolean>`COALESCE(account, '') = COALESCE(${f.typed(p('account'), 'text')}, '')`)
      .where('kind', '=', p('kind'))
      .where('resource', '=', p('resource'))
      .where('removed_at', 'is', null),
  );
  const byId = sql.prepare((k, p) => k.selectFrom('subscriptions').selectAll().where('id', '=', p('id')));
  const ofChannel = sql.prepare((k, p) =>
    k.selectFrom('subscriptions').selectAll().where('channel_id', '=', p('c')).where('removed_at', 'is', null).orderBy('created_at').orderBy(f.seq),
  );
  const active = sql.prepare((k) => k.selectFrom('subscriptions').selectAll().where('removed_at', 'is', null).orderBy('created_at').orderBy(f.seq));
  const removeOne = sql.prepare((k, p) =>
    k.updateTable('subscriptions').set({ removed_at: f.typed<number>(p('now'), 'bigint') }).where('id', '=', p('id')).where('removed_at', 'is', null).returningAll(),
  );
  const muteOne = sql.prepare((k, p) =>
    k.updateTable('subscriptions').set({ muted_until: f.typed<number>(p('until'), 'bigint') }).where('id', '=', p('id')).where('removed_at', 'is', null).returningAll(),
  );
  // A new day's claim starts its digest's post afresh: owed (one try, unclear) or nothing owed.
  const claim = sql.prepare((k, p) =>
    k
      .updateTable('subscriptions')
      .set({
        last_run: f.typed<string>(p('day'), 'text'),
        run_owed: f.typed<string | null>(p('owed'), 'text'),
        run_tries: f.typed<number>(p('tries'), 'int'),
        run_next_at: f.typed<number | null>(p('until'), 'bigint'),
        run_since: f.typed<number | null>(p('now'), 'bigint'),
      })
      .where('id', '=', p('id'))
      .where('removed_at', 'is', null)
      .where(raw<boolean>`(last_run IS NULL OR last_run <> ${f.typed(p('day'), 'text')})`)
      .returning('id'),
  );
  // The next try of an owed post: one caller per try (the count is the compare-and-set).
  const retry = sql.prepare((k, p) =>
    k
      .updateTable('subscriptions')
      .set({ run_owed: 'unclear', run_tries: raw<number>`run_tries + 1`, run_next_at: f.typed<number>(p('until'), 'bigint') })
      .where('id', '=', p('id'))
      .where('removed_at', 'is', null)
      .where('last_run', '=', p('day'))
      .where('run_owed', '=', p('outcome'))
      .where('run_tries', '=', f.typed<number>(p('tries'), 'int'))
      .where('run_next_at', '<=', f.typed<number>(p('now'), 'bigint'))
      .returning('id'),
  );
  const settle = sql.prepare((k, p) =>
    k
      .updateTable('subscriptions')
      .set({ run_owed: f.typed<string | null>(p('owed'), 'text'), run_next_at: f.typed<number | null>(p('next'), 'bigint') })
      .where('id', '=', p('id'))
      .where('last_run', '=', p('day'))
      .where('run_tries', '=', f.typed<number>(p('tries'), 'int'))
      .where('run_owed', 'is not', null),
  );
  const one = async (q: typeof byId, values: Record<string, unknown>) => {
    const row = await sql.one<SubscriptionRow>(q, values);
    return row ? toSubscription(row) : undefined;
  };

  return {
    async add(input) {
      const fresh = () => subscriptionInsertParams(input, newSubscriptionId());
      return insertOrTwin(sql, 'subscription', fresh, insert, (v) => [activeTwin, v], toSubscription);
    },
    async get(id) {
      assertIdText(id);
      return one(byId, { id });
    },
    async listForChannel(channelId) {
      assertText(channelId, 'channelId');
      return (await sql.all<SubscriptionRow>(ofChannel, { c: channelId })).map(toSubscription);
    },
    async listActive() {
      return (await sql.all<SubscriptionRow>(active)).map(toSubscription);
    },
    async remove(id, now) {
      assertIdText(id);
      assertInteger(now, 'now');
      return one(removeOne, { id, now });
    },
    async mute(id, until) {
      assertIdText(id);
      assertMuteUntil(until);
      return one(muteOne, { id, until });
    },
    async claimRun(id, day, sending) {
      assertIdText(id);
      assertDay(day);
      if (sending) {
        assertInteger(sending.now, 'now');
        assertInteger(sending.until, 'until');
      }
      const owed = sending ? { owed: 'unclear', tries: 1, until: sending.until, now: sending.now } : { owed: null, tries: 0, until: null, now: null };
      return (await sql.one(claim, { id, day, ...owed })) !== undefined;
    },
    async retryRun(id, day, seen, now, until) {
      assertIdText(id);
      assertDay(day);
      assertDigestOutcome(seen.outcome);
      assertInteger(seen.tries, 'tries');
      assertInteger(now, 'now');
      assertInteger(until, 'until');
      return (await sql.one(retry, { id, day, outcome: seen.outcome, tries: seen.tries, now, until })) !== undefined;
    },
    async settleRun(id, day, tries, next) {
      assertIdText(id);
      assertDay(day);
      assertInteger(tries, 'tries');
      if (next) {
        assertDigestOutcome(next.outcome);
        assertInteger(next.nextAt, 'nextAt');
      }
      return (await sql.run(settle, { id, day, tries, owed: next?.outcome ?? null, next: next?.nextAt ?? null })) > 0;
    },
  };
}

function createAlertStore(sql: Sql): AlertStore {
  const { f } = sql;
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('alerts')
      .values({ ...bound(p, ['id', 'subscription_id', 'channel_id', 'condition', 'started_at', 'detail']), status: 'firing' })
      .onConflict((oc) => oc.doNothing())
      .returningAll(),
  );
  const firingOf = sql.prepare((k, p) =>
    k.selectFrom('alerts').selectAll().where('subscription_id', '=', p('s')).where('condition', '=', p('c')).where('status', '=', 'firing'),
  );
  const byId = sql.prepare((k, p) => k.selectFrom('alerts').selectAll().where('id', '=', p('id')));
  const setTs = sql.prepare((k, p) => k.updateTable('alerts').set({ message_ts: p('ts') }).where('id', '=', p('id')));
  const resolveOne = sql.prepare((k, p) =>
    k
      .updateTable('alerts')
      .set({
        status: 'resolved',
        resolved_at: f.typed<number>(p('now'), 'bigint'),
        detail: raw`COALESCE(${f.typed(p('merged'), 'jsonb')}, detail)`,
        edit_owed: raw<number>`CASE WHEN message_ts IS NULL THEN 0 ELSE 1 END`,
      })
      .where('id', '=', p('id'))
      .where('status', '=', 'firing')
      .returningAll(),
  );
  const firingAll = sql.prepare((k) => k.selectFrom('alerts').selectAll().where('status', '=', 'firing').orderBy('started_at').orderBy(f.seq));
  const firingFor = sql.prepare((k, p) =>
    k.selectFrom('alerts').selectAll().where('status', '=', 'firing').where('subscription_id', '=', p('s')).orderBy('started_at').orderBy(f.seq),
  );
  const editOwed = sql.prepare((k, p) =>
    k.selectFrom('alerts').selectAll().where(raw<boolean>`edit_owed = 1`).orderBy('resolved_at').orderBy(f.seq).limit(f.typed<number>(p('n'), 'int')),
  );
  const shown = sql.prepare((k, p) => k.updateTable('alerts').set({ edit_owed: raw<number>`0` }).where('id', '=', p('id')));
  // Newest by its latest event: a long incident resolved today counts as today's.
  const since = sql.prepare((k, p) =>
    k
      .selectFrom('alerts')
      .selectAll()
      .where('channel_id', '=', p('c'))
      .where(raw<boolean>`(started_at >= ${f.typed(p('since'), 'bigint')} OR resolved_at >= ${f.typed(p('since'), 'bigint')})`)
      .orderBy(raw`COALESCE(resolved_at, started_at) DESC`)
      .orderBy('started_at', 'desc')
      .orderBy(raw`${f.seq} DESC`)
      .limit(f.typed<number>(p('n'), 'int')),
  );
  const countOf = sql.prepare((k, p) =>
    k
      .selectFrom('alerts')
      .select(['subscription_id', 'condition', raw<number>`COUNT(*)`.as('count')])
      .where('channel_id', '=', p('c'))
      .where(raw<boolean>`(started_at >= ${f.typed(p('since'), 'bigint')} OR resolved_at >= ${f.typed(p('since'), 'bigint')})`)
      .groupBy(['subscription_id', 'condition']),
  );

  return {
    async open(input) {
      const fresh = () => alertInsertParams(input, newAlertId());
      return insertOrTwin(sql, 'alert', fresh, insert, (v) => [firingOf, { s: v.subscription_id, c: v.condition }], toAlert);
    },
    async setMessage(id, messageTs) {
      assertAlertId(id);
      assertText(messageTs, 'messageTs');
      if ((await sql.run(setTs, { ts: messageTs, id })) === 0) throw new Error(`No alert ${id} to attach a message to`);
    },
    async resolve(id, now, detail) {
      assertIdText(id);
      assertInteger(now, 'now');
      if (detail !== undefined) objectToJson(detail, 'detail');
      // Read and write together (SQLite: under one write lock); the merge starts from the detail
      // the compare-and-set replaces: only a firing alert is resolved, once.
      return sql.exclusive(async (q) => {
        const current = detail === undefined ? undefined : await q.one<AlertRow>(byId, { id });
        const merged = current && current.status === 'firing' ? mergeDetail(current.detail, detail!) : null;
        const row = await q.one<AlertRow>(resolveOne, { now, merged, id });
        return row ? toAlert(row) : undefined;
      });
    },
    async listFiring(subscriptionId) {
      if (subscriptionId === undefined) return (await sql.all<AlertRow>(firingAll)).map(toAlert);
      assertSubscriptionId(subscriptionId);
      return (await sql.all<AlertRow>(firingFor, { s: subscriptionId })).map(toAlert);
    },
    async listEditOwed(limit) {
      return (await sql.all<AlertRow>(editOwed, { n: clampAlertLimit(limit) })).map(toAlert);
    },
    async editShown(id) {
      assertAlertId(id);
      await sql.run(shown, { id });
    },
    async listSince(channelId, from, limit) {
      assertText(channelId, 'channelId');
      assertInteger(from, 'since');
      return (await sql.all<AlertRow>(since, { c: channelId, since: from, n: clampAlertLimit(limit) })).map(toAlert);
    },
    async countSince(channelId, from) {
      assertText(channelId, 'channelId');
      assertInteger(from, 'since');
      const rows = await sql.all<{ subscription_id: string; condition: string; count: number | string }>(countOf, { c: channelId, since: from });
      return rows.map((r) => ({ subscriptionId: r.subscription_id, condition: r.condition, count: Number(r.count) }));
    },
  };
}

function createMonitorStateStore(sql: Sql): MonitorStateStore {
  const read = sql.prepare((k, p) => k.selectFrom('monitor_state').select('state').where('key', '=', p('key')));
  const write = sql.prepare((k, p) =>
    k
      .insertInto('monitor_state')
      .values({ key: p('key'), state: p('state'), updated_at: p('now') })
      .onConflict((oc) => oc.column('key').doUpdateSet({ state: raw`excluded.state`, updated_at: raw`excluded.updated_at` })),
  );
  return {
    async get(key) {
      assertText(key, 'key');
      const row = await sql.one<{ state: string }>(read, { key });
      return row ? (JSON.parse(row.state) as Record<string, unknown>) : undefined;
    },
    async put(key, state, now) {
      assertText(key, 'key');
      assertInteger(now, 'now');
      await sql.run(write, { key, state: objectToJson(state, 'state'), now });
    },
  };
}

function createLeaseStore(sql: Sql): LeaseStore {
  const { f } = sql;
  // One statement: free → insert; expired or ours → update; someone else's → no row.
  const take = prepareClaim(sql, 'leases', 'name', ['name', 'owner', 'until'], (p) =>
    raw<boolean>`leases.until <= ${f.typed(p('now'), 'bigint')} OR leases.owner = excluded.owner`,
  );
  const drop = sql.prepare((k, p) => k.deleteFrom('leases').where('name', '=', p('name')).where('owner', '=', p('owner')));
  return {
    async acquire(name, owner, now, until) {
      assertLease(name, owner, now, until);
      return (await sql.one(take, { name, owner, now, until })) !== undefined;
    },
    async release(name, owner) {
      assertText(name, 'name');
      assertText(owner, 'owner');
      await sql.run(drop, { name, owner });
    },
  };
}
