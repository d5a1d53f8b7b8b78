/**
 * The monitor's stores in SQLite (migration 7). Every claim is one conditional statement or an
 * IMMEDIATE transaction, so the write lock makes it atomic across connections and processes:
 * one subscription per (channel, account, kind, resource), one firing alert per condition,
 * one digest per day, one lease holder.
 */
import type { Database as Db } from 'better-sqlite3';
import { newAlertId, newSubscriptionId } from './ids.js';
import {
  alertInsertParams,
  assertAlertId,
  assertDay,
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

export function createMonitorStores(db: Db): MonitorStores {
  return {
    subscriptions: createSubscriptionStore(db),
    alerts: createAlertStore(db),
    monitorState: createMonitorStateStore(db),
    leases: createLeaseStore(db),
  };
}

function createSubscriptionStore(db: Db): SubscriptionStore {
  // No conflict target: the active-duplicate index and the primary key both make it do nothing.
  const insert = db.prepare<Record<string, unknown>, SubscriptionRow>(`
    INSERT INTO subscriptions (id, channel_id, account, kind, resource, params, created_by, created_at)
    VALUES (@id, @channel_id, @account, @kind, @resource, @params, @created_by, @created_at)
    ON CONFLICT DO NOTHING
    RETURNING *`);
  const activeTwin = db.prepare<Record<string, unknown>, SubscriptionRow>(`
    SELECT * FROM subscriptions
     WHERE channel_id = @channel_id AND COALESCE(account, '') = COALESCE(@account, '') AND kind = @kind
       AND resource = @resource AND removed_at IS NULL`);
  const byId = db.prepare<[string], SubscriptionRow>('SELECT * FROM subscriptions WHERE id = ?');
  const ofChannel = db.prepare<[string], SubscriptionRow>(
    'SELECT * FROM subscriptions WHERE channel_id = ? AND removed_at IS NULL ORDER BY created_at, rowid',
  );
  const active = db.prepare<[], SubscriptionRow>('SELECT * FROM subscriptions WHERE removed_at IS NULL ORDER BY created_at, rowid');
  const removeOne = db.prepare<[number, string], SubscriptionRow>(
    'UPDATE subscriptions SET removed_at = ? WHERE id = ? AND removed_at IS NULL RETURNING *',
  );
  const muteOne = db.prepare<[number | null, string], SubscriptionRow>(
    'UPDATE subscriptions SET muted_until = ? WHERE id = ? AND removed_at IS NULL RETURNING *',
  );
  const claim = db.prepare<[string, string, string], { id: string }>(`
    UPDATE subscriptions SET last_run = ?
     WHERE id = ? AND removed_at IS NULL AND (last_run IS NULL OR last_run <> ?)
    RETURNING id`);

  const addTx = db.transaction((input: NewSubscription) => {
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const params = subscriptionInsertParams(input, newSubscriptionId());
      const row = insert.get(params);
      if (row) return { record: toSubscription(row), created: true };
      const twin = activeTwin.get(params);
      if (twin) return { record: toSubscription(twin), created: false };
      // Neither inserted nor a twin: the random id was taken; try another.
    }
    throw new Error('subscription insert found no free id');
  });

  return {
    async add(input) {
      return addTx.immediate(input);
    },
    async get(id) {
      assertIdText(id);
      const row = byId.get(id);
      return row ? toSubscription(row) : undefined;
    },
    async listForChannel(channelId) {
      assertText(channelId, 'channelId');
      return ofChannel.all(channelId).map(toSubscription);
    },
    async listActive() {
      return active.all().map(toSubscription);
    },
    async remove(id, now) {
      assertIdText(id);
      assertInteger(now, 'now');
      const row = removeOne.get(now, id);
      return row ? toSubscription(row) : undefined;
    },
    async mute(id, until) {
      assertIdText(id);
      assertMuteUntil(until);
      const row = muteOne.get(until, id);
      return row ? toSubscription(row) : undefined;
    },
    async claimRun(id, day) {
      assertIdText(id);
      assertDay(day);
      return claim.get(day, id, day) !== undefined;
    },
  };
}

function createAlertStore(db: Db): AlertStore {
  const insert = db.prepare<Record<string, unknown>, AlertRow>(`
    INSERT INTO alerts (id, subscription_id, channel_id, condition, status, started_at, detail)
    VALUES (@id, @subscription_id, @channel_id, @condition, 'firing', @started_at, @detail)
    ON CONFLICT DO NOTHING
    RETURNING *`);
  const firingOf = db.prepare<[string, string], AlertRow>(
    "SELECT * FROM alerts WHERE subscription_id = ? AND condition = ? AND status = 'firing'",
  );
  const byId = db.prepare<[string], AlertRow>('SELECT * FROM alerts WHERE id = ?');
  const setTs = db.prepare<[string, string]>('UPDATE alerts SET message_ts = ? WHERE id = ?');
  const resolveOne = db.prepare<[number, string | null, string], AlertRow>(`
    UPDATE alerts SET status = 'resolved', resolved_at = ?, detail = COALESCE(?, detail)
     WHERE id = ? AND status = 'firing'
    RETURNING *`);
  const firingAll = db.prepare<[], AlertRow>("SELECT * FROM alerts WHERE status = 'firing' ORDER BY started_at, rowid");
  const firingFor = db.prepare<[string], AlertRow>(
    "SELECT * FROM alerts WHERE status = 'firing' AND subscription_id = ? ORDER BY started_at, rowid",
  );
  // Newest by its latest event: a long incident resolved today counts as today's.
  const since = db.prepare<{ channel: string; since: number; limit: number }, AlertRow>(`
    SELECT * FROM alerts
     WHERE channel_id = @channel AND (started_at >= @since OR resolved_at >= @since)
     ORDER BY COALESCE(resolved_at, started_at) DESC, started_at DESC, rowid DESC
     LIMIT @limit`);

  const openTx = db.transaction((input: NewAlert) => {
    for (let attempt = 0; attempt < ID_ATTEMPTS; attempt++) {
      const params = alertInsertParams(input, newAlertId());
      const row = insert.get(params);
      if (row) return { record: toAlert(row), created: true };
      const firing = firingOf.get(params.subscription_id, params.condition);
      if (firing) return { record: toAlert(firing), created: false };
    }
    throw new Error('alert insert found no free id');
  });
  // Read and write under one write lock: the merge starts from the detail the CAS replaces.
  const resolveTx = db.transaction((id: string, now: number, detail: Record<string, unknown> | undefined) => {
    const current = detail === undefined ? undefined : byId.get(id);
    const merged = current && current.status === 'firing' ? mergeDetail(current.detail, detail!) : null;
    const row = resolveOne.get(now, merged, id);
    return row ? toAlert(row) : undefined;
  });

  return {
    async open(input) {
      return openTx.immediate(input);
    },
    async setMessage(id, messageTs) {
      assertAlertId(id);
      assertText(messageTs, 'messageTs');
      if (setTs.run(messageTs, id).changes === 0) throw new Error(`No alert ${id} to attach a message to`);
    },
    async resolve(id, now, detail) {
      assertIdText(id);
      assertInteger(now, 'now');
      if (detail !== undefined) objectToJson(detail, 'detail');
      return resolveTx.immediate(id, now, detail);
    },
    async listFiring(subscriptionId) {
      if (subscriptionId === undefined) return firingAll.all().map(toAlert);
      assertSubscriptionId(subscriptionId);
      return firingFor.all(subscriptionId).map(toAlert);
    },
    async listSince(channelId, from, limit) {
      assertText(channelId, 'channelId');
      assertInteger(from, 'since');
      return since.all({ channel: channelId, since: from, limit: clampAlertLimit(limit) }).map(toAlert);
    },
  };
}

function createMonitorStateStore(db: Db): MonitorStateStore {
  const read = db.prepare<[string], { state: string }>('SELECT state FROM monitor_state WHERE key = ?');
  const write = db.prepare<[string, string, number]>(`
    INSERT INTO monitor_state (key, state, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (key) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`);
  return {
    async get(key) {
      assertText(key, 'key');
      const row = read.get(key);
      return row ? (JSON.parse(row.state) as Record<string, unknown>) : undefined;
    },
    async put(key, state, now) {
      assertText(key, 'key');
      assertInteger(now, 'now');
      write.run(key, objectToJson(state, 'state'), now);
    },
  };
}

function createLeaseStore(db: Db): LeaseStore {
  // One statement: free → insert; expired or ours → update; someone else's → no row.
  const take = db.prepare<Record<string, unknown>, { name: string }>(`
    INSERT INTO leases (name, owner, until) VALUES (@name, @owner, @until)
    ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until = excluded.until
     WHERE leases.until <= @now OR leases.owner = excluded.owner
    RETURNING name`);
  const drop = db.prepare<[string, string]>('DELETE FROM leases WHERE name = ? AND owner = ?');
  return {
    async acquire(name, owner, now, until) {
      assertLease(name, owner, now, until);
      return take.get({ name, owner, now, until }) !== undefined;
    },
    async release(name, owner) {
      assertText(name, 'name');
      assertText(owner, 'owner');
      drop.run(name, owner);
    },
  };
}
