/**
 * The daily digest (issue 13): per subscribed channel, at its local time, once a day — across
 * restarts and replicas, because the day is claimed in the store before anything is posted.
 * Usage against limits, unpaid invoices, what changed state and which builds failed in the
 * last 24 hours (from the channel's alerts), and the watches still running.
 *
 * The claim marks the day's post owed until it is seen to land (migration 20), so a post that
 * fails is not lost: one that definitely did not land (Slack answered with an error, or the
 * post queue gave up on a rate limit) is posted again at a later pass; one whose outcome is
 * unclear (no answer, a 5xx, a replica that stopped mid-post) is first looked for in the
 * channel by the metadata on the bot's own posts, as an alert's is — never posted blind. At
 * most DIGEST_TRIES tries, and only the same local day; giving up is logged.
 */
import { postNotSent, type PostQueue } from '../chat/post-queue.js';
import { findInChannel, readsHistory, recordTag, SlackApiError, type SlackApi } from '../chat/slack-api.js';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { RequestBudget } from '../cloud/request-budget.js';
import type { AccountUsage } from '../cloud-api/schemas.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { DigestOwed, MonitorStores, SubscriptionRecord } from '../store/monitor-types.js';
import type { WatchRecord } from '../store/watch-store.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { buildDigest, type DigestInput } from '../views/digest-views.js';
import type { Reply } from '../views/types.js';
import { isCloudApiError } from '../cloud/errors.js';
import { localParts, minutesOf } from './local-time.js';
import { DIGEST_INVOICES_READ, READ_OF, type MayRead } from './reads.js';

export const DEFAULT_DIGEST_AT = '09:00';
export const DEFAULT_DIGEST_TZ = 'UTC';
const DAY_MS = 24 * 60 * 60_000;
/** Alerts of the day a digest reads to list (the newest); beyond them it only counts (`countSince`). */
export const DIGEST_ALERTS_READ = 50;
/** Pages of GET /account/invoices a digest reads at most (most recent first; the page size is not shown). */
export const DIGEST_INVOICE_PAGES = 5;
/** The metadata event type of a digest's post; its payload names the subscription and local day (`digest_run`). */
export const DIGEST_EVENT = 'cloudbot_digest';
/**
 * How long a try of a digest's post may run before another takes it as stopped (and looks for
 * its post): far above one post, so only a replica that stopped mid-post lets it pass.
 */
export const DIGEST_TRY_LEASE_MS = 10 * 60_000;
/** Tries of a day's digest post, the first included (each posts, or looks for the post first). */
export const DIGEST_TRIES = 6;
/** The wait after the first try; each later one waits twice the one before (2, 4, 8, 16, 32 minutes). */
export const DIGEST_RETRY_MS = 2 * 60_000;
/** How long after try `tries` (1 for the first) the next may start. */
export const digestRetryIn = (tries: number) => DIGEST_RETRY_MS * 2 ** (tries - 1);
/** The metadata of the post of `day`'s digest of a subscription: what a later try looks for. */
export const digestTag = (subscriptionId: string, day: string) => recordTag(DIGEST_EVENT, 'digest_run', `${subscriptionId}:${day}`);

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
  /**
   * The channel's history, where a post whose outcome is unclear is looked for before it is
   * posted again. Absent: it cannot be looked for, and is given up rather than posted blind.
   */
  slack?: Pick<SlackApi, 'channelHistory'>;
}

const tzOf = (sub: SubscriptionRecord) => (typeof sub.params.tz === 'string' ? sub.params.tz : DEFAULT_DIGEST_TZ);

/** The local day a digest subscription is due on now, or undefined if not (yet) today. */
export function digestDue(sub: SubscriptionRecord, now: number): string | undefined {
  const at = minutesOf(typeof sub.params.at === 'string' ? sub.params.at : DEFAULT_DIGEST_AT) ?? 9 * 60;
  const local = localParts(now, tzOf(sub));
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

  /** The digest of `day` as it reads now (its reads say what they could not read; they do not throw). */
  async function compose(sub: SubscriptionRecord, day: string, all: SubscriptionRecord[], now: number, reach: { invoices: boolean }): Promise<Reply> {
    const cloud = deps.cloudFor(sub.account);
    const usage = await read<AccountUsage>(() => cloud.account.usage());
    // Invoices only where `/cloud account invoices` may run, checked at this post (after any reload).
    let invoices: DigestInput['invoices'] = 'not-allowed';
    let invoicePages: DigestInput['invoicePages'];
    if (reach.invoices) {
      // Most recent first, and an old invoice may still be unpaid: the digest runs once a day, so
      // it reads every page up to DIGEST_INVOICE_PAGES; the view says which it read when it stopped short.
      const first = await read(() => cloud.account.invoices({ page: 1 }));
      if ('error' in first) invoices = first;
      else {
        const all = [...first.data];
        let readTo = first.meta.current_page;
        const last = first.meta.last_page;
        for (let n = readTo + 1; n <= Math.min(last, DIGEST_INVOICE_PAGES); n++) {
          const page = await read(() => cloud.account.invoices({ page: n }));
          if ('error' in page || !page.data.length) break;
          all.push(...page.data);
          readTo = n;
        }
        invoices = all.filter((i) => (i.amount_due ?? 0) > 0 || /unpaid|overdue|due|open/i.test(i.status ?? ''));
        invoicePages = { read: readTo, last };
      }
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
      tz: tzOf(sub),
      now,
      ...(account ? { account } : {}),
      usage,
      invoices,
      ...(invoicePages ? { invoicePages } : {}),
      alerts,
      ...(totals ? { totals } : {}),
      watches,
    };
    return buildDigest(input);
  }

  const info = (sub: SubscriptionRecord, day: string, tries: number) => ({ subscription: sub.id, channel: sub.channelId, day, tries });

  /** Records what try `tries` came to, in the store and on this pass's copy of the subscription. */
  async function settle(sub: SubscriptionRecord, day: string, tries: number, next: Pick<DigestOwed, 'outcome' | 'nextAt'> | null): Promise<void> {
    sub.runOwed = next && sub.runOwed ? { ...sub.runOwed, ...next } : null;
    // Not recorded: the store still says the try runs, and once its lease ends the post is looked for.
    await deps.stores.subscriptions.settleRun(sub.id, day, tries, next).catch((error: unknown) => deps.logger.warn('could not record how a digest post went', { ...info(sub, day, tries), error }));
  }

  async function giveUp(sub: SubscriptionRecord, day: string, tries: number, why: string, error?: unknown): Promise<void> {
    deps.logger.warn(`gave up posting a digest: ${why}`, { ...info(sub, day, tries), ...(error !== undefined ? { error } : {}) });
    await settle(sub, day, tries, null);
  }

  /** After try `tries` did not see the post land: owed again later, or given up after the last try. */
  async function notLanded(sub: SubscriptionRecord, day: string, tries: number, outcome: DigestOwed['outcome'], error: unknown): Promise<void> {
    if (tries >= DIGEST_TRIES) {
      const why = outcome === 'failed' ? `Slack did not take it in ${tries} tries` : `it may be in the channel, but Slack did not say so in ${tries} tries`;
      return giveUp(sub, day, tries, why, error);
    }
    const nextAt = deps.clock.now() + digestRetryIn(tries);
    deps.logger.warn(outcome === 'failed' ? 'could not post a digest; posted again at a later pass' : 'a digest post got no clear answer; looked for in the channel at a later pass', {
      ...info(sub, day, tries),
      nextAt,
      error,
    });
    await settle(sub, day, tries, { outcome, nextAt });
  }

  /** Try `tries` of the post of `day`'s digest (claimed by the caller): posted, or owed again. */
  async function post(sub: SubscriptionRecord, day: string, tries: number, all: SubscriptionRecord[], now: number, reach: { invoices: boolean }): Promise<void> {
    let reply: Reply;
    try {
      reply = await compose(sub, day, all, now, reach);
    } catch (error) {
      deps.logger.error('could not build a digest inside the bot', { ...info(sub, day, tries), error });
      return notLanded(sub, day, tries, 'failed', error); // nothing was sent
    }
    try {
      await deps.queue.post({ channel: sub.channelId, text: reply.text, blocks: reply.blocks, metadata: digestTag(sub.id, day) });
    } catch (error) {
      return notLanded(sub, day, tries, postNotSent(error) ? 'failed' : 'unclear', error);
    }
    await settle(sub, day, tries, null);
  }

  /**
   * The post of `day` whose outcome a try left unclear, looked for in the channel since the day's
   * first try: its ts, null if not there, 'unknown' if Slack could not say; 'refused' if Slack
   * will not show the channel (that will not change by asking again).
   */
  async function lookFor(sub: SubscriptionRecord, day: string, since: number, tries: number): Promise<string | null | 'unknown' | 'refused'> {
    if (!readsHistory(deps.slack)) return 'refused';
    try {
      return await findInChannel(deps.slack, sub.channelId, since, digestTag(sub.id, day));
    } catch (error) {
      deps.logger.warn('could not look for an earlier post of a digest; not posted blind', { ...info(sub, day, tries), error });
      return error instanceof SlackApiError && error.failure === 'refused' ? 'refused' : 'unknown';
    }
  }

  /** A day's post still owed: given up once its day is over; else, when due, tried again (looked for first if unclear). */
  async function retry(sub: SubscriptionRecord, owed: DigestOwed, all: SubscriptionRecord[], now: number): Promise<void> {
    const day = sub.lastRun!;
    if (localParts(now, tzOf(sub)).day !== day) return giveUp(sub, day, owed.tries, 'its local day ended before it was seen to land');
    if (owed.nextAt > now || (sub.mutedUntil !== null && sub.mutedUntil > now)) return;
    const reach = digestReach(sub, may);
    if (!reach.usage) return;
    // One try per caller, across replicas (the store compares the tries seen).
    if (!(await deps.stores.subscriptions.retryRun(sub.id, day, owed, now, now + DIGEST_TRY_LEASE_MS))) return;
    const tries = owed.tries + 1;
    sub.runOwed = { ...owed, outcome: 'unclear', tries, nextAt: now + DIGEST_TRY_LEASE_MS };
    if (owed.outcome === 'unclear') {
      const found = await lookFor(sub, day, owed.since, tries);
      if (found === 'refused') return giveUp(sub, day, tries, 'the bot cannot read the channel to look for an earlier post, and does not post blind');
      if (found === 'unknown') return notLanded(sub, day, tries, 'unclear', undefined);
      if (found !== null) {
        deps.logger.info('a digest was already in its channel; recorded, not posted again', { ...info(sub, day, tries), ts: found });
        return settle(sub, day, tries, null);
      }
    }
    await post(sub, day, tries, all, now, reach);
  }

  return {
    /** Sends every digest due now (the day is claimed first, so each goes out once), and tries again those owed. */
    async run(subs: SubscriptionRecord[], now: number): Promise<void> {
      for (const sub of subs.filter((s) => s.kind === 'digest')) {
        if (sub.runOwed && sub.lastRun) {
          const owed = sub.runOwed;
          await retry(sub, owed, subs, now).catch((error: unknown) => deps.logger.warn('could not try a digest post again; tried at a later pass', { ...info(sub, sub.lastRun!, owed.tries), error }));
        }
        const day = digestDue(sub, now);
        if (!day) continue;
        sub.lastRun = day; // this pass's copy: not claimed again each second
        if (sub.mutedUntil !== null && sub.mutedUntil > now) continue;
        // A channel that may no longer read usage gets no digest (the day is not claimed).
        const reach = digestReach(sub, may);
        if (!reach.usage) continue;
        if (!(await deps.stores.subscriptions.claimRun(sub.id, day, { now, until: now + DIGEST_TRY_LEASE_MS }))) continue;
        sub.runOwed = { outcome: 'unclear', tries: 1, nextAt: now + DIGEST_TRY_LEASE_MS, since: now };
        await post(sub, day, 1, subs, now, reach);
      }
    },
  };
}
