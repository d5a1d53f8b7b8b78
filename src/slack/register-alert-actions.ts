/**
 * The buttons of an alert: ack, then the core checks the click against the alert it was drawn
 * on and answers (app/alert-clicks.ts); the answer goes to the clicker privately.
 */
import type { ListenerRoutes } from './listener-routes.js';
import { ALERT_RUN, ALERT_SNOOZE, ALERT_WATCH, alertActionPattern } from '../views/alert-views.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import type { AlertClick } from '../app/alert-clicks.js';
import type { AppCore } from '../app/app-core.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import type { AfterAck } from './after-ack.js';
import { handlerFailureReply, respondPrivately } from './respond-privately.js';

export interface AlertActionDeps extends AnswerDeps {
  core: Pick<AppCore, 'alertClick'>;
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
}

/** Alerts are channel messages: an answer never replaces one. */
const SHARED = { sharedOriginal: true } as const;
const UNREADABLE = buildNote(md`That button could not be read; nothing was done.`);

export function registerAlertActions(routes: ListenerRoutes, deps: AlertActionDeps): void {
  const on = (id: Parameters<typeof alertActionPattern>[0], button: AlertClick['button']) =>
    routes.action(alertActionPattern(id), async ({ ack, action, body, respond }) => {
      await ack();
      deps.afterAck.run('that alert button', async () => {
        let answer: Awaited<ReturnType<AlertActionDeps['core']['alertClick']>>;
        try {
          answer = await deps.core.alertClick({
            button,
            value: action.value,
            userId: body.user.id,
            ...(body.team?.id ? { teamId: body.team.id } : {}),
            // The alert is found by the message clicked, never by what the value claims.
            channelId: body.channel?.id,
            messageTs: (body.container as { message_ts?: string } | undefined)?.message_ts ?? body.message?.ts,
          });
        } catch (e) {
          // A store that stayed locked, a bug: the clicker is told, with a reference for the log.
          return void (await respondPrivately(deps.logger, respond, handlerFailureReply(deps.logger, 'that alert button', e)));
        }
        if (answer.kind === 'unreadable') return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
        await answerEphemeral(deps, respond, answer.what, answer.reply, SHARED);
      });
    });
  on(ALERT_RUN, 'run');
  on(ALERT_WATCH, 'watch');
  on(ALERT_SNOOZE, 'snooze');
}
