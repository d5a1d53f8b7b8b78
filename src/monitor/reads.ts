/**
 * What a subscription posts is what a read would show (issue 21): each kind's equivalent read
 * in the catalog, whose tier the channel and the account must allow — when it is made and at
 * every post, under the policy in force then. The digest's invoice section reads invoices.
 */
import type { SubscriptionKind, SubscriptionRecord } from '../store/monitor-types.js';

export const READ_OF: Record<SubscriptionKind, string> = {
  server: 'server.status',
  worker: 'worker.status',
  usage: 'account.usage',
  invoices: 'account.invoices',
  digest: 'account.usage',
};

/** The digest's unpaid invoices: shown only where `/cloud account invoices` may run. */
export const DIGEST_INVOICES_READ = 'account.invoices';

/** May the subscription's channel, on its account, run the read `opId` now? (Whoever asks: its ceilings.) */
export type MayRead = (sub: Pick<SubscriptionRecord, 'channelId' | 'account'>, opId: string) => boolean;
