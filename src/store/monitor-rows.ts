/**
 * Rows of the monitor's tables (migration 7) as both backends return them, their mapping to
 * records, and the checked parameters of their INSERTs: one definition for SQLite and PostgreSQL.
 */
import { ALERT_ID_PATTERN, SUBSCRIPTION_ID_PATTERN } from './ids.js';
import type { AlertRecord, AlertStatus, DigestOwed, NewAlert, NewSubscription, SubscriptionKind, SubscriptionRecord } from './monitor-types.js';
import { accountParam, assertInteger, assertText, objectToJson } from './operation-rows.js';
import { everyValue } from './every-value.js';
import { camelRow, snakeParams } from './camel-row.js';

export const SUBSCRIPTION_KINDS = everyValue<SubscriptionKind>()(['server', 'worker', 'usage', 'invoices', 'digest']);
/** Kinds that follow the whole account: their resource is always ''. */
export const ACCOUNT_WIDE_KINDS: readonly SubscriptionKind[] = ['usage', 'invoices', 'digest'];
export const ALERT_STATUSES = everyValue<AlertStatus>()(['firing', 'resolved']);

/** Most rows one `alerts.listSince` returns. */
export const ALERT_LIST_MAX = 500;

export interface SubscriptionRow {
  id: string;
  channel_id: string;
  account: string | null;
  kind: string;
  resource: string;
  params: string;
  created_by: string;
  created_at: number;
  muted_until: number | null;
  removed_at: number | null;
  last_run: string | null;
  /** The day's digest post not yet seen in its channel (migration 20): 'unclear' or 'failed'; NULL when nothing is owed. */
  run_owed: string | null;
  run_tries: number;
  run_next_at: number | null;
  run_since: number | null;
}

export interface AlertRow {
  id: string;
  subscription_id: string;
  channel_id: string;
  condition: string;
  status: string;
  message_ts: string | null;
  started_at: number;
  resolved_at: number | null;
  detail: string;
  /** 1 while a closed alert's message does not yet show it closed (migration 19). */
  edit_owed: number;
}

function parseObject(text: string, where: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${where} is not a JSON object`);
  return value as Record<string, unknown>;
}

export function toSubscription(r: SubscriptionRow): SubscriptionRecord {
  if (!(SUBSCRIPTION_KINDS as readonly string[]).includes(r.kind)) throw new Error(`subscriptions.kind of ${r.id} is unknown: ${r.kind}`);
  return {
    ...camelRow(r, ['id', 'channel_id', 'account', 'resource', 'created_by', 'created_at', 'muted_until', 'removed_at', 'last_run']),
    kind: r.kind as SubscriptionKind,
    params: parseObject(r.params, `subscriptions.params of ${r.id}`),
    runOwed: toDigestOwed(r),
  };
}

function toDigestOwed(r: SubscriptionRow): DigestOwed | null {
  if (r.run_owed === null) return null;
  if (!(DIGEST_OUTCOMES as readonly string[]).includes(r.run_owed)) throw new Error(`subscriptions.run_owed of ${r.id} is unknown: ${r.run_owed}`);
  // A try always sets its times; a row without them (never written so) is taken as due now.
  return { outcome: r.run_owed as DigestOwed['outcome'], tries: r.run_tries, nextAt: r.run_next_at ?? 0, since: r.run_since ?? 0 };
}

/** What a digest's try came to, when its post is still owed. */
export const DIGEST_OUTCOMES = everyValue<DigestOwed['outcome']>()(['unclear', 'failed']);

export function assertDigestOutcome(value: unknown): asserts value is DigestOwed['outcome'] {
  if (!(DIGEST_OUTCOMES as readonly unknown[]).includes(value)) throw new TypeError(`outcome must be ${DIGEST_OUTCOMES.join(' or ')}`);
}

export function toAlert(r: AlertRow): AlertRecord {
  if (!(ALERT_STATUSES as readonly string[]).includes(r.status)) throw new Error(`alerts.status of ${r.id} is unknown: ${r.status}`);
  return {
    ...camelRow(r, ['id', 'subscription_id', 'channel_id', 'condition', 'message_ts', 'started_at', 'resolved_at']),
    status: r.status as AlertStatus,
    detail: parseObject(r.detail, `alerts.detail of ${r.id}`),
  };
}

/** Checks a new subscription and gives the named parameters of its INSERT (both backends). */
export function subscriptionInsertParams(input: NewSubscription, id: string) {
  assertText(input.channelId, 'channelId');
  assertText(input.createdBy, 'createdBy');
  assertInteger(input.createdAt, 'createdAt');
  if (!(SUBSCRIPTION_KINDS as readonly unknown[]).includes(input.kind)) {
    throw new TypeError(`kind must be one of ${SUBSCRIPTION_KINDS.join(', ')}`);
  }
  // '' for account-wide kinds, a name otherwise: so the duplicate check compares like with like.
  if (ACCOUNT_WIDE_KINDS.includes(input.kind)) {
    if (input.resource !== '') throw new TypeError(`resource must be '' for a ${input.kind} subscription`);
  } else {
    assertText(input.resource, 'resource');
  }
  return {
    id,
    ...snakeParams(input, ['channelId', 'kind', 'resource', 'createdBy', 'createdAt']),
    account: accountParam(input.account),
    params: objectToJson(input.params ?? {}, 'params'),
  };
}

/** Checks a new alert and gives the named parameters of its INSERT (both backends). */
export function alertInsertParams(input: NewAlert, id: string) {
  assertSubscriptionId(input.subscriptionId);
  assertText(input.channelId, 'channelId');
  assertText(input.condition, 'condition');
  assertInteger(input.startedAt, 'startedAt');
  return {
    id,
    ...snakeParams(input, ['subscriptionId', 'channelId', 'condition', 'startedAt']),
    detail: objectToJson(input.detail ?? {}, 'detail'),
  };
}

export function assertSubscriptionId(value: unknown, what = 'subscriptionId'): asserts value is string {
  if (typeof value !== 'string' || !SUBSCRIPTION_ID_PATTERN.test(value)) throw new TypeError(`${what} must be a subscription id (sub_…)`);
}

export function assertAlertId(value: unknown): asserts value is string {
  if (typeof value !== 'string' || !ALERT_ID_PATTERN.test(value)) throw new TypeError('id must be an alert id (alt_…)');
}

/** mutedUntil: an epoch-ms integer, or null to clear it. */
export function assertMuteUntil(value: unknown): asserts value is number | null {
  if (value !== null) assertInteger(value, 'until');
}

/** A local calendar day, as the digest claims it. */
export function assertDay(value: unknown): asserts value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new TypeError('day must be a local date (YYYY-MM-DD)');
}

/** A lease's times: integers, and `until` after `now` (a lease that ends before it starts holds nothing). */
export function assertLease(name: unknown, owner: unknown, now: unknown, until: unknown): void {
  assertText(name, 'name');
  assertText(owner, 'owner');
  assertInteger(now, 'now');
  assertInteger(until, 'until');
  if (until <= now) throw new TypeError('until must be after now');
}

/** Clamps a requested page size to 1..ALERT_LIST_MAX (NaN counts as 1). */
export function clampAlertLimit(limit: number): number {
  if (Number.isNaN(limit)) return 1;
  return Math.min(ALERT_LIST_MAX, Math.max(1, Math.trunc(limit)));
}

/** What `resolve` stores: the old detail with the given keys replaced (a shallow merge, as PostgreSQL's jsonb `||`). */
export function mergeDetail(old: string, given: Record<string, unknown>): string {
  const added = JSON.parse(objectToJson(given, 'detail')) as Record<string, unknown>;
  return JSON.stringify({ ...parseObject(old, 'alerts.detail'), ...added });
}

/** The id argument of a lookup: a string (an id of the wrong shape just finds nothing). */
export function assertIdText(value: unknown): asserts value is string {
  if (typeof value !== 'string') throw new TypeError('id must be a string');
}
