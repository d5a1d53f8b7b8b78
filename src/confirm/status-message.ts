/**
 * Renders and edits an operation's status message from its record: the catalog entry's
 * description, the request with secrets masked (access/secrets.ts), and the cloud's error in words.
 */
import { maskedRequest } from '../access/secrets.js';
import { CloudApiError } from '../cloud/errors.js';
import type { Logger } from '../log.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { lookedUp } from '../operations/looked-up.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { CloudRequest } from '../domain/cloud-request.js';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { buildStatusMessage } from '../views/status-views.js';
import type { OperationRecord } from '../store/types.js';
import type { Mrkdwn } from '../views/mrkdwn.js';

export interface RenderOptions {
  /** The operation waits for a second admin's approval rather than a Confirm. */
  approval?: boolean;
  /** The account to name (several accounts declared). */
  account?: string;
  /** A watch follows the work the change started: the heading's word until it ends ("building"). */
  underway?: Mrkdwn;
}

/** The deploy a Retry sync sent after the change's own request (upkeep.ts records it). */
function retriedRequest(record: OperationRecord): CloudRequest | undefined {
  const r = record.result?.retried as { method?: unknown; path?: unknown } | undefined;
  return r && r.method === 'POST' && typeof r.path === 'string' ? { method: 'POST', path: r.path } : undefined;
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
          { mutation: true, lookedUp: lookedUp(op, record.args) },
        )
      : undefined;
  const typed = change.typeToConfirm?.(record.args as never, record.facts);
  return buildStatusMessage({
    record,
    title: described.title,
    lines: described.lines,
    request: maskedRequest(op, record.args),
    ...(retriedRequest(record) ? { retried: retriedRequest(record)! } : {}),
    needsConfirm: change.confirm || !!options.approval,
    approval: !!options.approval,
    ...(options.account ? { account: options.account } : {}),
    ...(typed ? { typeToConfirm: typed } : {}),
    ...(error ? { error } : {}),
    retrySync: record.errorCode === 'HYPERVISOR_SYNC_FAILED' && !!change.syncGroup,
    ...(options.underway ? { underway: options.underway } : {}),
    now,
  });
}

/** Why an edit did not land: Slack's code, and whether Slack was unavailable rather than refusing. */
export interface EditFailure {
  code: string;
  unavailable: boolean;
}

/**
 * Edits the status message in place. A failed edit is logged and returned, never thrown: the
 * change goes on whatever Slack does. Edits of one message go out in order, and one waiting
 * behind a slow edit is dropped when a newer one arrives, so the message ends at the newest
 * state and a slow Slack costs one call's bounded retries, not one per state.
 */
export function createStatusEditor(deps: { slack: SlackApi; logger: Logger }) {
  const queues = new Map<string, { tail: Promise<unknown>; newest: number }>();
  let seq = 0;
  return async function refreshStatus(op: AnyOperation, record: OperationRecord, now: number, options: RenderOptions = {}): Promise<EditFailure | undefined> {
    if (!record.messageTs) return undefined;
    const key = `${record.channelId}/${record.messageTs}`;
    const mine = ++seq;
    const queue = queues.get(key) ?? { tail: Promise.resolve(), newest: 0 };
    queue.newest = mine;
    const run = queue.tail.then(async (): Promise<EditFailure | undefined> => {
      if (queue.newest !== mine) return undefined; // a newer state is queued: it will say more
      try {
        const reply = renderStatus(op, record, now, options);
        await deps.slack.update({ channel: record.channelId, ts: record.messageTs!, text: reply.text, blocks: reply.blocks });
        return undefined;
      } catch (e) {
        deps.logger.warn('could not update a status message', { op: op.id, record: record.id, error: e });
        return e instanceof SlackApiError ? { code: e.code, unavailable: e.failure === 'unavailable' } : { code: 'request_failed', unavailable: true };
      }
    });
    queue.tail = run;
    queues.set(key, queue);
    void run.finally(() => {
      if (queues.get(key)?.newest === mine) queues.delete(key);
    });
    return run;
  };
}
