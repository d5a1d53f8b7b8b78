/**
 * Maintenance windows (issue 25 item 3): planned work on a server, a worker or a whole account.
 * While one is in force the monitor opens no alert for what it covers (each one held back is
 * noted with the window), and when it ends — by its time on the injected clock, or early by a
 * command — one replica claims it and posts one summary in its channel: the changes the bot
 * made there meanwhile and the alerts that would have fired. Nothing in it says "resolved":
 * a condition that still holds after the window fires then as a new alert.
 */
import type { MaintenanceControl } from '../operations/types.js';
import type { MaintenanceStore, MaintenanceWindow } from '../store/maintenance-store.js';
import type { OperationStore } from '../store/types.js';
import type { ChannelPosterDeps } from '../chat/slack-api.js';
import { buildMaintenanceSummary, type MaintenanceChange } from '../views/maintenance-views.js';
import { storedRequest } from '../views/status-message.js';

export interface MaintenanceDeps extends ChannelPosterDeps {
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
 * its retries), so only a replica that stopped between claiming and posting lets it pass.
 */
export const SUMMARY_LEASE_MS = 10 * 60_000;

export interface Maintenance extends MaintenanceControl {
  /** The window in force over this resource now, from the last `refresh`. */
  covering(channelId: string, account: string | null, kind: string, resource: string, now: number): MaintenanceWindow | undefined;
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
      open.find((w) => w.endedAt === null && w.startsAt <= now && w.endsAt > now && covers(w, channelId, account, kind, resource)),
    async refresh(now) {
      open = await deps.store.listOpen(now);
    },
    hold: (window, alert) => deps.store.noteMuted(window.id, alert, deps.clock.now()),
    async finishDue(owner) {
      let posted = 0;
      for (const w of await deps.store.listUnsummarised(deps.clock.now())) {
        const now = deps.clock.now();
        if (!(await deps.store.claimSummary(w.id, owner, now, now + SUMMARY_LEASE_MS))) continue;
        const endedAt = w.endedAt ?? w.endsAt;
        const account = deps.accountLabel?.(w.account);
        const reply = buildMaintenanceSummary(w, await changesDuring(w, endedAt), { now: deps.clock.now(), ...(account ? { account } : {}) });
        try {
          const { ts } = await deps.slack.postMessage({ channel: w.channelId, text: reply.text, blocks: reply.blocks });
          await deps.store.setSummaryTs(w.id, ts);
          posted++;
        } catch (error) {
          // Slack refused or did not answer: given up, so no replica posts it twice; the log keeps
          // what could not be told. (A replica that stopped before this line leaves the claim to end.)
          deps.logger.warn('could not post a maintenance summary', { window: w.id, error });
          await deps.store.giveUpSummary(w.id).catch((e: unknown) => deps.logger.warn('could not record a summary given up', { window: w.id, error: e }));
        }
      }
      return posted;
    },
  };
}
