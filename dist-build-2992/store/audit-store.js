import { accountParam, objectToJson } from './operation-rows.js';
export const AUDIT_TIERS = ['read', 'change', 'billing', 'destroy', 'secret'];
export const AUDIT_OUTCOMES = [
    'succeeded',
    'failed',
    'refused',
    'requested',
    'cancelled',
    'expired',
];
const everyTier = true;
const everyOutcome = true;
void everyTier;
void everyOutcome;
/** Most rows one `list` returns. */
export const AUDIT_LIST_MAX = 500;
export function toEntry(r) {
    if (!AUDIT_TIERS.includes(r.tier))
        throw new Error(`audit.tier of ${r.id} is unknown: ${r.tier}`);
    if (!AUDIT_OUTCOMES.includes(r.outcome))
        throw new Error(`audit.outcome of ${r.id} is unknown: ${r.outcome}`);
    return {
        id: r.id,
        at: r.at,
        userId: r.user_id,
        channelId: r.channel_id,
        opId: r.op_id,
        tier: r.tier,
        args: JSON.parse(r.args),
        outcome: r.outcome,
        errorCode: r.error_code,
        confirmedBy: r.confirmed_by,
        approvedBy: r.approved_by,
        operationId: r.operation_id,
        durationMs: r.duration_ms,
        detail: r.detail,
        account: r.account,
    };
}
export function text(value, what) {
    if (typeof value !== 'string' || value === '')
        throw new TypeError(`${what} must be a non-empty string`);
    return value;
}
export function optionalText(value, what) {
    if (value === undefined || value === null)
        return null;
    if (typeof value !== 'string')
        throw new TypeError(`${what} must be a string or null`);
    return value;
}
/** Checks a new entry and gives the named parameters of its INSERT (both backends). */
export function auditInsertParams(entry, now) {
    const at = entry.at ?? now;
    if (!Number.isSafeInteger(at))
        throw new TypeError('at must be an integer (epoch ms)');
    const duration = entry.durationMs ?? null;
    if (duration !== null && !(Number.isFinite(duration) && duration >= 0)) {
        throw new TypeError('durationMs must be a non-negative number or null');
    }
    return {
        at,
        user_id: text(entry.userId, 'userId'),
        channel_id: optionalText(entry.channelId, 'channelId'),
        op_id: text(entry.opId, 'opId'),
        tier: entry.tier,
        args: objectToJson(entry.args, 'args'),
        outcome: entry.outcome,
        error_code: optionalText(entry.errorCode, 'errorCode'),
        confirmed_by: optionalText(entry.confirmedBy, 'confirmedBy'),
        approved_by: optionalText(entry.approvedBy, 'approvedBy'),
        operation_id: optionalText(entry.operationId, 'operationId'),
        // An integer column in both backends: a measured 12.5 ms is stored as 13.
        duration_ms: duration === null ? null : Math.round(duration),
        detail: optionalText(entry.detail, 'detail'),
        account: accountParam(entry.account),
    };
}
/** Clamps a requested page size to 1..AUDIT_LIST_MAX (NaN counts as 1). */
export function clampAuditLimit(limit) {
    if (Number.isNaN(limit))
        return 1;
    return Math.min(AUDIT_LIST_MAX, Math.max(1, Math.trunc(limit)));
}
const COLUMNS = ['at', 'user_id', 'channel_id', 'op_id', 'tier', 'args', 'outcome', 'error_code', 'confirmed_by', 'approved_by', 'operation_id', 'duration_ms', 'detail', 'account'];
export function createAuditStore(sql, clock) {
    const insert = sql.prepare((k, p) => k
        .insertInto('audit')
        .values(Object.fromEntries(COLUMNS.map((c) => [c, p(c)])))
        .returningAll());
    const recent = sql.prepare((k, p) => k.selectFrom('audit').selectAll().orderBy('at', 'desc').orderBy('id', 'desc').limit(p('n')));
    const recentBy = sql.prepare((k, p) => k.selectFrom('audit').selectAll().where('user_id', '=', p('u')).orderBy('at', 'desc').orderBy('id', 'desc').limit(p('n')));
    return {
        async insert(entry) {
            const row = await sql.one(insert, auditInsertParams(entry, clock.now()));
            if (!row)
                throw new Error('audit insert returned no row');
            return toEntry(row);
        },
        // One multi-row INSERT on both databases: atomic by itself (all or none), one round trip for the group.
        async insertMany(entries) {
            if (entries.length === 0)
                return [];
            const rows = entries.map((entry) => auditInsertParams(entry, clock.now()));
            const stored = await sql.all(sql.k.insertInto('audit').values(rows).returningAll());
            if (stored.length !== entries.length)
                throw new Error('audit insert returned fewer rows than it was given');
            // Ids are drawn in the order of the VALUES list: sorted by id, the rows are in the order given.
            return stored.sort((a, b) => Number(a.id) - Number(b.id)).map(toEntry);
        },
        async list({ userId, limit }) {
            const n = clampAuditLimit(limit);
            const rows = userId === undefined ? await sql.all(recent, { n }) : await sql.all(recentBy, { u: userId, n });
            return rows.map(toEntry);
        },
    };
}
//# sourceMappingURL=audit-store.js.map