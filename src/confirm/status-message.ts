/**
 * Renders and edits an operation's status message from its record: secrets split off the
 * arguments and masked, the catalog entry's description, and the cloud's error in words.
 */
import { CloudApiError } from '../cloud/errors.js';
import type { Logger } from '../log.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import type { AnyOperation, CloudRequest, Reply } from '../operations/types.js';
import type { SlackApi } from '../chat/slack-api.js';
import { buildStatusMessage } from '../views/status-views.js';
import type { OperationRecord } from '../store/types.js';

export const MASK = '••••••';

/** Splits validated arguments into what may be stored as is and the secrets to seal. */
export function splitSecrets(op: AnyOperation, args: Record<string, unknown>) {
  const secretNames = new Set(op.change?.secretArgs ?? []);
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    if (secretNames.has(k)) secrets[k] = String(v);
    else plain[k] = v;
  }
  return { plain, secrets };
}

/** Arguments with secret values masked, for the audit trail and logs. */
export function maskedArgs(op: AnyOperation, args: Record<string, unknown>): Record<string, unknown> {
  const secretNames = new Set(op.change?.secretArgs ?? []);
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, secretNames.has(k) ? MASK : v]),
  );
}

/** The request with secret fields masked, for dry runs, status messages and audit. */
export function maskedRequest(op: AnyOperation, args: Record<string, unknown>): CloudRequest {
  const secretNames = new Set(op.change?.secretArgs ?? []);
  const masked = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, secretNames.has(k) && v !== undefined ? MASK : v]));
  const r = op.change!.request(masked as never);
  if (!r.body) return r;
  // Secret arguments may be renamed in the body (password → password): mask by value too.
  const secretValues = new Set(Object.entries(args).filter(([k, v]) => secretNames.has(k) && v !== undefined).map(([, v]) => String(v)));
  const body = Object.fromEntries(Object.entries(r.body).map(([k, v]) => [k, typeof v === 'string' && secretValues.has(v) ? MASK : v]));
  return { ...r, body };
}

export interface RenderOptions {
  /** The operation waits for a second admin's approval rather than a Confirm. */
  approval?: boolean;
}

export function renderStatus(op: AnyOperation, record: OperationRecord, now: number, options: RenderOptions = {}): Reply {
  const change = op.change!;
  const described = change.describe(record.args as never, record.facts);
  const error =
    record.status === 'failed' && record.errorCode
      ? describeCloudError(
          new CloudApiError({
            status: 0,
            code: record.errorCode,
            message: record.errorMessage ?? '',
            ...(record.result?.errorDetails ? { details: record.result.errorDetails as Record<string, unknown> } : {}),
          }),
          { mutation: true },
        )
      : undefined;
  const typed = change.typeToConfirm?.(record.args as never, record.facts);
  return buildStatusMessage({
    record,
    title: described.title,
    lines: described.lines,
    request: maskedRequest(op, record.args),
    needsConfirm: change.confirm || !!options.approval,
    approval: !!options.approval,
    ...(typed ? { typeToConfirm: typed } : {}),
    ...(error ? { error } : {}),
    retrySync: record.errorCode === 'HYPERVISOR_SYNC_FAILED' && !!change.syncGroup,
    now,
  });
}

/** Edits the status message in place; a failure to edit is logged, never fatal to the operation. */
export async function refreshStatus(
  deps: { slack: SlackApi; logger: Logger },
  op: AnyOperation,
  record: OperationRecord,
  now: number,
  options: RenderOptions = {},
): Promise<void> {
  if (!record.messageTs) return;
  const reply = renderStatus(op, record, now, options);
  try {
    await deps.slack.update({ channel: record.channelId, ts: record.messageTs, text: reply.text, blocks: reply.blocks });
  } catch (e) {
    deps.logger.warn('could not update a status message', { op: op.id, record: record.id, error: e });
  }
}
