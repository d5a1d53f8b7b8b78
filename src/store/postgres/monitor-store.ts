/**
 * The monitor's stores in PostgreSQL: the same conditional statements as the SQLite store
 * (monitor-store.ts). Under READ COMMITTED a second UPDATE of a row waits for the first and
 * re-checks its WHERE, and INSERT … ON CONFLICT waits for a concurrent inserter of the same
 * key, so every claim has one winner across connections and replicas.
 */
import { newAlertId, newSubscriptionId } from '../ids.js';
import {
  alertInsertParams,
  assertAlertId,
  assertDay,
  assertIdText,
  assertLease,
  assertMuteUntil,
  assertSubscriptionId,
  clampAlertLimit,
  subscriptionInsertParams,
  toAlert,
  toSubscription,
  type AlertRow,
  type SubscriptionRow,
} from '../monitor-rows.js';
import type { AlertStore, LeaseStore, MonitorStateStore, MonitorStores, SubscriptionStore } from '../monitor-types.js';
import { assertInteger, assertText, objectToJson } from '../operation-rows.js';
import { run, type Queryable } from './sql.js';

/** Fresh ids to try when the random one is taken (50 bits: practically never). */
const ID_ATTEMPTS = 4;

type Db = () => Promise<Queryable>;

export function createPgMonitorStores(db: Db): MonitorStores {
  return {
    subscriptions: createPgSubscriptionStore(db),
    alerts: createPgAlertStore(db),
    monitorState: createPgMonitorStateStore(db),
    leases: createPgLeaseStore(db),
  };
}

function createPgSubscriptionStore(db: Db): SubscriptionStore {
  const one = async (sql: string, params: Record<string, unknown>) => {
    const [row] = await run<SubscriptionRow>(await db(), sql, params);
    return row ? toSubscription(row) : undefined;
  };
  return {
    async add(input) {
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
        const params = subscriptionInsertParams(input, newSubscriptionId());
        const conn = await db();
        // No conflict target: the active-duplicate index and the primary key both make it do nothing.
        const [row] = await run<SubscriptionRow>(
          conn,
          `INSERT INTO subscriptions (id, channel_id, account, kind, resource, params, created_by, created_at)
           VALUES (@id, @channel_id, @account, @kind, @resource, @params::jsonb, @created_by, @created_at)
           ON CONFLICT DO NOTHING
           RETURNING *`,
          params,
        );
        if (row) return { record: toSubscription(row), created: true };
        const [twin] = await run<SubscriptionRow>(
          conn,
          `SELECT * FROM subscriptions
            WHERE channel_id = @channel_id AND COALESCE(account, '') = COALESCE(@account::text, '') AND kind = @kind
              AND resource = @resource AND removed_at IS NULL`,
          { channel_id: params.channel_id, account: params.account, kind: params.kind, resource: params.resource },
        );
        if (twin) return { record: toSubscription(twin), created: false };
        // Neither inserted nor a twin: the id was taken, or the twin was removed meanwhile; try again.
      }
      throw new Error('subscription insert found no free id');
    },
    async get(id) {
      assertIdText(id);
      return one('SELECT * FROM subscriptions WHERE id = @id', { id });
    },
    async listForChannel(channelId) {
      assertText(channelId, 'channelId');
      const rows = await run<SubscriptionRow>(
        await db(),
        'SELECT * FROM subscriptions WHERE channel_id = @c AND removed_at IS NULL ORDER BY created_at, seq',
        { c: channelId },
      );
      return rows.map(toSubscription);
    },
    async listActive() {
      const rows = await run<SubscriptionRow>(await db(), 'SELECT * FROM subscriptions WHERE removed_at IS NULL ORDER BY created_at, seq');
      return rows.map(toSubscription);
    },
    async remove(id, now) {
      assertIdText(id);
      assertInteger(now, 'now');
      return one('UPDATE subscriptions SET removed_at = @now::bigint WHERE id = @id AND removed_at IS NULL RETURNING *', { id, now });
    },
    async mute(id, until) {
      assertIdText(id);
      assertMuteUntil(until);
      return one('UPDATE subscriptions SET muted_until = @until::bigint WHERE id = @id AND removed_at IS NULL RETURNING *', { id, until });
    },
    async claimRun(id, day) {
      assertIdText(id);
      assertDay(day);
      const rows = await run(
        await db(),
        `UPDATE subscriptions SET last_run = @day::text
          WHERE id = @id AND removed_at IS NULL AND last_run IS DISTINCT FROM @day::text
         RETURNING id`,
        { id, day },
      );
      return rows.length === 1;
    },
  };
}

function createPgAlertStore(db: Db): AlertStore {
  return {
    async open(input) {
      for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
        const params = alertInsertParams(input, newAlertId());
        const conn = await db();
        const [row] = await run<AlertRow>(
          conn,
          `INSERT INTO alerts (id, subscription_id, channel_id, condition, status, started_at, detail)
           VALUES (@id, @subscription_id, @channel_id, @condition, 'firing', @started_at, @detail::jsonb)
           ON CONFLICT DO NOTHING
           RETURNING *`,
          params,
        );
        if (row) return { record: toAlert(row), created: true };
        const [firing] = await run<AlertRow>(
          conn,
          "SELECT * FROM alerts WHERE subscription_id = @s AND condition = @c AND status = 'firing'",
          { s: params.subscription_id, c: params.condition },
        );
        if (firing) return { record: toAlert(firing), created: false };
      }
      throw new Error('alert insert found no free id');
    },
    async setMessage(id, messageTs) {
      assertAlertId(id);
      assertText(messageTs, 'messageTs');
      const rows = await run(await db(), 'UPDATE alerts SET message_ts = @ts WHERE id = @id RETURNING id', { id, ts: messageTs });
      if (rows.length === 0) throw new Error(`No alert ${id} to attach a message to`);
    },
    async resolve(id, now, detail) {
      assertIdText(id);
      assertInteger(now, 'now');
      const added = detail === undefined ? null : objectToJson(detail, 'detail');
      // jsonb || is a shallow merge: the given keys replace the old ones.
      const [row] = await run<AlertRow>(
        await db(),
        `UPDATE alerts SET status = 'resolved', resolved_at = @now::bigint,
                           detail = detail || COALESCE(@added::jsonb, '{}'::jsonb)
          WHERE id = @id AND status = 'firing'
         RETURNING *`,
        { id, now, added },
      );
      return row ? toAlert(row) : undefined;
    },
    async listFiring(subscriptionId) {
      if (subscriptionId !== undefined) assertSubscriptionId(subscriptionId);
      const rows = await run<AlertRow>(
        await db(),
        `SELECT * FROM alerts WHERE status = 'firing' AND (@s::text IS NULL OR subscription_id = @s::text)
          ORDER BY started_at, seq`,
        { s: subscriptionId ?? null },
      );
      return rows.map(toAlert);
    },
    async listSince(channelId, since, limit) {
      assertText(channelId, 'channelId');
      assertInteger(since, 'since');
      // Newest by its latest event: a long incident resolved today counts as today's.
      const rows = await run<AlertRow>(
        await db(),
        `SELECT * FROM alerts
          WHERE channel_id = @c AND (started_at >= @since::bigint OR resolved_at >= @since::bigint)
          ORDER BY COALESCE(resolved_at, started_at) DESC, started_at DESC, seq DESC
          LIMIT @n::int`,
        { c: channelId, since, n: clampAlertLimit(limit) },
      );
      return rows.map(toAlert);
    },
  };
}

function createPgMonitorStateStore(db: Db): MonitorStateStore {
  return {
    async get(key) {
      assertText(key, 'key');
      const [row] = await run<{ state: string }>(await db(), 'SELECT state FROM monitor_state WHERE key = @key', { key });
      return row ? (JSON.parse(row.state) as Record<string, unknown>) : undefined;
    },
    async put(key, state, now) {
      assertText(key, 'key');
      assertInteger(now, 'now');
      await run(
        await db(),
        `INSERT INTO monitor_state (key, state, updated_at) VALUES (@key, @state::jsonb, @now::bigint)
         ON CONFLICT (key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
        { key, state: objectToJson(state, 'state'), now },
      );
    },
  };
}

function createPgLeaseStore(db: Db): LeaseStore {
  return {
    async acquire(name, owner, now, until) {
      assertLease(name, owner, now, until);
      // One statement: free → insert; expired or ours → update; someone else's → no row.
      const rows = await run(
        await db(),
        `INSERT INTO leases (name, owner, until) VALUES (@name, @owner, @until::bigint)
         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
          WHERE leases.until <= @now::bigint OR leases.owner = excluded.owner
         RETURNING name`,
        { name, owner, now, until },
      );
      return rows.length === 1;
    },
    async release(name, owner) {
      assertText(name, 'name');
      assertText(owner, 'owner');
      await run(await db(), 'DELETE FROM leases WHERE name = @name AND owner = @owner', { name, owner });
    },
  };
}
