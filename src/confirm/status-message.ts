/**
 * Edits an operation's status message in place. What it says is a view of the record
 * (views/status-message.ts): the request was described once, when the record was made.
 */
import type { Logger } from '../log.js';
import type { AnyOperation } from '../operations/types.js';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';
import type { OperationRecord } from '../store/types.js';
import { renderStatus, type RenderOptions } from '../views/status-message.js';

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
