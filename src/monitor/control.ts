/**
 * What the subscription commands do to the store (operations/types.ts SubscriptionControl):
 * always within the asking channel, so one channel can neither list nor change another's.
 * A subscription shows what its equivalent read would (reads.ts): the asker must be allowed
 * that read here before anything is stored, and the answer says what holds now.
 */
import type { Clock } from '../clock.js';
import type { ReadRefusal, SubscriptionControl } from '../operations/types.js';
import type { MonitorStores, SubscriptionRecord } from '../store/monitor-types.js';
import { conditionsOf } from './conditions.js';
import { digestDue, digestReach } from './digest.js';
import type { Monitor } from './monitor.js';
import { observe } from './observe.js';
import { READ_OF, type MayRead } from './reads.js';

export interface SubscriptionControlDeps {
  stores: MonitorStores;
  clock: Clock;
  monitor: Pick<Monitor, 'rereadSubscriptions' | 'retire'>;
  /** May this person run the read `opId` in this channel, on this account? Absent: yes. */
  mayRead?: (who: { userId: string; channelId: string; account: string }, opId: string) => Promise<ReadRefusal | undefined>;
  /** What the channel may read, whoever asks (the digest's invoice section). Absent: everything. */
  channelMay?: MayRead;
}

export function createSubscriptionControl(deps: SubscriptionControlDeps): SubscriptionControl {
  const { subscriptions, alerts } = deps.stores;
  const matches = (s: SubscriptionRecord, target: string) => s.id === target || s.resource === target || (s.resource === '' && s.kind === target);
  return {
    async add(input) {
      const refused = await deps.mayRead?.({ userId: input.userId, channelId: input.channelId, account: input.account }, READ_OF[input.kind]);
      if (refused) return { refused };
      // The resource exists and this token sees it (a cloud error answers instead), and what holds now.
      let holds: { condition: string; detail: Record<string, unknown> }[] | undefined;
      if (input.kind !== 'digest' && input.cloud) {
        const state = await observe(input.cloud, input.kind, input.resource, input.signal);
        holds = [...conditionsOf(input.kind, state, input.params)].map(([condition, detail]) => ({ condition, detail }));
      }
      const now = deps.clock.now();
      const added = await subscriptions.add({ channelId: input.channelId, account: input.account, kind: input.kind, resource: input.resource, params: input.params, createdBy: input.userId, createdAt: now });
      // A digest asked for after today's time starts tomorrow, not at once.
      if (added.created && input.kind === 'digest') {
        const day = digestDue(added.record, now);
        if (day && (await subscriptions.claimRun(added.record.id, day))) added.record.lastRun = day;
      }
      deps.monitor.rereadSubscriptions();
      const hidden = input.kind === 'digest' && deps.channelMay ? !digestReach(added.record, deps.channelMay).invoices : false;
      return { ...added, ...(holds ? { holds } : {}), ...(hidden ? { invoicesHidden: true } : {}) };
    },
    async list(channelId) {
      const subs = await subscriptions.listForChannel(channelId);
      const firing: Record<string, number> = {};
      for (const a of await alerts.listFiring()) if (a.channelId === channelId) firing[a.subscriptionId] = (firing[a.subscriptionId] ?? 0) + 1;
      return { subs, firing };
    },
    async remove(id, channelId) {
      const sub = await subscriptions.get(id);
      if (!sub || sub.channelId !== channelId || sub.removedAt !== null) return undefined;
      const removed = await subscriptions.remove(id, deps.clock.now());
      if (removed) await deps.monitor.retire(removed);
      deps.monitor.rereadSubscriptions();
      return removed;
    },
    async mute(target, channelId, until) {
      const out: SubscriptionRecord[] = [];
      for (const s of await subscriptions.listForChannel(channelId)) {
        if (!matches(s, target)) continue;
        const muted = await subscriptions.mute(s.id, until);
        if (muted) out.push(muted);
      }
      deps.monitor.rereadSubscriptions();
      return out;
    },
  };
}
