import { WATCH_READ } from '../operations/record-reads.js';
import { placeOf } from '../access/record-access.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import { observeWatch } from '../watch/observe.js';
import { NOT_REACHABLE, SlackApiError } from '../chat/slack-api.js';
import { buildNotInChannel } from '../views/change-notices.js';
import { buildNotStopped, buildNothingToWatch, buildWatchingAgain, buildWatchStarted, buildWatchStarting, } from '../views/watch-views.js';
import { guard } from './guard.js';
export async function startWatchByHand(deps, op, args, actor, account) {
    const target = op.watchable(args);
    // Nothing to follow if it is already over: say so rather than announce an instant "done".
    const kind = deps.catalog.watchKinds[target.kind];
    const now = await observeWatch(deps.accounts.client(account), target.kind, target.resource);
    if (now.outcome) {
        return buildNothingToWatch(kind.idle);
    }
    let posted;
    try {
        const starting = buildWatchStarting(kind.subject(target.resource, null, false), actor.userId, deps.accountLabel?.(account));
        posted = await deps.slack.postMessage({ channel: actor.channelId, text: starting.text, blocks: starting.blocks });
    }
    catch (e) {
        if (e instanceof SlackApiError && NOT_REACHABLE.has(e.code))
            return buildNotInChannel(e.code);
        throw e;
    }
    const w = await deps.watcher.watch({ ...target, account, channelId: posted.channel, threadTs: posted.ts, requestedBy: actor.userId });
    return buildWatchStarted(w.id);
}
/** "Keep watching" clicked in channel `channel`: resume the watch if the clicker may, and say so in its thread. */
export async function keepWatching(deps, channel, userId, watchId) {
    const tell = (reply) => deps.slack.postEphemeral({ channel, user: userId, text: reply.text, blocks: reply.blocks }).catch(() => undefined);
    const w = await deps.watcher.get(watchId);
    const read = w && deps.catalog.byId(WATCH_READ[w.kind]);
    // The button is drawn in the watch's own thread: from another channel, or naming no watch, it does nothing.
    if (!w || !read || w.channelId !== channel)
        return void (await tell(buildNote(md `That button could not be read; nothing was done.`)));
    // Watching is reading: the read it polls, in the watch's channel, on the watch's account.
    if (deps.access) {
        const keep = { id: 'watch.keep', command: '/cloud watch keep', tier: read.tier, scope: read.scope };
        const refused = await guard({ access: deps.access, ...(deps.auditor ? { auditor: deps.auditor } : {}) }, keep, userId, w.channelId, { id: w.id }, placeOf(deps.access, w).account);
        if (refused)
            return void (await tell(refused));
    }
    const resumed = await deps.watcher.keepWatching(watchId);
    try {
        if (resumed?.threadTs) {
            const again = buildWatchingAgain(userId);
            await deps.slack.postMessage({ channel: resumed.channelId, thread_ts: resumed.threadTs, text: again.text, blocks: again.blocks });
        }
        else {
            await tell(buildNotStopped());
        }
    }
    catch (e) {
        deps.logger.warn('could not answer Keep watching', { error: e });
    }
}
//# sourceMappingURL=watch-commands.js.map