/**
 * The end of a watch, posted once across crashes and replicas: the holder of a `finalizing`
 * watch posts its final with message metadata naming the watch; a holder that finds the watch
 * already finalizing (its earlier holder crashed, stalled or heard nothing back from Slack)
 * first looks for that post in the thread. A post that got no answer is never re-sent blindly.
 */
import { findTagged, recordTag, SlackApiError } from '../chat/slack-api.js';
import type { Reply } from '../views/types.js';
import type { WatchKinds } from '../operations/watch-kinds.js';
import type { WatchRecord, WatchState, WatchStore } from '../store/watch-store.js';
import { buildRootPasswordReply } from '../views/secret-views.js';
import { buildFinalReply } from '../views/watch-views.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { SlackApi } from '../chat/slack-api.js';

/** The metadata event type of a watch's final post; its payload names the watch (`watch_id`). */
export const FINAL_EVENT = 'cloudbot_watch_final';

/** Which final posts also go to the channel (WATCH_BROADCAST). */
export type BroadcastPolicy = 'final' | 'failures' | 'none';

/** What the final post uses of the watcher's deps. */
export interface FinalPostDeps {
  store: WatchStore;
  /** The account's name where messages should show it (several accounts declared), else undefined. */
  accountLabel?: (account: string | null) => string | undefined;
  clock: Clock;
  logger: Logger;
  slack: SlackApi;
  /**
   * Whether the watch's requester may see a credential here now (access control: the
   * `server credentials` read, in the watch's channel, on its account). Absent: never.
   */
  maySeeSecret?: (w: WatchRecord) => Promise<boolean>;
}

export interface FinalPostOptions {
  deps: FinalPostDeps;
  owner: string;
  /** Base poll interval: an unknown outcome is looked at again after it. */
  base: number;
  broadcast: BroadcastPolicy;
  kinds: WatchKinds;
  editParent: (w: WatchRecord) => Promise<void>;
}

export type FinishWatch = (w: WatchRecord, outcome: 'succeeded' | 'failed', state: WatchState, secret: string | undefined, recovered: boolean) => Promise<void>;

export function createFinisher({ deps, owner, base, broadcast, kinds, editParent }: FinalPostOptions): FinishWatch {
  /** Slack said no (an error code in its answer); a timeout, a dropped connection or a 5xx is no answer. */
  const refused = (e: unknown) => e instanceof SlackApiError && e.failure === 'refused';
  /**
   * The final post: its ts; null if Slack refused it (a definite no: not posted, and posting
   * again would be refused too); 'unknown' if the call failed without an answer (a timeout, a
   * dropped connection), so it may or may not be in the thread.
   */
  const postFinal = async (w: WatchRecord, r: Reply, broadcastIt: boolean): Promise<string | null | 'unknown'> => {
    if (!w.threadTs) return null;
    try {
      const posted = await deps.slack.postMessage({
        channel: w.channelId,
        thread_ts: w.threadTs,
        reply_broadcast: broadcastIt,
        text: r.text,
        blocks: r.blocks,
        metadata: recordTag(FINAL_EVENT, 'watch_id', w.id),
      });
      return posted.ts;
    } catch (e) {
      deps.logger.warn('could not post the final state of a watch', { watch: w.id, error: e });
      return refused(e) ? null : 'unknown';
    }
  };
  /** The ts of this watch's final post if the thread has it; null if not; 'unknown' if Slack could not say. */
  const findFinal = async (w: WatchRecord): Promise<string | null | 'unknown'> => {
    if (!w.threadTs || !deps.slack.threadReplies) return null;
    try {
      const thread = await deps.slack.threadReplies({ channel: w.channelId, ts: w.threadTs });
      return findTagged(thread, recordTag(FINAL_EVENT, 'watch_id', w.id)) ?? null;
    } catch (e) {
      // A refusal (missing_scope, thread_not_found) will not change by asking again: post.
      deps.logger.warn('could not look for an earlier final post of a watch', { watch: w.id, error: e });
      return refused(e) ? null : 'unknown';
    }
  };

  /**
   * This replica lost the watch while posting its final (it stalled past the lease). If the new
   * holder has already recorded another post as the final, ours is a second copy: delete it.
   */
  async function dropDuplicate(w: WatchRecord, ts: string | null): Promise<void> {
    deps.logger.warn('another replica took over this watch while its final was being posted', { watch: w.id, replica: owner });
    if (!ts || !w.threadTs) return;
    const row = await deps.store.get(w.id).catch(() => undefined);
    if (row?.status !== 'done' || !row.finalTs || row.finalTs === ts) return;
    await deps.slack
      .deleteMessage({ channel: w.channelId, ts })
      .catch((error: unknown) => deps.logger.warn('could not delete a second final post of a watch', { watch: w.id, error }));
  }

  /**
   * Posts the final state of a watch this replica holds in `finalizing`, once: `recovered` when
   * the row was found already finalizing (its earlier holder crashed, stalled or failed to hear
   * back from Slack), so the thread is looked up first.
   */
  return async function finish(w: WatchRecord, outcome: 'succeeded' | 'failed', state: WatchState, secret: string | undefined, recovered: boolean): Promise<void> {
    const now = deps.clock.now();
    if (secret) deps.logger.addSecret(secret);
    let ts = recovered ? await findFinal(w) : null;
    if (ts === null) {
      const loud = broadcast === 'final' || (broadcast === 'failures' && outcome === 'failed');
      ts = await postFinal(w, buildFinalReply(w, kinds[w.kind].final(w, state, outcome), outcome, now, deps.accountLabel?.(w.account)), loud);
    } else if (ts !== 'unknown') {
      deps.logger.info('the final post of a watch was already in its thread; recorded, not posted again', { watch: w.id, ts });
    }
    if (ts === 'unknown') {
      // Not known whether it is in the thread: keep the claim and look again on a later pass.
      await deps.store.update(w.id, ['finalizing'], now, { nextPollAt: now + base }, owner);
      return;
    }
    const done = await deps.store.move(w.id, ['finalizing'], 'done', now, { finalTs: ts }, owner);
    if (!done) {
      await dropDuplicate(w, ts);
      return;
    }
    await editParent(done);
    // The root password: sent by the replica whose move to done won, so at most once. It cannot
    // be looked up afterwards (ephemeral), so a final recovered from the thread sends it from
    // this replica's own poll; only a crash between the move to done and this call loses it
    // (a new password must then be set at the provider) — a second copy is never sent.
    // A watch a change started sends none: the change's own private reply already carried it,
    // saying it would not be shown again (issue 14).
    // A watch anyone may start by hand (`server status --watch` is a read): the password goes
    // only to a requester who may read credentials there, checked now.
    const allowed = secret && outcome === 'succeeded' && !w.operationId && (await deps.maySeeSecret?.(w).catch(() => false));
    if (secret && outcome === 'succeeded' && !w.operationId && !allowed) {
      deps.logger.info('a watch saw a new root password its requester may not read; it was not sent', { watch: w.id });
    }
    if (allowed) {
      try {
        await deps.slack.postEphemeral({
          channel: w.channelId,
          user: w.requestedBy,
          ...buildRootPasswordReply(w.resource, secret),
        });
      } catch (e) {
        deps.logger.warn('could not send the new root password privately', { watch: w.id, error: e });
      }
    }
  };
}
