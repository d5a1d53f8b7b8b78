/** Mapping between `operations` rows (snake_case, JSON as TEXT) and OperationRecord. */
import { OPERATION_STATUSES } from './types.js';
function isStatus(value) {
    return OPERATION_STATUSES.includes(value);
}
function parseObject(text, column, id) {
    const value = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new Error(`operations.${column} of ${id} is not a JSON object`);
    }
    return value;
}
export function rowToRecord(row) {
    if (!isStatus(row.status))
        throw new Error(`operations.status of ${row.id} is unknown: ${row.status}`);
    return {
        id: row.id,
        opId: row.op_id,
        args: parseObject(row.args, 'args', row.id),
        facts: parseObject(row.facts, 'facts', row.id),
        sealedSecrets: row.sealed_secrets,
        status: row.status,
        requestedBy: row.requested_by,
        teamId: row.team_id,
        channelId: row.channel_id,
        messageTs: row.message_ts,
        dedupeKey: row.dedupe_key,
        createdAt: row.created_at,
        updatedAt: row.updated_at,
        expiresAt: row.expires_at,
        confirmedBy: row.confirmed_by,
        confirmedAt: row.confirmed_at,
        approvedBy: row.approved_by,
        approvedAt: row.approved_at,
        finishedAt: row.finished_at,
        result: row.result === null ? null : parseObject(row.result, 'result', row.id),
        errorCode: row.error_code,
        errorMessage: row.error_message,
        account: row.account,
    };
}
/** JSON for an object column; refuses anything but a plain object (arrays, null, class instances). */
export function objectToJson(value, what) {
    const proto = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
    if (proto !== Object.prototype && proto !== null) {
        throw new TypeError(`${what} must be a plain object`);
    }
    return JSON.stringify(value);
}
/**
 * Named parameters for the transition UPDATE. Each patchable column has a `set_<col>` flag
 * (1 = take the value, even null; 0 = keep the column), so one prepared statement serves
 * every patch.
 */
const PATCH_COLUMNS = {
    confirmedBy: 'confirmed_by',
    confirmedAt: 'confirmed_at',
    approvedBy: 'approved_by',
    approvedAt: 'approved_at',
    finishedAt: 'finished_at',
    result: 'result',
    errorCode: 'error_code',
    errorMessage: 'error_message',
    sealedSecrets: 'sealed_secrets',
};
export const PATCH_COLUMN_NAMES = Object.values(PATCH_COLUMNS);
export function patchParams(patch) {
    const params = {};
    for (const [key, column] of Object.entries(PATCH_COLUMNS)) {
        const present = Object.hasOwn(patch, key) && patch[key] !== undefined;
        let value = present ? patch[key] : null;
        if (key === 'result' && value !== null)
            value = objectToJson(value, 'patch.result');
        params[`set_${column}`] = present ? 1 : 0;
        params[column] = value;
    }
    return params;
}
export function assertInteger(value, what) {
    if (!Number.isSafeInteger(value))
        throw new TypeError(`${what} must be an integer (epoch ms)`);
}
export function assertText(value, what) {
    if (typeof value !== 'string' || value === '')
        throw new TypeError(`${what} must be a non-empty string`);
}
/** An account name, or null for the default account; '' is refused (it would read as a name). */
export function accountParam(value) {
    if (value === undefined || value === null)
        return null;
    assertText(value, 'account');
    return value;
}
/** Checks a new operation and gives the named parameters of its INSERT (both backends). */
export function insertParams(input, id, now) {
    assertText(input.opId, 'opId');
    assertText(input.requestedBy, 'requestedBy');
    assertText(input.channelId, 'channelId');
    assertInteger(input.expiresAt, 'expiresAt');
    return {
        id,
        op_id: input.opId,
        args: objectToJson(input.args, 'args'),
        facts: objectToJson(input.facts ?? {}, 'facts'),
        sealed_secrets: input.sealedSecrets ?? null,
        requested_by: input.requestedBy,
        team_id: input.teamId ?? null,
        channel_id: input.channelId,
        dedupe_key: input.dedupeKey ?? null,
        now,
        expires_at: input.expiresAt,
        account: accountParam(input.account),
    };
}
//# sourceMappingURL=operation-rows.js.map