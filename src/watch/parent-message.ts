/**
 * The message a watch's thread hangs from, edited in place: a change's status message with a
 * progress line under it, or the watch's own message when it was started by hand.
 */
import type { Clock } from '../clock.js';
import { renderStatus } from '../confirm/status-message.js';
import type { Catalog } from '../operations/catalog.js';
import type { OperationStore } from '../store/types.js';
import type { WatchRecord } from '../store/watch-store.js';
import type { SlackApi } from '../chat/slack-api.js';
import { md } from '../views/mrkdwn.js';
import { buildProgressBlock, buildWatchMessage } from '../views/watch-views.js';

export function createParentRefresher(deps: { operations: OperationStore; catalog: Catalog; slack: SlackApi; clock: Clock }) {
  return async (w: WatchRecord): Promise<void> => {
    if (!w.threadTs) return;
    const now = deps.clock.now();
    const kind = deps.catalog.watchKinds[w.kind];
    const line = w.state ? kind.describe(w.state) : md`waiting for the first look`;
    if (w.operationId) {
      const record = await deps.operations.get(w.operationId);
      const op = record && deps.catalog.byId(record.opId);
      if (!record || !op?.change) return;
      const base = renderStatus(op, record, now);
      await deps.slack.update({ channel: w.channelId, ts: w.threadTs, text: base.text, blocks: [...base.blocks, buildProgressBlock(w, line, now)] });
      return;
    }
    const own = buildWatchMessage(w, kind.subject(w.resource, w.state), line, now);
    await deps.slack.update({ channel: w.channelId, ts: w.threadTs, text: own.text, blocks: own.blocks });
  };
}
