/**
 * Clicks and forms of changes: Confirm, Cancel and Retry sync on status messages
 * (app/change-clicks.ts), the change form's submission (app/submit-form.ts), and the "type the
 * hostname" form (app/confirm-typed.ts). Each click is acked first; the core decides, and this
 * delivers its answer: privately, on the form, or as the type-to-confirm form opened.
 */
import type { ListenerRoutes } from './listener-routes.js';
import type { RespondFn } from '@slack/bolt';
import type { Logger } from '../log.js';
import type { AppCore } from '../app/app-core.js';
import type { ChangeButton } from '../app/change-clicks.js';
import { outcomeReply, type ModalMetadata } from '../app/change-commands.js';
import type { FormVerdict } from '../app/submit-form.js';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { handlerFailureReply, respondPrivately } from './respond-privately.js';
import { buildFormNotOpened } from '../views/slack-failure-views.js';
import {
  buildFormGone,
  buildModalFromReply as modalFrom,
  buildTypeToConfirmModal,
  CHANGE_MODAL_CALLBACK,
  readModalValues,
  TYPE_TO_CONFIRM_CALLBACK,
} from '../views/modal-views.js';
import type { Reply } from '../views/types.js';
import { ACTION_CANCEL, ACTION_CONFIRM, ACTION_RETRY_SYNC, ACTION_UNDO } from '../views/status-views.js';
import type { AfterAck } from './after-ack.js';

export interface ChangeHandlerDeps {
  core: Pick<AppCore, 'changeClick' | 'confirmTyped' | 'submitForm'>;
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  slack: Pick<SlackApi, 'postEphemeral' | 'openView'>;
  logger: Logger;
  /** How long a form submission may wait for the cloud before the form closes (default 2 s). */
  submitDeadlineMs?: number;
}

export function registerChanges(routes: ListenerRoutes, deps: ChangeHandlerDeps): void {
  /** A private answer: an ephemeral message, else (Slack failing that) the response_url when there is one. */
  const tell = async (channel: string | undefined, user: string, reply: Reply, respond?: RespondFn) => {
    if (channel) {
      try {
        await deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
        return;
      } catch (e) {
        deps.logger.warn('could not answer a click', { error: e });
      }
    }
    await respondPrivately(deps.logger, respond, reply);
  };

  const onClick = (actionId: string, button: ChangeButton) =>
    routes.action(actionId, async ({ ack, action, body, respond }) => {
      await ack();
      deps.afterAck.run('that click', async () => {
        try {
          const answer = await deps.core.changeClick({ button, recordId: action.value ?? '', userId: body.user.id });
          if (answer.kind === 'tell') await tell(body.channel?.id, body.user.id, answer.reply, respond);
          if (answer.kind === 'type-to-confirm') {
            try {
              await deps.slack.openView(body.trigger_id, buildTypeToConfirmModal(answer.what, answer.expected, answer.recordId));
            } catch (e) {
              if (!(e instanceof SlackApiError)) throw e;
              deps.logger.warn('could not open the type-to-confirm form', { error: e });
              await respondPrivately(deps.logger, respond, buildFormNotOpened(e.code, e.failure === 'unavailable'));
            }
          }
        } catch (e) {
          await tell(body.channel?.id, body.user.id, handlerFailureReply(deps.logger, 'that click', e), respond);
        }
      });
    });

  onClick(ACTION_CONFIRM, 'confirm');
  onClick(ACTION_CANCEL, 'cancel');
  onClick(ACTION_RETRY_SYNC, 'retry-sync');
  onClick(ACTION_UNDO, 'undo');

  routes.view(TYPE_TO_CONFIRM_CALLBACK, async ({ ack, body, view }) => {
    const typed = view.state.values.typed?.typed?.value ?? '';
    const answer = await deps.core.confirmTyped({ recordId: view.private_metadata, typed, userId: body.user.id });
    if (answer.kind === 'errors') {
      await ack({ response_action: 'errors', errors: answer.errors });
      return;
    }
    await ack();
    deps.afterAck.run('that form', async () => {
      try {
        const said = await answer.confirm();
        if (said) await tell(said.channelId, body.user.id, said.reply);
      } catch (e) {
        // The form is closed already: the person is told in the request's channel.
        await tell(answer.channelId, body.user.id, handlerFailureReply(deps.logger, 'that form', e));
      }
    });
  });

  routes.view(CHANGE_MODAL_CALLBACK, async ({ ack, body, view }) => {
    const meta = JSON.parse(view.private_metadata || '{}') as ModalMetadata;
    const answer = await deps.core.submitForm({
      userId: body.user.id,
      ...(body.team?.id ? { teamId: body.team.id } : {}),
      formId: view.id,
      meta,
      values: (spec) => readModalValues(spec, view.state.values as never),
      ...(Array.isArray(view.blocks) ? { shown: view.blocks.flatMap((b) => (b.type === 'input' && b.block_id ? [b.block_id] : [])) } : {}),
    });
    if (answer.kind !== 'started') {
      await ack(answer.kind === 'gone' ? { response_action: 'update', view: buildFormGone() } : formAck(answer));
      return;
    }
    // Wait briefly so a refusal or the cloud's field errors can still land on the form.
    const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), deps.submitDeadlineMs ?? 2000).unref());
    let first: Awaited<typeof answer.outcome> | 'late';
    try {
      first = await Promise.race([answer.outcome, timer]);
    } catch (e) {
      // Failed inside the bot before the deadline: the form itself says so (it stays open).
      await ack({ response_action: 'update', view: modalFrom('cloudbot', handlerFailureReply(deps.logger, 'that form', e).blocks) });
      return;
    }
    if (first === 'late') {
      await ack();
      try {
        const reply = outcomeReply(await answer.outcome);
        if (reply) await tell(answer.channel, body.user.id, reply);
      } catch (e) {
        // The form closed at the ack: the failure is told privately in the form's channel, not lost.
        await tell(answer.channel, body.user.id, handlerFailureReply(deps.logger, 'that form', e));
      }
      return;
    }
    const verdict = answer.verdict(first);
    await ack(verdict ? formAck(verdict) : undefined);
    if (first.kind === 'posted' && first.unseen) await tell(answer.channel, body.user.id, first.unseen);
  });
}

/** The core's verdict on a form, as Slack's answer to its submission. */
function formAck(verdict: FormVerdict) {
  if (verdict.kind === 'errors') return { response_action: 'errors' as const, errors: verdict.errors };
  return { response_action: 'update' as const, view: modalFrom(verdict.title, verdict.reply.blocks) };
}
