/**
 * The daily digest (issue 13): per subscribed channel, at its local time, once a day — across
 * restarts and replicas, because the day is claimed in the store before anything is posted.
 * Usage against limits, unpaid invoices, what changed state and which builds failed in the
 * last 24 hours (from the channel's alerts), and the watches still running.
 */
import type { PostQueue } from '../chat/post-queue.js';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { RequestBudget } from '../cloud/request-budget.js';
import type { AccountUsage } from '../cloud-api/schemas.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { MonitorStores, SubscriptionRecord } from '../store/monitor-types.js';
import type { WatchRecord } from '../store/watch-store.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { buildDigest, type DigestInput } from '../views/digest-views.js';
import { isCloudApiError } from '../cloud/errors.js';
import { localParts, minutesOf } from './local-time.js';
import { DIGEST_INVOICES_READ, READ_OF, type MayRead } from './reads.js';

export const DEFAULT_DIGEST_AT = '09:00';
export const DEFAULT_DIGEST_TZ = 'UTC';
const DAY_MS = 24 * 60 * 60_000;
/** Alerts of the day a digest reads to list (the newest); beyond them it only counts (`countSince`). */
export const DIGEST_ALERTS_READ = 50;

export interface DigestSources {
  stores: MonitorStores;
  /** The monitor's client of an account (null: the default account). */
  cloudFor: (account: string | null) => CloudClient;
  budget?: RequestBudget;
  queue: PostQueue;
  clock: Clock;
  logger: Logger;
  accountLabel?: (account: string | null) => string | undefined;
  /** Watches still open (the digest lists a channel's). */
  watches?: () => Promise<WatchRecord[]>;
  /** What the channel may read now, on the account (reads.ts); absent: everything. */
  mayRead?: MayRead;
}

/** The local day a digest subscription is due on now, or undefined if not (yet) today. */
export function digestDue(sub: SubscriptionRecord, now: number): string | undefined {
  const tz = typeof sub.params.tz === 'string' ? sub.params.tz : DEFAULT_DIGEST_TZ;
  const at = minutesOf(typeof sub.params.at === 'string' ? sub.params.at : DEFAULT_DIGEST_AT) ?? 9 * 60;
  const local = localParts(now, tz);
  return local.minutes >= at && sub.lastRun !== local.day ? local.day : undefined;
}

/**
 * What a digest may hold in its channel, on its account, now (reads.ts): nothing without the
 * usage read; the unpaid invoices only where `/cloud account invoices` may run.
 */
export function digestReach(sub: Pick<SubscriptionRecord, 'channelId' | 'account'>, may: MayRead): { usage: boolean; invoices: boolean } {
  const usage = may(sub, READ_OF.digest);
  return { usage, invoices: usage && may(sub, DIGEST_INVOICES_READ) };
}

export function createDigests(deps: DigestSources) {
  const may: MayRead = (sub, opId) => !deps.mayRead || deps.mayRead(sub, opId);
  const error = (e: unknown) => ({ error: isCloudApiError(e) ? describeCloudError(e).summary : 'the bot could not read it' });

  async function read<T>(fn: () => Promise<T>): Promise<T | { error: string }> {
    try {
      await deps.budget?.take();
      return await fn();
    } catch (e) {
      if (!isCloudApiError(e)) deps.logger.error('digest read failed inside the bot', { error: e });
      return error(e);
    }
  }

  async function send(sub: SubscriptionRecord, day: string, all: SubscriptionRecord[], now: number, reach: { invoices: boolean }): Promise<void> {
    const cloud = deps.cloudFor(sub.account);
    const usage = await read<AccountUsage>(() => cloud.account.usage());
    // Invoices only where `/cloud account invoices` may run, checked at this post (after any reload).
    let invoices: DigestInput['invoices'] = 'not-allowed';
    if (reach.invoices) {
      const page = await read(() => cloud.account.invoices({ page: 1 }));
      invoices = 'error' in page ? page : page.data.filter((i) => (i.amount_due ?? 0) > 0 || /unpaid|overdue|due|open/i.test(i.status ?? ''));
    }
    const bySub = new Map(all.map((s) => [s.id, s]));
    // A list the store could not give is said so, never shown as "none" — nor the digest lost (its day is claimed).
    const unreadable = (error: unknown) => {
      deps.logger.warn('could not list alerts for a digest', { error });
      return 'unreadable' as const;
    };
    const since = await deps.stores.alerts.listSince(sub.channelId, now - DAY_MS, DIGEST_ALERTS_READ).catch(unreadable);
    // A full list may not be the whole day: what it left out is counted (the view says "+N more").
    const counts = since !== 'unreadable' && since.length >= DIGEST_ALERTS_READ ? await deps.stores.alerts.countSince(sub.channelId, now - DAY_MS).catch(unreadable) : undefined;
    const alerts =
      since === 'unreadable' || counts === 'unreadable'
        ? ('unreadable' as const)
        : since.flatMap((a) => {
            const s = bySub.get(a.subscriptionId);
            return s ? [{ ...a, kind: s.kind, resource: s.resource }] : [];
          });
    let totals: DigestInput['totals'];
    if (counts && counts !== 'unreadable') {
      totals = { servers: 0, builds: 0 };
      for (const c of counts) {
        const kind = bySub.get(c.subscriptionId)?.kind;
        if (kind === 'server') totals.servers += c.count;
        else if (kind === 'worker' && c.condition === 'failed') totals.builds += c.count;
      }
    }
    const listed = await (deps.watches?.() ?? Promise.resolve([])).catch((error: unknown) => {
      deps.logger.warn('could not list watches for a digest', { error });
      return 'unreadable' as const;
    });
    const watches = listed === 'unreadable' ? listed : listed.filter((w) => w.channelId === sub.channelId && (w.status === 'active' || w.status === 'finalizing'));
    const account = deps.accountLabel?.(sub.account);
    const input: DigestInput = {
      day,
      tz: typeof sub.params.tz === 'string' ? sub.params.tz : DEFAULT_DIGEST_TZ,
      now,
      ...(account ? { account } : {}),
      usage,
      invoices,
      alerts,
      ...(totals ? { totals } : {}),
      watches,
    };
    const reply = buildDigest(input);
    await deps.queue.post({ channel: sub.channelId, text: reply.text, blocks: reply.blocks });
  }

  return {
    /** Sends every digest due now; the day is claimed first, so each goes out once. */
    async run(subs: SubscriptionRecord[], now: number): Promise<void> {
      for (const sub of subs.filter((s) => s.kind === 'digest')) {
        const day = digestDue(sub, now);
        if (!day) continue;
        sub.lastRun = day; // this pass's copy: not claimed again each second
        if (sub.mutedUntil !== null && sub.mutedUntil > now) continue;
        // A channel that may no longer read usage gets no digest (the day is not claimed).
        const reach = digestReach(sub, may);
        if (!reach.usage) continue;
        if (!(await deps.stores.subscriptions.claimRun(sub.id, day))) continue;
        await send(sub, day, subs, now, reach).catch((error: unknown) => deps.logger.warn('could not send a digest', { subscription: sub.id, error }));
      }
    },
  };
}
