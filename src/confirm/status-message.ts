/**
 * Renders and edits an operation's status message from its record: the catalog entry's
 * description, the request with secrets masked (access/secrets.ts), and the cloud's error in words.
 */
import { maskedRequest } from '../access/secrets.js';
import { CloudApiError } from '../cloud/errors.js';
import type { Logger } from '../log.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import type { AnyOperation, Reply } from '../operations/types.js';
import type { SlackApi } from '../chat/slack-api.js';
import { buildStatusMessage } from '../views/status-views.js';
import type { OperationRecord } from '../store/types.js';

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
