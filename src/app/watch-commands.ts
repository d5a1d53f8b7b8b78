/**
 * `--watch` on a status read: post the watch's own message in the channel (its thread gets
 * the updates) and start following. "Keep watching" resumes a watch that hit its deadline:
 * checked against the watch (issue 21) — clicked in the watch's own channel, by someone who
 * may run the read it polls there, on its account.
 */
import type { CloudAccounts } from '../cloud/accounts.js';
import type { Logger } from '../log.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { WatchKinds } from '../operations/watch-kinds.js';
import type { Catalog } from '../operations/catalog.js';
import { WATCH_READ } from '../operations/record-reads.js';
import { placeOf } from '../access/record-access.js';
import { buildNote } from '../views/click-views.js';
import { isCloudApiError } from '../cloud/errors.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { buildCloudError } from '../views/error-views.js';
import { md } from '../views/mrkdwn.js';
import type { Watcher } from '../watch/watcher.js';
import { observeWatch } from '../watch/observe.js';
import { NOT_REACHABLE, SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { buildNotInChannel } from '../views/change-notices.js';
import {
  buildNotStopped,
  buildNothingToWatch,
  buildWatchingAgain,
  buildWatchStarted,
  buildWatchStarting,
} from '../views/watch-views.js';
import { guard, type GuardDeps } from './guard.js';

export interface WatchCommandDeps extends Partial<GuardDeps> {
  watcher: Watcher;
  slack: SlackApi;
  accounts: Pick<CloudAccounts, 'client'>;
  /** The account's name where messages should show it (several accounts declared). */
  accountLabel?: (account: string) => string | undefined;
  logger: Logger;
  /** The catalog's watch kinds: what `--watch` polls and how it reads. */
  catalog: { watchKinds: WatchKinds } & Pick<Catalog, 'byId'>;
}

export async function startWatchByHand(
  deps: WatchCommandDeps,
  op: AnyOperation,
  args: Record<string, unknown>,
  actor: { userId: string; channelId: string },
  account: string,
): Promise<Reply> {
  const target = op.watchable!(args as never);
  // Nothing to follow if it is already over: say so rather than announce an instant "done".
  const kind = deps.catalog.watchKinds[target.kind];
  let now: Awaited<ReturnType<typeof observeWatch>>;
  try {
    now = await observeWatch(deps.accounts.client(account), target.kind, target.resource);
  } catch (e) {
    // The read itself was answered; only the watch's first look failed: say that, in the cloud's words.
    if (!isCloudApiError(e)) throw e;
    return buildCloudError(`${op.command} --watch`, describeCloudError(e));
  }
  if (now.outcome) {
    return buildNothingToWatch(kind.idle);
  }
  let posted: { channel: string; ts: string };
  try {
    const starting = buildWatchStarting(kind.subject(target.resource, null, false), actor.userId, deps.accountLabel?.(account));
    posted = await deps.slack.postMessage({ channel: actor.channelId, text: starting.text, blocks: starting.blocks });
  } catch (e) {
    if (e instanceof SlackApiError && NOT_REACHABLE.has(e.code)) return buildNotInChannel(e.code);
    throw e;
  }
  const w = await deps.watcher.watch({ ...target, account, channelId: posted.channel, threadTs: posted.ts, requestedBy: actor.userId });
  return buildWatchStarted(w.id);
}

/**
 * What "Keep watching" comes to: a private note for the clicker, or a line in the watch's
 * thread saying who resumed it. The surface delivers it (slack/register-watch-actions.ts).
 */
export type KeepWatchingAnswer = { kind: 'tell'; reply: Reply } | { kind: 'thread'; channelId: string; threadTs: string; reply: Reply };

/** "Keep watching" clicked in channel `channel`: resume the watch if the clicker may. */
export async function keepWatching(deps: WatchCommandDeps, channel: string, userId: string, watchId: string): Promise<KeepWatchingAnswer> {
  const tell = (reply: Reply): KeepWatchingAnswer => ({ kind: 'tell', reply });
  const w = await deps.watcher.get(watchId);
  const read = w && deps.catalog.byId(WATCH_READ[w.kind]);
  // The button is drawn in the watch's own thread: from another channel, or naming no watch, it does nothing.
  if (!w || !read || w.channelId !== channel) return tell(buildNote(md`That button could not be read; nothing was done.`));
  // Watching is reading: the read it polls, in the watch's channel, on the watch's account.
  if (deps.access) {
    const keep = { id: 'watch.keep', command: '/cloud watch keep', tier: read.tier, scope: read.scope };
    const refused = await guard({ access: deps.access, ...(deps.auditor ? { auditor: deps.auditor } : {}) }, keep, userId, w.channelId, { id: w.id }, placeOf(deps.access, w).account);
    if (refused) return tell(refused);
  }
  const resumed = await deps.watcher.keepWatching(watchId);
  if (!resumed?.threadTs) return tell(buildNotStopped());
  return { kind: 'thread', channelId: resumed.channelId, threadTs: resumed.threadTs, reply: buildWatchingAgain(userId) };
}
