/**
 * The buttons of an alert (issue 13): a read ("Server status", "Credentials"), "Watch", and
 * "Snooze". Each goes the way a typed command goes — the catalog entry, access control with
 * the clicker's role in this channel on the alert's account, the audit trail — and answers the
 * clicker privately. A button never starts a change: only reads are run from an alert.
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import type { Catalog } from '../operations/catalog.js';
import { ALERT_RUN, ALERT_SNOOZE, ALERT_WATCH } from '../views/alert-views.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import { readButtonValue } from './button-value.js';
import { admit, type GuardDeps } from './guard.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { startWatchByHand, type WatchCommandDeps } from './watch-commands.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import type { AfterAck } from './after-ack.js';

export interface AlertActionDeps extends RunDeps, AnswerDeps, GuardDeps {
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  catalog: Catalog;
  watcher?: WatchCommandDeps['watcher'];
  slack: WatchCommandDeps['slack'];
}

/** Alerts are channel messages: an answer never replaces one. */
const SHARED = { sharedOriginal: true } as const;
const byPrefix = (id: string) => new RegExp(`^${id}(:\\d+)?$`);
const UNREADABLE = buildNote(md`That button could not be read; nothing was done.`);

export function registerAlertActions(app: App, deps: AlertActionDeps): void {
  app.action<BlockButtonAction>(byPrefix(ALERT_RUN), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that alert button', async () => {
      const actor = { userId: body.user.id, channelId: body.channel?.id, teamId: body.team?.id };
      const run = readButtonValue(action.value, deps.catalog);
      if (!run || run.op.change || run.op.mutates) return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
      const { op, args, account } = run;
      const work = admit(deps, op, actor.userId, actor.channelId, {}, account).then(async (admitted) =>
        admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply,
      );
      await answerEphemeral(deps, respond, op.command, work, SHARED);
    });
  });

  app.action<BlockButtonAction>(byPrefix(ALERT_WATCH), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that alert button', async () => {
      const channelId = body.channel?.id;
      const run = readButtonValue(action.value, deps.catalog);
      if (!run?.op.watchable || !channelId || !deps.watcher) return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
      const { op, args, account } = run;
      const actor = { userId: body.user.id, channelId };
      const watcher = deps.watcher;
      const work = admit(deps, op, actor.userId, channelId, {}, account).then(async (admitted) =>
        admitted.ok ? startWatchByHand({ ...deps, watcher }, op, { ...args, watch: true }, actor, admitted.account) : admitted.reply,
      );
      await answerEphemeral(deps, respond, op.command, work, SHARED);
    });
  });

  app.action<BlockButtonAction>(byPrefix(ALERT_SNOOZE), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that alert button', async () => {
      const actor = { userId: body.user.id, channelId: body.channel?.id, teamId: body.team?.id };
      const op = deps.catalog.byId('mute.set');
      const value = snoozeValue(action.value);
      const args = op && value ? op.schema.safeParse({ target: value.sub, duration: `${Math.round(value.ms / 60_000)}m` }) : undefined;
      if (!op || !args?.success) return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
      // Snoozing is `/cloud mute <subscription> <duration>`: the same check, the same audit entry.
      const work = admit(deps, op, actor.userId, actor.channelId).then(async (admitted) =>
        admitted.ok ? (await runOperation(deps, op, args.data as Record<string, unknown>, actor, admitted.account)).reply : admitted.reply,
      );
      await answerEphemeral(deps, respond, op.command, work, SHARED);
    });
  });
}

function snoozeValue(raw: string | undefined): { sub: string; ms: number } | undefined {
  try {
    const v = JSON.parse(raw ?? '') as { sub?: unknown; ms?: unknown };
    return typeof v.sub === 'string' && typeof v.ms === 'number' && v.ms >= 60_000 ? { sub: v.sub, ms: v.ms } : undefined;
  } catch {
    return undefined;
  }
}
