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
import { closedFormReply, type FormVerdict } from '../app/submit-form.js';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { handlerFailureReply, respondPrivately } from './respond-privately.js';
import { buildFormNotOpened } from '../views/slack-failure-views.js';
import { buildFieldErrors } from '../views/click-views.js';
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
    // Reading the request from the store is quick, unless the database is not: Slack's 3 s hold.
    const checked = deps.core.confirmTyped({ recordId: view.private_metadata, typed, userId: body.user.id });
    const answer = await beforeDeadline(checked, deps.submitDeadlineMs);
    if (answer !== 'late' && answer.kind === 'errors') {
      await ack({ response_action: 'errors', errors: answer.errors });
      return;
    }
    await ack();
    deps.afterAck.run('that form', async () => {
      const known = answer === 'late' ? await checked : answer;
      if (known.kind === 'errors') {
        // The form closed before the answer was ready: the mismatch is told privately.
        await tell(known.channelId, body.user.id, buildFieldErrors(known.errors, 'check'));
        return;
      }
      try {
        const said = await known.confirm();
        if (said) await tell(said.channelId, body.user.id, said.reply);
      } catch (e) {
        // The form is closed already: the person is told in the request's channel.
        await tell(known.channelId, body.user.id, handlerFailureReply(deps.logger, 'that form', e));
      }
    });
  });

  routes.view(CHANGE_MODAL_CALLBACK, async ({ ack, body, view }) => {
    const meta = JSON.parse(view.private_metadata || '{}') as ModalMetadata;
    // Wait briefly so a refusal or the cloud's field errors can still land on the form. The
    // deadline runs from delivery, not from the core's first answer: admitting the form again
    // may read a user group from Slack, which can take longer than Slack's 3 s for the ack.
    const settled = (async () => {
      const answer = await deps.core.submitForm({
        userId: body.user.id,
        ...(body.team?.id ? { teamId: body.team.id } : {}),
        formId: view.id,
        meta,
        values: (spec) => readModalValues(spec, view.state.values as never),
        ...(Array.isArray(view.blocks) ? { shown: view.blocks.flatMap((b) => (b.type === 'input' && b.block_id ? [b.block_id] : [])) } : {}),
      });
      return answer.kind === 'started' ? { answer, outcome: await answer.outcome } : { answer };
    })();
    let first: Awaited<typeof settled> | 'late';
    try {
      first = await beforeDeadline(settled, deps.submitDeadlineMs);
    } catch (e) {
      // Failed inside the bot before the deadline: the form itself says so (it stays open).
      await ack({ response_action: 'update', view: modalFrom('cloudbot', handlerFailureReply(deps.logger, 'that form', e).blocks) });
      return;
    }
    if (first === 'late') {
      await ack();
      deps.afterAck.run('that form', async () => {
        try {
          const done = await settled;
          const reply = done.answer.kind !== 'started' ? closedFormReply(done.answer) : done.outcome ? outcomeReply(done.outcome) : undefined;
          if (reply) await tell(meta.channel, body.user.id, reply);
        } catch (e) {
          // The form closed at the ack: the failure is told privately in the form's channel, not lost.
          await tell(meta.channel, body.user.id, handlerFailureReply(deps.logger, 'that form', e));
        }
      });
      return;
    }
    const { answer, outcome } = first;
    if (answer.kind !== 'started' || !outcome) {
      await ack(answer.kind === 'gone' ? { response_action: 'update', view: buildFormGone() } : answer.kind === 'started' ? undefined : formAck(answer));
      return;
    }
    const verdict = answer.verdict(outcome);
    await ack(verdict ? formAck(verdict) : undefined);
    if (outcome.kind === 'posted' && outcome.unseen) await tell(answer.channel, body.user.id, outcome.unseen);
  });
}

/**
 * `work`'s answer, or 'late' once `ms` (default 2 s) have passed: a submission's ack waits at most
 * that long, well inside Slack's 3 s (slack-facts.md), whatever the work is waiting on.
 */
async function beforeDeadline<T>(work: Promise<T>, ms = 2000): Promise<T | 'late'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The core's verdict on a form, as Slack's answer to its submission. */
function formAck(verdict: FormVerdict) {
  if (verdict.kind === 'errors') return { response_action: 'errors' as const, errors: verdict.errors };
  return { response_action: 'update' as const, view: modalFrom(verdict.title, verdict.reply.blocks) };
}
