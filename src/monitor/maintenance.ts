/**
 * Maintenance windows (issue 25 item 3): planned work on a server, a worker or a whole account.
 * While one is in force the monitor opens no alert for what it covers (each one held back is
 * noted with the window), and when it ends — by its time on the injected clock, or early by a
 * command — one replica claims it and posts one summary in its channel: the changes the bot
 * made there meanwhile and the alerts that would have fired. Nothing in it says "resolved":
 * a condition that still holds after the window fires then as a new alert. As a watch's final
 * (watch/final-post.ts), the summary carries the window's id in message metadata, and a replica
 * taking over a claim that ended unrecorded looks for it in the channel before posting: a post
 * that got no answer is never re-sent blindly.
 */
import type { MaintenanceControl } from '../operations/types.js';
import type { MaintenanceStore, MaintenanceWindow } from '../store/maintenance-store.js';
import type { OperationStore } from '../store/types.js';
import { findTagged, recordTag, SlackApiError, type ChannelPosterDeps, type SlackApi } from '../chat/slack-api.js';
import { buildMaintenanceSummary, type MaintenanceChange } from '../views/maintenance-views.js';
import { storedRequest } from '../views/status-message.js';

export interface MaintenanceDeps extends ChannelPosterDeps {
  /** Posts summaries; looks in the channel's history for one a replica that stopped may have posted. */
  slack: Pick<SlackApi, 'postMessage' | 'channelHistory'>;
  store: MaintenanceStore;
  operations: Pick<OperationStore, 'listDuring'>;
  /** A record's account by name (null: the default one). */
  accountOf: (account: string | null) => string;
  accountLabel?: (account: string | null) => string | undefined;
}

/** The longest window: planned work, not a way to silence a resource for good (`unsubscribe` is). */
export const MAX_MAINTENANCE_MS = 7 * 86_400_000;
/**
 * How long a replica's claim on posting a summary lasts: far above one post (a Slack call and
 * its retries), so only a replica that stopped between claiming and recording its post lets it pass.
 */
export const SUMMARY_LEASE_MS = 10 * 60_000;
/** The metadata event type of a summary post; its payload names the window (`window_id`). */
export const SUMMARY_EVENT = 'cloudbot_maintenance_summary';
/**
 * How far before the window's end (on the bot's clock) a take-over starts reading the channel:
 * a Slack ts is Slack's clock, and a host's may be ahead of it.
 */
export const SUMMARY_SKEW_MS = 60 * 60_000;
/**
 * How long after a window's end a summary whose post Slack cannot account for is looked for
 * again, once a lease; after it, given up (logged): a day-late summary reads as news.
 */
export const SUMMARY_GIVE_UP_MS = 86_400_000;

export interface Maintenance extends MaintenanceControl {
  /**
   * The windows in force over this resource now, from the last `refresh`, soonest end first:
   * windows may overlap (two on a server, the account's and a server's), and each one's summary
   * tells what it held back.
   */
  covering(channelId: string, account: string | null, kind: string, resource: string, now: number): MaintenanceWindow[];
  /** Reads the windows in force again (each monitor pass). */
  refresh(now: number): Promise<void>;
  /** Notes an alert held back by `window`. */
  hold(window: MaintenanceWindow, alert: { kind: string; resource: string; condition: string }): Promise<void>;
  /** Posts the summary of every window over and not yet summarised (claimed: once across replicas). */
  finishDue(owner: string): Promise<number>;
}

export function createMaintenance(deps: MaintenanceDeps): Maintenance {
  let open: MaintenanceWindow[] = [];
  const same = (a: string | null, b: string | null) => deps.accountOf(a) === deps.accountOf(b);
  /**
   * A window holds back its own channel's alerts only: someone with a role in one channel must
   * not silence another channel's monitoring of the same server or account.
   */
  const covers = (w: MaintenanceWindow, channelId: string, account: string | null, kind: string, resource: string) =>
    w.channelId === channelId && same(w.account, account) && (w.kind === 'account' || (w.kind === kind && w.resource === resource));

  /** What the bot changed on the window's resources while it was in force (its own records). */
  async function changesDuring(w: MaintenanceWindow, until: number): Promise<MaintenanceChange[]> {
    // The window's channel's own records, asked of the store by channel and time: a busy
    // workspace's other channels must not push the window's changes out of a recent-N list.
    const during = await deps.operations.listDuring({ channelId: w.channelId, from: w.startsAt, until, limit: 1000 });
    return during
      .filter((r) => same(r.account, w.account))
      .filter((r) => w.kind === 'account' || String(r.args[w.kind] ?? '') === w.resource)
      .filter((r) => r.status !== 'pending' && r.status !== 'expired')
      .map((r) => {
        const request = storedRequest(r);
        return { opId: r.opId, status: r.status, by: r.confirmedBy ?? r.requestedBy, at: r.finishedAt ?? r.updatedAt, ...(request ? { request } : {}) };
      });
  }

  const refused = (e: unknown) => e instanceof SlackApiError && e.failure === 'refused';
  const giveUp = (w: MaintenanceWindow) =>
    deps.store.giveUpSummary(w.id).catch((e: unknown) => deps.logger.warn('could not record a summary given up', { window: w.id, error: e }));

  /**
   * The summary, posted with metadata naming the window: its ts; null if Slack refused it (given
   * up: posting again would be refused too); 'unknown' if no answer came (it may be there).
   */
  async function postSummary(w: MaintenanceWindow): Promise<string | null | 'unknown'> {
    const account = deps.accountLabel?.(w.account);
    const reply = buildMaintenanceSummary(w, await changesDuring(w, w.endedAt ?? w.endsAt), { now: deps.clock.now(), ...(account ? { account } : {}) });
    try {
      const { ts } = await deps.slack.postMessage({
        channel: w.channelId,
        text: reply.text,
        blocks: reply.blocks,
        metadata: recordTag(SUMMARY_EVENT, 'window_id', w.id),
      });
      return ts;
    } catch (error) {
      deps.logger.warn('could not post a maintenance summary', { window: w.id, error });
      if (!refused(error)) return 'unknown';
      await giveUp(w);
      return null;
    }
  }

  /**
   * The ts of this window's summary if its channel has it; null if not; 'unknown' if Slack could
   * not say; 'refused' if Slack will not let the bot read the channel.
   */
  async function findSummary(w: MaintenanceWindow): Promise<string | null | 'unknown' | 'refused'> {
    // A chat without history to read (a test's) cannot look: it posts, as final-post.ts does.
    if (!deps.slack.channelHistory) return null;
    const oldest = Math.max(0, (w.endedAt ?? w.endsAt) - SUMMARY_SKEW_MS);
    try {
      const messages = await deps.slack.channelHistory({ channel: w.channelId, oldest: (oldest / 1000).toFixed(6) });
      return findTagged(messages, recordTag(SUMMARY_EVENT, 'window_id', w.id)) ?? null;
    } catch (error) {
      // Unlike a thread's final (final-post.ts), a refusal (missing_scope, not_in_channel) is no
      // "not there": the earlier post may be, and a channel notice twice is what this prevents.
      // It will not change by asking again, so the summary is given up; anything else is asked again.
      deps.logger.warn('could not look for an earlier maintenance summary; not posted blindly', { window: w.id, error });
      return refused(error) ? 'refused' : 'unknown';
    }
  }

  /**
   * Slack could not say whether the summary is in the channel. Not posted: the claim is left to
   * end, and the replica that takes it over looks again (Slack may answer by then), until
   * SUMMARY_GIVE_UP_MS after the window's end.
   */
  async function notAccounted(w: MaintenanceWindow): Promise<void> {
    if (deps.clock.now() - (w.endedAt ?? w.endsAt) >= SUMMARY_GIVE_UP_MS) await giveUp(w);
  }

  return {
    async start(input) {
      const now = deps.clock.now();
      const window = await deps.store.create({ ...input, now });
      open = [...open, window];
      return window;
    },
    list: async (channelId) => (await deps.store.listOpen(deps.clock.now())).filter((w) => channelId === undefined || w.channelId === channelId),
    async end(id, channelId, userId) {
      const current = await deps.store.get(id);
      if (!current || current.channelId !== channelId) return { kind: 'unknown' };
      const ended = await deps.store.end(id, userId, deps.clock.now());
      if (!ended) return { kind: 'over', window: current };
      open = open.filter((w) => w.id !== id);
      return { kind: 'ended', window: ended };
    },
    covering: (channelId, account, kind, resource, now) =>
      open.filter((w) => w.endedAt === null && w.startsAt <= now && w.endsAt > now && covers(w, channelId, account, kind, resource)),
    async refresh(now) {
      open = await deps.store.listOpen(now);
    },
    hold: (window, alert) => deps.store.noteMuted(window.id, alert, deps.clock.now()),
    async finishDue(owner) {
      let posted = 0;
      for (const w of await deps.store.listUnsummarised(deps.clock.now())) {
        const now = deps.clock.now();
        const claim = await deps.store.claimSummary(w.id, owner, now, now + SUMMARY_LEASE_MS);
        if (!claim) continue;
        // A take-over: the earlier holder may have posted and stopped before recording the ts.
        const found = claim === 'taken-over' ? await findSummary(w) : null;
        if (found === 'refused') await giveUp(w);
        else if (found === 'unknown') await notAccounted(w);
        else if (found !== null) {
          deps.logger.info('a maintenance summary was already in its channel; recorded, not posted again', { window: w.id, ts: found });
          await deps.store.setSummaryTs(w.id, found);
        } else {
          const ts = await postSummary(w);
          if (ts === 'unknown') await notAccounted(w);
          else if (ts !== null) {
            await deps.store.setSummaryTs(w.id, ts);
            posted++;
          }
        }
      }
      return posted;
    },
  };
}
