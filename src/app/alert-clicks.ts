/**
 * The buttons of an alert (issue 13): a read ("Server status", "Credentials"), "Watch", and
 * "Snooze". Each goes the way a typed command goes — the catalog entry, access control with
 * the clicker's role in the alert's channel on the alert's account, the audit trail — and
 * answers the clicker privately; the answer comes back as data for the surface to deliver.
 *
 * A click is checked against the alert it was drawn on (issue 21), found by the message it
 * came from: its value must be one of the buttons that alert draws (same operation, arguments
 * and account, a read), and the check uses the alert's channel and account, not what the
 * payload claims. A button never starts a change.
 */
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import type { MonitorStores, SubscriptionRecord } from '../store/monitor-types.js';
import { drawnRead, placeOf } from '../access/record-access.js';
import { alertActions } from '../monitor/alerting.js';
import type { PolledKind } from '../monitor/observe.js';
import { SNOOZE_CHOICES } from '../views/alert-views.js';
import type { Reply } from '../views/types.js';
import { readButtonValue } from './button-value.js';
import { admit, type GuardDeps } from './guard.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { startWatchByHand, type WatchCommandDeps } from './watch-commands.js';

export interface AlertClickDeps extends RunDeps, GuardDeps {
  catalog: Catalog;
  watcher?: WatchCommandDeps['watcher'];
  slack: WatchCommandDeps['slack'];
  /** Firing alerts and their subscriptions: what a click is checked against. */
  alertStores: Pick<MonitorStores, 'alerts' | 'subscriptions'>;
}

/** Which button, on which message, with what value, by whom. */
export interface AlertClick {
  button: 'run' | 'watch' | 'snooze';
  value: string | undefined;
  userId: string;
  teamId?: string;
  /** Where the clicked message is: the alert is found by it, never by what the value claims. */
  channelId: string | undefined;
  messageTs: string | undefined;
}

/** `unreadable`: the click names nothing this alert draws; nothing was done. Else the answer, still being made. */
export type AlertClickAnswer = { kind: 'unreadable' } | { kind: 'work'; what: string; reply: Promise<Reply> };

export async function handleAlertClick(deps: AlertClickDeps, click: AlertClick): Promise<AlertClickAnswer> {
  if (click.button === 'snooze') return snooze(deps, click);
  const drawn = await drawnOn(deps, click, click.button === 'watch');
  if (!drawn) return { kind: 'unreadable' };
  const { op, args, sub } = drawn;
  const account = placeOf(deps.access, sub).account;
  if (click.button === 'run') {
    const actor = { userId: click.userId, channelId: sub.channelId, teamId: click.teamId };
    const reply = admit(deps, op, actor.userId, sub.channelId, args, account).then(async (admitted) =>
      admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply,
    );
    return { kind: 'work', what: op.command, reply };
  }
  if (!op.watchable || !deps.watcher) return { kind: 'unreadable' };
  const actor = { userId: click.userId, channelId: sub.channelId };
  const watcher = deps.watcher;
  const reply = admit(deps, op, actor.userId, sub.channelId, args, account).then(async (admitted) =>
    admitted.ok ? startWatchByHand({ ...deps, watcher }, op, { ...args, watch: true }, actor, admitted.account) : admitted.reply,
  );
  return { kind: 'work', what: op.command, reply };
}

async function snooze(deps: AlertClickDeps, click: AlertClick): Promise<AlertClickAnswer> {
  const sub = await alertAt(deps, click);
  const op = deps.catalog.byId('mute.set');
  const value = snoozeValue(click.value);
  // Only the snoozes drawn: this alert's subscription, for one of the offered times.
  const drawn = sub && value && value.sub === sub.id && SNOOZE_CHOICES.some((c) => c.ms === value.ms);
  const args = op && drawn ? op.schema.safeParse({ target: value.sub, duration: `${Math.round(value.ms / 60_000)}m` }) : undefined;
  if (!op || !sub || !args?.success) return { kind: 'unreadable' };
  const actor = { userId: click.userId, channelId: sub.channelId, teamId: click.teamId };
  // Snoozing is `/cloud mute <subscription> <duration>`: the same check, the same audit entry.
  const reply = admit(deps, op, actor.userId, sub.channelId, {}, placeOf(deps.access, sub).account).then(async (admitted) =>
    admitted.ok ? (await runOperation(deps, op, args.data as Record<string, unknown>, actor, admitted.account)).reply : admitted.reply,
  );
  return { kind: 'work', what: op.command, reply };
}

/** The subscription of the firing alert whose message was clicked, in the channel it was posted to. */
async function alertAt(deps: AlertClickDeps, click: AlertClick): Promise<SubscriptionRecord | undefined> {
  const { channelId, messageTs: ts } = click;
  if (!channelId || !ts) return undefined;
  const alert = (await deps.alertStores.alerts.listFiring()).find((a) => a.channelId === channelId && a.messageTs === ts);
  const sub = alert ? await deps.alertStores.subscriptions.get(alert.subscriptionId) : undefined;
  return sub && sub.removedAt === null && sub.channelId === channelId ? sub : undefined;
}

/** The read this alert drew that the click's value names (its drawn arguments and account), if any. */
async function drawnOn(deps: AlertClickDeps, click: AlertClick, watch: boolean): Promise<{ op: AnyOperation; args: Record<string, unknown>; sub: SubscriptionRecord } | undefined> {
  const run = readButtonValue(click.value, deps.catalog);
  const sub = run ? await alertAt(deps, click) : undefined;
  if (!run || !sub) return undefined;
  const drawn = (alertActions(sub.kind as PolledKind, sub.resource, sub.account) ?? []).flatMap((a) => {
    const args = !!a.watch === watch ? deps.catalog.byId(a.op)?.schema.safeParse(a.args) : undefined;
    return args?.success ? [{ ...a, args: args.data as Record<string, unknown> }] : [];
  });
  const hit = drawnRead(drawn, { op: run.op.id, args: run.args, account: run.account }, (id) => deps.catalog.byId(id));
  const op = hit && deps.catalog.byId(hit.op);
  return hit && op ? { op, args: hit.args, sub } : undefined;
}

function snoozeValue(raw: string | undefined): { sub: string; ms: number } | undefined {
  try {
    const v = JSON.parse(raw ?? '') as { sub?: unknown; ms?: unknown };
    return typeof v.sub === 'string' && typeof v.ms === 'number' && v.ms >= 60_000 ? { sub: v.sub, ms: v.ms } : undefined;
  } catch {
    return undefined;
  }
}
