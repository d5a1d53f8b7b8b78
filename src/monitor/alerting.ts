/**
 * Alerts as messages (issue 13): one message per incident and subscription, posted through
 * the channel's queue when a condition appears and edited in place when it resolves (with a
 * short thread reply). A muted subscription posts nothing new; its open alerts are still
 * edited when they resolve, so no message is left saying something is wrong when it is not.
 */
import type { PostQueue } from '../chat/post-queue.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { AlertRecord, AlertStore, SubscriptionRecord } from '../store/monitor-types.js';
import { buildAlertFollowUp, buildAlertMessage, type AlertAction, type AlertInput } from '../views/alert-views.js';
import type { Conditions } from './conditions.js';
import type { PolledKind } from './observe.js';

export interface AlertingDeps {
  alerts: AlertStore;
  queue: PostQueue;
  clock: Clock;
  logger: Logger;
  accountLabel?: (account: string | null) => string | undefined;
}

/** The buttons of an alert: reads of the catalog, checked and audited like typed commands. */
export function alertActions(kind: PolledKind, resource: string, account: string | null): AlertAction[] {
  const on = account ? { account } : {};
  switch (kind) {
    case 'server':
      return [
        { label: 'Server status', op: 'server.status', args: { server: resource }, ...on },
        { label: 'Watch', op: 'server.status', args: { server: resource }, watch: true, ...on },
        { label: 'Credentials', op: 'server.credentials', args: { server: resource }, ...on },
      ];
    case 'worker':
      return [
        { label: 'Worker status', op: 'worker.status', args: { worker: resource }, ...on },
        { label: 'Watch', op: 'worker.status', args: { worker: resource }, watch: true, ...on },
      ];
    case 'usage':
      return [{ label: 'Account usage', op: 'account.usage', args: {}, ...on }];
    case 'invoices':
      return [{ label: 'Invoices', op: 'account.invoices', args: {}, ...on }];
  }
}

export function createAlerting(deps: AlertingDeps) {
  const input = (sub: SubscriptionRecord, a: AlertRecord, now: number): AlertInput => {
    const account = deps.accountLabel?.(sub.account);
    return {
      kind: sub.kind,
      resource: sub.resource,
      condition: a.condition,
      detail: a.detail,
      status: a.status,
      startedAt: a.startedAt,
      resolvedAt: a.resolvedAt,
      now,
      ...(account ? { account } : {}),
      subscriptionId: sub.id,
      actions: alertActions(sub.kind as PolledKind, sub.resource, sub.account),
    };
  };

  async function fire(sub: SubscriptionRecord, condition: string, detail: Record<string, unknown>): Promise<void> {
    const now = deps.clock.now();
    const opened = await deps.alerts.open({ subscriptionId: sub.id, channelId: sub.channelId, condition, startedAt: now, detail });
    if (!opened.created) return; // already firing: another poll (or replica) posted it
    const reply = buildAlertMessage(input(sub, opened.record, now));
    try {
      const posted = await deps.queue.post({ channel: sub.channelId, text: reply.text, blocks: reply.blocks });
      await deps.alerts.setMessage(opened.record.id, posted.ts);
    } catch (error) {
      deps.logger.warn('could not post an alert', { subscription: sub.id, condition, error });
    }
  }

  async function resolve(sub: SubscriptionRecord, alert: AlertRecord, quiet: boolean): Promise<void> {
    const now = deps.clock.now();
    const resolved = await deps.alerts.resolve(alert.id, now);
    if (!resolved || !resolved.messageTs) return;
    const view = input(sub, resolved, now);
    try {
      const edited = buildAlertMessage(view);
      await deps.queue.update({ channel: sub.channelId, ts: resolved.messageTs, text: edited.text, blocks: edited.blocks });
      if (!quiet) {
        const note = buildAlertFollowUp(view);
        await deps.queue.post({ channel: sub.channelId, thread_ts: resolved.messageTs, text: note.text, blocks: note.blocks });
      }
    } catch (error) {
      deps.logger.warn('could not show an alert resolved', { subscription: sub.id, alert: alert.id, error });
    }
  }

  /**
   * A committed change of a resource, for one subscription: conditions that appeared fire,
   * firing alerts whose condition is gone resolve. Muted: nothing new is posted.
   */
  async function apply(sub: SubscriptionRecord, before: Conditions, after: Conditions): Promise<void> {
    const muted = sub.mutedUntil !== null && sub.mutedUntil > deps.clock.now();
    for (const a of await deps.alerts.listFiring(sub.id)) if (!after.has(a.condition)) await resolve(sub, a, muted);
    if (muted) return;
    for (const [condition, detail] of after) if (!before.has(condition)) await fire(sub, condition, detail);
  }

  return { apply };
}
