/**
 * What the subscription commands do to the store (operations/types.ts SubscriptionControl):
 * always within the asking channel, so one channel can neither list nor change another's.
 */
import type { Clock } from '../clock.js';
import type { SubscriptionControl } from '../operations/types.js';
import type { MonitorStores, SubscriptionRecord } from '../store/monitor-types.js';
import { digestDue } from './digest.js';
import type { Monitor } from './monitor.js';

export function createSubscriptionControl(deps: { stores: MonitorStores; clock: Clock; monitor: Pick<Monitor, 'refresh' | 'retire'> }): SubscriptionControl {
  const { subscriptions, alerts } = deps.stores;
  const matches = (s: SubscriptionRecord, target: string) => s.id === target || s.resource === target || (s.resource === '' && s.kind === target);
  return {
    async add(input) {
      const now = deps.clock.now();
      const added = await subscriptions.add({ channelId: input.channelId, account: input.account, kind: input.kind, resource: input.resource, params: input.params, createdBy: input.userId, createdAt: now });
      // A digest asked for after today's time starts tomorrow, not at once.
      if (added.created && input.kind === 'digest') {
        const day = digestDue(added.record, now);
        if (day && (await subscriptions.claimRun(added.record.id, day))) added.record.lastRun = day;
      }
      deps.monitor.refresh();
      return added;
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
      deps.monitor.refresh();
      return removed;
    },
    async mute(target, channelId, until) {
      const out: SubscriptionRecord[] = [];
      for (const s of await subscriptions.listForChannel(channelId)) {
        if (!matches(s, target)) continue;
        const muted = await subscriptions.mute(s.id, until);
        if (muted) out.push(muted);
      }
      deps.monitor.refresh();
      return out;
    },
  };
}
