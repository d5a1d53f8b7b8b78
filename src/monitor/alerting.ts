/**
 * Alerts as messages (issue 13): one message per incident and subscription, posted through
 * the channel's queue when a condition holds and edited in place when it resolves (with a
 * short thread reply). A muted subscription posts nothing new; its open alerts are still
 * edited when they resolve, so no message is left saying something is wrong when it is not.
 * When the watching ends (unsubscribed, or the policy no longer lets the channel read it) the
 * message says so and what was last seen: it never claims the problem went away. A closing
 * edit Slack did not take stays owed in the store and is made at a later pass (`showOwed`).
 */
import type { PostQueue } from '../chat/post-queue.js';
import { findInChannel, NOT_REACHABLE, readsHistory, recordTag, SlackApiError, type SlackApi } from '../chat/slack-api.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { AlertRecord, AlertStore, SubscriptionRecord, SubscriptionStore } from '../store/monitor-types.js';
import { buildAlertFollowUp, buildAlertMessage, type AlertAction, type AlertInput, type UnwatchedWhy } from '../views/alert-views.js';
import type { Conditions } from './conditions.js';
import type { PolledKind } from './observe.js';
import type { Maintenance } from './maintenance.js';

export interface AlertingDeps {
  alerts: AlertStore;
  /**
   * Read again before an alert opens: one unsubscribed or muted meanwhile posts nothing. Also
   * where a closed alert whose edit is owed finds its subscription (removed ones too).
   */
  subscriptions?: Pick<SubscriptionStore, 'get'>;
  queue: PostQueue;
  clock: Clock;
  logger: Logger;
  accountLabel?: (account: string | null) => string | undefined;
  /** May the subscription's channel read what it posts, on its account, now? Absent: yes. */
  allowed?: (sub: SubscriptionRecord) => boolean;
  /** Maintenance windows: an alert for what one covers is noted with it instead of posted. */
  maintenance?: Pick<Maintenance, 'covering' | 'hold'>;
  /**
   * The channel's history: an alert whose post got no answer is looked for there (by the id in
   * its metadata) before it is posted again. Absent: posted again.
   */
  slack?: Pick<SlackApi, 'channelHistory'>;
}

/** The metadata event type of an alert's post; its payload names the alert (`alert_id`). */
export const ALERT_EVENT = 'cloudbot_alert';
/** How long after an alert closed its closing edit is still tried again (then given up, logged). */
export const EDIT_OWED_MS = 24 * 3_600_000;
/** Owed edits tried in one pass (the oldest first). */
const EDITS_PER_PASS = 50;
/** Slack's refusals of an edit that asking again will not change: given up at once. */
const EDIT_REFUSED_FOR_GOOD = new Set([...NOT_REACHABLE, 'message_not_found', 'cant_update_message', 'edit_window_closed']);

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
  /** Subscriptions with a firing alert whose post is not recorded yet. */
  const owed = new Set<string>();
  /** Closed alerts whose closing edit is being made now (a pass of owed edits leaves them be). */
  const editing = new Set<string>();
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

  /** Posts a firing alert's message (tagged with its id) and records it; false if it could not be posted. */
  async function post(sub: SubscriptionRecord, alert: AlertRecord): Promise<boolean> {
    const reply = buildAlertMessage(input(sub, alert, deps.clock.now()));
    try {
      const posted = await deps.queue.post({ channel: sub.channelId, text: reply.text, blocks: reply.blocks, metadata: recordTag(ALERT_EVENT, 'alert_id', alert.id) });
      await deps.alerts.setMessage(alert.id, posted.ts);
      return true;
    } catch (error) {
      deps.logger.warn('could not post an alert; tried again at a later poll', { subscription: sub.id, condition: alert.condition, error });
      return false;
    }
  }

  async function fire(sub: SubscriptionRecord, condition: string, detail: Record<string, unknown>): Promise<boolean> {
    const now = deps.clock.now();
    const opened = await deps.alerts.open({ subscriptionId: sub.id, channelId: sub.channelId, condition, startedAt: now, detail });
    if (!opened.created) return true; // already firing: another poll (or replica) posted it
    return post(sub, opened.record);
  }

  /**
   * A firing alert with no message recorded: its post failed, got no answer, or its ts was not
   * stored. Its message is looked for in the channel first (a post that got no answer may be
   * there); the ts if found, null if not there, 'unknown' if Slack could not say.
   */
  async function findPost(sub: SubscriptionRecord, alert: AlertRecord): Promise<string | null | 'unknown'> {
    if (!readsHistory(deps.slack)) return null;
    try {
      const ts = await findInChannel(deps.slack, sub.channelId, alert.startedAt, recordTag(ALERT_EVENT, 'alert_id', alert.id));
      if (ts) await deps.alerts.setMessage(alert.id, ts);
      return ts;
    } catch (error) {
      deps.logger.warn('could not look for an earlier post of an alert', { subscription: sub.id, alert: alert.id, error });
      // A refusal (missing_scope, not_in_channel) will not change by asking again: posted (as a watch's final is).
      return error instanceof SlackApiError && error.failure === 'refused' ? null : 'unknown';
    }
  }

  const closedWords = (a: AlertRecord) => (a.detail.unwatched !== undefined ? 'no longer watched' : 'resolved');

  /**
   * Edits a closed alert's message to say so. The store marked the edit owed when it closed the
   * alert: cleared once Slack takes it, or at once on a refusal asking again will not change;
   * otherwise left owed and tried again at a later pass (`showOwed`). True if Slack took it.
   */
  async function showClosed(sub: SubscriptionRecord, closed: AlertRecord, view: AlertInput): Promise<boolean> {
    const what = closedWords(closed);
    editing.add(closed.id);
    try {
      const edited = buildAlertMessage(view);
      await deps.queue.update({ channel: sub.channelId, ts: closed.messageTs!, text: edited.text, blocks: edited.blocks });
    } catch (error) {
      if (error instanceof SlackApiError && error.failure === 'refused' && EDIT_REFUSED_FOR_GOOD.has(error.code)) {
        deps.logger.warn(`gave up showing an alert ${what}: Slack refused the edit`, { subscription: sub.id, alert: closed.id, error });
        await deps.alerts.editShown(closed.id).catch((e: unknown) => deps.logger.warn('could not record an alert edit given up', { alert: closed.id, error: e }));
      } else {
        deps.logger.warn(`could not show an alert ${what}; tried again at a later pass`, { subscription: sub.id, alert: closed.id, error });
      }
      return false;
    } finally {
      editing.delete(closed.id);
    }
    // Not recorded: edited again (the same words) at a later pass.
    await deps.alerts.editShown(closed.id).catch((error: unknown) => deps.logger.warn('could not record an alert edit as shown', { alert: closed.id, error }));
    return true;
  }

  async function resolve(sub: SubscriptionRecord, alert: AlertRecord, quiet: boolean): Promise<void> {
    const now = deps.clock.now();
    const resolved = await deps.alerts.resolve(alert.id, now);
    if (!resolved || !resolved.messageTs) return;
    const view = input(sub, resolved, now);
    // The thread note only with the edit it follows: an edit made later posts nothing new.
    if (!(await showClosed(sub, resolved, view)) || quiet) return;
    try {
      const note = buildAlertFollowUp(view);
      await deps.queue.post({ channel: sub.channelId, thread_ts: resolved.messageTs, text: note.text, blocks: note.blocks });
    } catch (error) {
      deps.logger.warn('could not reply under an alert resolved', { subscription: sub.id, alert: alert.id, error });
    }
  }

  /**
   * Closed alerts whose closing edit Slack has not taken (a 5xx past the client's retries, a
   * 429, no answer; or a process stopped before it): edited now, never posted anew. Given up
   * (logged) a day after the alert closed, or when its subscription is gone from the store.
   */
  async function showOwed(): Promise<void> {
    for (const alert of await deps.alerts.listEditOwed(EDITS_PER_PASS)) {
      if (editing.has(alert.id) || !alert.messageTs) continue;
      const now = deps.clock.now();
      const sub = await deps.subscriptions?.get(alert.subscriptionId);
      const tooLate = alert.resolvedAt === null || now - alert.resolvedAt > EDIT_OWED_MS;
      if (tooLate || !sub) {
        const why = tooLate ? 'Slack has not taken its edit for a day' : 'its subscription is not in the store';
        deps.logger.warn(`gave up showing an alert ${closedWords(alert)}: ${why}`, { subscription: alert.subscriptionId, alert: alert.id, channel: alert.channelId });
        await deps.alerts.editShown(alert.id);
        continue;
      }
      await showClosed(sub, alert, input(sub, alert, now));
    }
  }

  /**
   * The subscription against what holds now (its resource's committed state): firing alerts
   * whose condition is gone resolve; a condition that holds without a firing alert fires, be it
   * new, one that came while the subscription was muted, or one that held when it was made.
   * Muted: nothing new is posted. A channel that may no longer read it: its watching ends.
   * `cleared` says whether the read shows a condition gone (conditions.ts shownCleared).
   */
  async function sync(sub: SubscriptionRecord, now: Conditions, cleared: (condition: string) => boolean = () => true): Promise<void> {
    if (deps.allowed && !deps.allowed(sub)) {
      owed.delete(sub.id);
      return unwatch(sub, 'policy');
    }
    const windows = deps.maintenance?.covering(sub.channelId, sub.account, sub.kind, sub.resource, deps.clock.now()) ?? [];
    const muted = (sub.mutedUntil !== null && sub.mutedUntil > deps.clock.now()) || windows.length > 0;
    const firing = await deps.alerts.listFiring(sub.id);
    // Firing alerts whose post was never recorded: found in the channel if there, else posted
    // below while their condition holds. One Slack cannot account for is left as it is until it can.
    const unknown = new Set<string>();
    const unposted: AlertRecord[] = [];
    for (const a of firing) {
      if (a.messageTs) continue;
      const found = await findPost(sub, a);
      if (found === 'unknown') unknown.add(a.id);
      else if (found) a.messageTs = found;
      else unposted.push(a);
    }
    // An alert posted before the window still ends truthfully (edited, quietly) when its condition goes.
    // Resolved only when the read shows the condition gone, not when it left out what it is judged by.
    for (const a of firing) if (!now.has(a.condition) && !unknown.has(a.id) && cleared(a.condition)) await resolve(sub, a, muted);
    const open = new Set(firing.map((a) => a.condition));
    const missing = [...now].filter(([condition]) => !open.has(condition));
    const repost = unposted.filter((a) => now.has(a.condition));
    owed.delete(sub.id);
    if (unknown.size || repost.length) owed.add(sub.id);
    if (windows.length) {
      // Each overlapping window notes it: each one's summary tells what it held back.
      for (const window of windows) for (const [condition] of missing) await deps.maintenance!.hold(window, { kind: sub.kind, resource: sub.resource, condition });
      return;
    }
    if (muted) return;
    if (!missing.length && !repost.length) return;
    // The monitor's copy may be seconds old: one removed or muted since then stays quiet.
    const current = deps.subscriptions ? await deps.subscriptions.get(sub.id) : sub;
    if (!current || current.removedAt !== null || (current.mutedUntil !== null && current.mutedUntil > deps.clock.now())) return;
    let failed = false;
    for (const a of repost) if (!(await post(sub, a))) failed = true;
    for (const [condition, detail] of missing) if (!(await fire(sub, condition, detail))) failed = true;
    if (!failed && !unknown.size) owed.delete(sub.id);
    else owed.add(sub.id);
  }

  /**
   * The watching ends (unsubscribed, or the channel may no longer read it), not the problem:
   * each firing alert is closed and its message says what was last seen. Nothing is posted.
   */
  async function unwatch(sub: SubscriptionRecord, why: UnwatchedWhy): Promise<void> {
    owed.delete(sub.id);
    for (const alert of await deps.alerts.listFiring(sub.id)) {
      const now = deps.clock.now();
      const closed = await deps.alerts.resolve(alert.id, now, { unwatched: why });
      if (!closed || !closed.messageTs) continue;
      await showClosed(sub, closed, input(sub, closed, now));
    }
  }

  return {
    sync,
    unwatch,
    showOwed,
    /** Whether the subscription has a firing alert still to post (or to find): synced again at its next poll. */
    owes: (subscriptionId: string) => owed.has(subscriptionId),
  };
}
