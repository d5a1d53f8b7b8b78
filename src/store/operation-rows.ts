/** Mapping between `operations` rows (snake_case, JSON as TEXT) and OperationRecord. */
import { OPERATION_STATUSES } from './types.js';
import type { OperationPatch, OperationRecord, OperationStatus } from './types.js';
import { snakeParams } from './camel-row.js';

export interface OperationRow {
  id: string;
  op_id: string;
  args: string;
  facts: string;
  sealed_secrets: string | null;
  status: string;
  requested_by: string;
  team_id: string | null;
  channel_id: string;
  message_ts: string | null;
  dedupe_key: string | null;
  created_at: number;
  updated_at: number;
  expires_at: number;
  confirmed_by: string | null;
  confirmed_at: number | null;
  approved_by: string | null;
  approved_at: number | null;
  finished_at: number | null;
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  account: string | null;
  send_at: number | null;
}

function isStatus(value: string): value is OperationStatus {
  return (OPERATION_STATUSES as readonly string[]).includes(value);
}

function parseObject(text: string, column: string, id: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`operations.${column} of ${id} is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

export function rowToRecord(row: OperationRow): OperationRecord {
  if (!isStatus(row.status)) throw new Error(`operations.status of ${row.id} is unknown: ${row.status}`);
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
    sendAt: row.send_at ?? null,
  };
}

/** JSON for an object column; refuses anything but a plain object (arrays, null, class instances). */
export function objectToJson(value: unknown, what: string): string {
  const proto: unknown = value !== null && typeof value === 'object' ? Object.getPrototypeOf(value) : undefined;
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
  sendAt: 'send_at',
} as const satisfies Record<keyof OperationPatch, string>;

export type PatchColumn = (typeof PATCH_COLUMNS)[keyof typeof PATCH_COLUMNS];

export const PATCH_COLUMN_NAMES = Object.values(PATCH_COLUMNS) as PatchColumn[];

export function patchParams(patch: OperationPatch): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(PATCH_COLUMNS) as [keyof OperationPatch, PatchColumn][]) {
    const present = Object.hasOwn(patch, key) && patch[key] !== undefined;
    let value: unknown = present ? patch[key] : null;
    if (key === 'result' && value !== null) value = objectToJson(value, 'patch.result');
    params[`set_${column}`] = present ? 1 : 0;
    params[column] = value;
  }
  return params;
}

export function assertInteger(value: unknown, what: string): asserts value is number {
  if (!Number.isSafeInteger(value)) throw new TypeError(`${what} must be an integer (epoch ms)`);
}

export function assertText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${what} must be a non-empty string`);
}

/** An account name, or null for the default account; '' is refused (it would read as a name). */
export function accountParam(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  assertText(value, 'account');
  return value;
}

/** Checks a new operation and gives the named parameters of its INSERT (both backends). */
export function insertParams(input: import('./types.js').NewOperation, id: string, now: number) {
  assertText(input.opId, 'opId');
  assertText(input.requestedBy, 'requestedBy');
  assertText(input.channelId, 'channelId');
  assertInteger(input.expiresAt, 'expiresAt');
  return {
    id,
    now,
    ...snakeParams(input, ['opId', 'requestedBy', 'channelId', 'expiresAt']),
    args: objectToJson(input.args, 'args'),
    facts: objectToJson(input.facts ?? {}, 'facts'),
    sealed_secrets: input.sealedSecrets ?? null,
    team_id: input.teamId ?? null,
    dedupe_key: input.dedupeKey ?? null,
    account: accountParam(input.account),
  };
}
