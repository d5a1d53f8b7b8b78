/**
 * What a subscription posts is what a read would show (issue 21): each kind's equivalent read
 * in the catalog, whose tier the channel and the account must allow — when it is made and at
 * every post, under the policy in force then. The digest's invoice section reads invoices.
 */
import type { Access } from '../access/access.js';
import type { Catalog } from '../operations/catalog.js';
import type { ReadRefusal } from '../operations/types.js';
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

/** May this person run the read `opId` in this channel, on this account? Undefined: yes. */
export type MayPersonRead = (who: { userId: string; channelId: string; account: string }, opId: string) => Promise<ReadRefusal | undefined>;

/**
 * The two checks, over the access policy in force at each call: `mayRead` when a subscription
 * is made (the person, in the channel, on the account: control.ts) and `channelMay` at every
 * post (the channel and the account alone: the monitor and the digest).
 */
export function subscriptionReadChecks(deps: {
  access: Pick<Access, 'check' | 'channelAllows'>;
  catalog: Pick<Catalog, 'byId'>;
  /** The account a record names (null: the default account). */
  accountOf: (account: string | null) => string;
}): { mayRead: MayPersonRead; channelMay: MayRead } {
  const { access, catalog } = deps;
  return {
    channelMay(sub, opId) {
      const op = catalog.byId(opId);
      return !!op && access.channelAllows(sub.channelId, op, deps.accountOf(sub.account)).ok;
    },
    async mayRead(who, opId) {
      const op = catalog.byId(opId);
      if (!op) throw new Error(`no operation ${opId} in the catalog`);
      const d = await access.check(who.userId, who.channelId, op, who.account);
      return d.ok ? undefined : { refusal: d, command: op.command, tier: op.tier };
    },
  };
}
