/**
 * The message a watch's thread hangs from, edited in place: a change's status message with a
 * progress line under it, or the watch's own message when it was started by hand. Both are
 * views of records (the change's request was stored with it when it was made).
 */
import type { Clock } from '../clock.js';
import type { Catalog } from '../operations/catalog.js';
import { lookedUp } from '../operations/looked-up.js';
import type { OperationStore } from '../store/types.js';
import type { WatchRecord } from '../store/watch-store.js';
import type { SlackApi } from '../chat/slack-api.js';
import { md } from '../views/mrkdwn.js';
import { renderStatus } from '../views/status-message.js';
import { buildProgressBlock, buildWatchMessage, unreadLine } from '../views/watch-views.js';

export interface ParentDeps {
  operations: OperationStore;
  catalog: Catalog;
  slack: SlackApi;
  clock: Clock;
  /** The account's name where messages should show it (several accounts declared), else undefined. */
  accountLabel?: (account: string | null) => string | undefined;
}

export function createParentRefresher(deps: ParentDeps) {
  return async (w: WatchRecord): Promise<void> => {
    if (!w.threadTs) return;
    const now = deps.clock.now();
    const kind = deps.catalog.watchKinds[w.kind];
    const seen = w.state ? kind.describe(w.state) : undefined;
    // Polls failing: the last state is not shown as the current one.
    const line = w.unread ? unreadLine(w.unread, seen) : (seen ?? md`waiting for the first look`);
    if (w.operationId) {
      const record = await deps.operations.get(w.operationId);
      const op = record && deps.catalog.byId(record.opId);
      if (!record || !op?.change) return;
      const account = deps.accountLabel?.(record.account);
      // Until the watch ends, the change is headed with the kind's word ("building"), never "done".
      const open = w.status === 'active' || w.status === 'finalizing';
      const base = renderStatus(op, record, now, { ...(account ? { account } : {}), ...(open ? { underway: kind.underway } : {}), lookedUp: lookedUp(op, record.args) });
      await deps.slack.update({ channel: w.channelId, ts: w.threadTs, text: base.text, blocks: [...base.blocks, buildProgressBlock(w, line, now)] });
      return;
    }
    const own = buildWatchMessage(w, kind.subject(w.resource, w.state), line, now, deps.accountLabel?.(w.account));
    await deps.slack.update({ channel: w.channelId, ts: w.threadTs, text: own.text, blocks: own.blocks });
  };
}
