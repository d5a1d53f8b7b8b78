/**
 * Rows of the monitor's tables (migration 7) as both backends return them, their mapping to
 * records, and the checked parameters of their INSERTs: one definition for SQLite and PostgreSQL.
 */
import { ALERT_ID_PATTERN, SUBSCRIPTION_ID_PATTERN } from './ids.js';
import { accountParam, assertInteger, assertText, objectToJson } from './operation-rows.js';
export const SUBSCRIPTION_KINDS = ['server', 'worker', 'usage', 'invoices', 'digest'];
/** Kinds that follow the whole account: their resource is always ''. */
export const ACCOUNT_WIDE_KINDS = ['usage', 'invoices', 'digest'];
export const ALERT_STATUSES = ['firing', 'resolved'];
const everyKind = true;
const everyStatus = true;
void everyKind;
void everyStatus;
/** Most rows one `alerts.listSince` returns. */
export const ALERT_LIST_MAX = 500;
function parseObject(text, where) {
    const value = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new Error(`${where} is not a JSON object`);
    return value;
}
export function toSubscription(r) {
    if (!SUBSCRIPTION_KINDS.includes(r.kind))
        throw new Error(`subscriptions.kind of ${r.id} is unknown: ${r.kind}`);
    return {
        id: r.id,
        channelId: r.channel_id,
        account: r.account,
        kind: r.kind,
        resource: r.resource,
        params: parseObject(r.params, `subscriptions.params of ${r.id}`),
        createdBy: r.created_by,
        createdAt: r.created_at,
        mutedUntil: r.muted_until,
        removedAt: r.removed_at,
        lastRun: r.last_run,
    };
}
export function toAlert(r) {
    if (!ALERT_STATUSES.includes(r.status))
        throw new Error(`alerts.status of ${r.id} is unknown: ${r.status}`);
    return {
        id: r.id,
        subscriptionId: r.subscription_id,
        channelId: r.channel_id,
        condition: r.condition,
        status: r.status,
        messageTs: r.message_ts,
        startedAt: r.started_at,
        resolvedAt: r.resolved_at,
        detail: parseObject(r.detail, `alerts.detail of ${r.id}`),
    };
}
/** Checks a new subscription and gives the named parameters of its INSERT (both backends). */
export function subscriptionInsertParams(input, id) {
    assertText(input.channelId, 'channelId');
    assertText(input.createdBy, 'createdBy');
    assertInteger(input.createdAt, 'createdAt');
    if (!SUBSCRIPTION_KINDS.includes(input.kind)) {
        throw new TypeError(`kind must be one of ${SUBSCRIPTION_KINDS.join(', ')}`);
    }
    // '' for account-wide kinds, a name otherwise: so the duplicate check compares like with like.
    if (ACCOUNT_WIDE_KINDS.includes(input.kind)) {
        if (input.resource !== '')
            throw new TypeError(`resource must be '' for a ${input.kind} subscription`);
    }
    else {
        assertText(input.resource, 'resource');
    }
    return {
        id,
        channel_id: input.channelId,
        account: accountParam(input.account),
        kind: input.kind,
        resource: input.resource,
        params: objectToJson(input.params ?? {}, 'params'),
        created_by: input.createdBy,
        created_at: input.createdAt,
    };
}
/** Checks a new alert and gives the named parameters of its INSERT (both backends). */
export function alertInsertParams(input, id) {
    assertSubscriptionId(input.subscriptionId);
    assertText(input.channelId, 'channelId');
    assertText(input.condition, 'condition');
    assertInteger(input.startedAt, 'startedAt');
    return {
        id,
        subscription_id: input.subscriptionId,
        channel_id: input.channelId,
        condition: input.condition,
        started_at: input.startedAt,
        detail: objectToJson(input.detail ?? {}, 'detail'),
    };
}
export function assertSubscriptionId(value, what = 'subscriptionId') {
    if (typeof value !== 'string' || !SUBSCRIPTION_ID_PATTERN.test(value))
        throw new TypeError(`${what} must be a subscription id (sub_…)`);
}
export function assertAlertId(value) {
    if (typeof value !== 'string' || !ALERT_ID_PATTERN.test(value))
        throw new TypeError('id must be an alert id (alt_…)');
}
/** mutedUntil: an epoch-ms integer, or null to clear it. */
export function assertMuteUntil(value) {
    if (value !== null)
        assertInteger(value, 'until');
}
/** A local calendar day, as the digest claims it. */
export function assertDay(value) {
    if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value))
        throw new TypeError('day must be a local date (YYYY-MM-DD)');
}
/** A lease's times: integers, and `until` after `now` (a lease that ends before it starts holds nothing). */
export function assertLease(name, owner, now, until) {
    assertText(name, 'name');
    assertText(owner, 'owner');
    assertInteger(now, 'now');
    assertInteger(until, 'until');
    if (until <= now)
        throw new TypeError('until must be after now');
}
/** Clamps a requested page size to 1..ALERT_LIST_MAX (NaN counts as 1). */
export function clampAlertLimit(limit) {
    if (Number.isNaN(limit))
        return 1;
    return Math.min(ALERT_LIST_MAX, Math.max(1, Math.trunc(limit)));
}
/** What `resolve` stores: the old detail with the given keys replaced (a shallow merge, as PostgreSQL's jsonb `||`). */
export function mergeDetail(old, given) {
    const added = JSON.parse(objectToJson(given, 'detail'));
    return JSON.stringify({ ...parseObject(old, 'alerts.detail'), ...added });
}
/** The id argument of a lookup: a string (an id of the wrong shape just finds nothing). */
export function assertIdText(value) {
    if (typeof value !== 'string')
        throw new TypeError('id must be a string');
}
//# sourceMappingURL=monitor-rows.js.map