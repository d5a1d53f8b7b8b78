/**
 * The buttons of an alert (issue 13): a read ("Server status", "Credentials"), "Watch", and
 * "Snooze". Each goes the way a typed command goes — the catalog entry, access control with
 * the clicker's role in the alert's channel on the alert's account, the audit trail — and
 * answers the clicker privately.
 *
 * A click is checked against the alert it was drawn on (issue 21), found by the message it
 * came from: its value must be one of the buttons that alert draws (same operation, arguments
 * and account, a read), and the check uses the alert's channel and account, not what the
 * payload claims. A button never starts a change.
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import type { MonitorStores, SubscriptionRecord } from '../store/monitor-types.js';
import { drawnRead, placeOf } from '../access/record-access.js';
import { alertActions } from '../monitor/alerting.js';
import type { PolledKind } from '../monitor/observe.js';
import { ALERT_RUN, ALERT_SNOOZE, ALERT_WATCH, SNOOZE_CHOICES } from '../views/alert-views.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import { readButtonValue } from './button-value.js';
import { admit, type GuardDeps } from '../app/guard.js';
import { runOperation, type RunDeps } from '../app/run-operation.js';
import { startWatchByHand, type WatchCommandDeps } from '../app/watch-commands.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import type { AfterAck } from './after-ack.js';

export interface AlertActionDeps extends RunDeps, AnswerDeps, GuardDeps {
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  catalog: Catalog;
  watcher?: WatchCommandDeps['watcher'];
  slack: WatchCommandDeps['slack'];
  /** Firing alerts and their subscriptions: what a click is checked against. */
  alertStores: Pick<MonitorStores, 'alerts' | 'subscriptions'>;
}

/** Alerts are channel messages: an answer never replaces one. */
const SHARED = { sharedOriginal: true } as const;
const byPrefix = (id: string) => new RegExp(`^${id}(:\\d+)?$`);
const UNREADABLE = buildNote(md`That button could not be read; nothing was done.`);

export function registerAlertActions(app: App, deps: AlertActionDeps): void {
  app.action<BlockButtonAction>(byPrefix(ALERT_RUN), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that alert button', async () => {
      const drawn = await drawnOn(deps, body, action.value, false);
      if (!drawn) return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
      const { op, args, sub } = drawn;
      const actor = { userId: body.user.id, channelId: sub.channelId, teamId: body.team?.id };
      const work = admit(deps, op, actor.userId, sub.channelId, args, placeOf(deps.access, sub).account).then(async (admitted) =>
        admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply,
      );
      await answerEphemeral(deps, respond, op.command, work, SHARED);
    });
  });

  app.action<BlockButtonAction>(byPrefix(ALERT_WATCH), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that alert button', async () => {
      const drawn = await drawnOn(deps, body, action.value, true);
      if (!drawn?.op.watchable || !deps.watcher) return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
      const { op, args, sub } = drawn;
      const actor = { userId: body.user.id, channelId: sub.channelId };
      const watcher = deps.watcher;
      const work = admit(deps, op, actor.userId, sub.channelId, args, placeOf(deps.access, sub).account).then(async (admitted) =>
        admitted.ok ? startWatchByHand({ ...deps, watcher }, op, { ...args, watch: true }, actor, admitted.account) : admitted.reply,
      );
      await answerEphemeral(deps, respond, op.command, work, SHARED);
    });
  });

  app.action<BlockButtonAction>(byPrefix(ALERT_SNOOZE), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that alert button', async () => {
      const sub = await alertAt(deps, body);
      const op = deps.catalog.byId('mute.set');
      const value = snoozeValue(action.value);
      // Only the snoozes drawn: this alert's subscription, for one of the offered times.
      const drawn = sub && value && value.sub === sub.id && SNOOZE_CHOICES.some((c) => c.ms === value.ms);
      const args = op && drawn ? op.schema.safeParse({ target: value.sub, duration: `${Math.round(value.ms / 60_000)}m` }) : undefined;
      if (!op || !sub || !args?.success) return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
      const actor = { userId: body.user.id, channelId: sub.channelId, teamId: body.team?.id };
      // Snoozing is `/cloud mute <subscription> <duration>`: the same check, the same audit entry.
      const work = admit(deps, op, actor.userId, sub.channelId, {}, placeOf(deps.access, sub).account).then(async (admitted) =>
        admitted.ok ? (await runOperation(deps, op, args.data as Record<string, unknown>, actor, admitted.account)).reply : admitted.reply,
      );
      await answerEphemeral(deps, respond, op.command, work, SHARED);
    });
  });
}

/** The subscription of the firing alert whose message was clicked, in the channel it was posted to. */
async function alertAt(deps: AlertActionDeps, body: BlockButtonAction): Promise<SubscriptionRecord | undefined> {
  const channelId = body.channel?.id;
  const ts = (body.container as { message_ts?: string } | undefined)?.message_ts ?? body.message?.ts;
  if (!channelId || !ts) return undefined;
  const alert = (await deps.alertStores.alerts.listFiring()).find((a) => a.channelId === channelId && a.messageTs === ts);
  const sub = alert ? await deps.alertStores.subscriptions.get(alert.subscriptionId) : undefined;
  return sub && sub.removedAt === null && sub.channelId === channelId ? sub : undefined;
}

/** The read this alert drew that the click's value names (its drawn arguments and account), if any. */
async function drawnOn(deps: AlertActionDeps, body: BlockButtonAction, raw: string | undefined, watch: boolean): Promise<{ op: AnyOperation; args: Record<string, unknown>; sub: SubscriptionRecord } | undefined> {
  const run = readButtonValue(raw, deps.catalog);
  const sub = run ? await alertAt(deps, body) : undefined;
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
