/**
 * The reads a record stands for (issue 21): what a person must be allowed to read — in the
 * record's channel, on its account — to be shown a watch or a subscription, or to resume a
 * watch. A digest summarizes usage and invoices, so it needs both.
 */
import type { SubscriptionKind } from '../store/monitor-types.js';
import type { WatchKind } from '../store/watch-store.js';

export const WATCH_READ: Readonly<Record<WatchKind, string>> = { server: 'server.status', worker: 'worker.status' };

export const SUBSCRIPTION_READS: Readonly<Record<SubscriptionKind, readonly string[]>> = {
  server: ['server.status'],
  worker: ['worker.status'],
  usage: ['account.usage'],
  invoices: ['account.invoices'],
  digest: ['account.usage', 'account.invoices'],
};
