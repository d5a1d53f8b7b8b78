import { outcomeReply } from '../app/change-commands.js';
import { SlackApiError } from '../chat/slack-api.js';
import { handlerFailureReply, respondPrivately } from './respond-privately.js';
import { buildFormNotOpened } from '../views/slack-failure-views.js';
import { buildFormGone, buildTypeToConfirmModal, CHANGE_MODAL_CALLBACK, readModalValues, TYPE_TO_CONFIRM_CALLBACK, } from '../views/modal-views.js';
import { buildNote } from '../views/click-views.js';
import { ACTION_CANCEL, ACTION_CONFIRM, ACTION_RETRY_SYNC, ACTION_UNDO } from '../views/status-views.js';
import { submitForm } from '../app/submit-form.js';
import { confirmTyped } from '../app/confirm-typed.js';
import { buildModalFromReply as modalFrom } from '../views/modal-views.js';
export function registerChanges(app, deps) {
    /** A private answer: an ephemeral message, else (Slack failing that) the response_url when there is one. */
    const tell = async (channel, user, reply, respond) => {
        if (channel) {
            try {
                await deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks });
                return;
            }
            catch (e) {
                deps.logger.warn('could not answer a click', { error: e });
            }
        }
        await respondPrivately(deps.logger, respond, reply);
    };
    const onClick = (actionId, act) => app.action(actionId, async ({ ack, action, body, respond }) => {
        await ack();
        deps.afterAck.run('that click', async () => {
            try {
                const outcome = await act(action.value ?? '', body.user.id);
                if (outcome.kind === 'tell')
                    await tell(body.channel?.id, body.user.id, buildNote(outcome.text), respond);
                if (outcome.kind === 'show')
                    await tell(body.channel?.id, body.user.id, outcome.reply, respond);
                if (outcome.kind === 'type-to-confirm') {
                    try {
                        await deps.slack.openView(body.trigger_id, buildTypeToConfirmModal(outcome.what, outcome.expected, action.value ?? ''));
                    }
                    catch (e) {
                        if (!(e instanceof SlackApiError))
                            throw e;
                        deps.logger.warn('could not open the type-to-confirm form', { error: e });
                        await respondPrivately(deps.logger, respond, buildFormNotOpened(e.code, e.failure === 'unavailable'));
                    }
                }
            }
            catch (e) {
                await tell(body.channel?.id, body.user.id, handlerFailureReply(deps.logger, 'that click', e), respond);
            }
        });
    });
    onClick(ACTION_CONFIRM, (id, user) => deps.flow.confirm(id, user));
    onClick(ACTION_CANCEL, (id, user) => deps.flow.cancel(id, user));
    onClick(ACTION_RETRY_SYNC, (id, user) => deps.flow.retrySync(id, user));
    onClick(ACTION_UNDO, (id, user) => deps.flow.undo(id, user));
    app.view(TYPE_TO_CONFIRM_CALLBACK, async ({ ack, body, view }) => {
        const typed = view.state.values.typed?.typed?.value ?? '';
        const answer = await confirmTyped(deps, { recordId: view.private_metadata, typed, userId: body.user.id });
        if (answer.kind === 'errors') {
            await ack({ response_action: 'errors', errors: answer.errors });
            return;
        }
        await ack();
        deps.afterAck.run('that form', async () => {
            const said = await answer.confirm();
            if (said)
                await tell(said.channelId, body.user.id, said.reply);
        });
    });
    app.view(CHANGE_MODAL_CALLBACK, async ({ ack, body, view }) => {
        const meta = JSON.parse(view.private_metadata || '{}');
        const answer = await submitForm(deps, {
            userId: body.user.id,
            ...(body.team?.id ? { teamId: body.team.id } : {}),
            formId: view.id,
            meta,
            values: (spec) => readModalValues(spec, view.state.values),
        });
        if (answer.kind !== 'started') {
            await ack(answer.kind === 'gone' ? { response_action: 'update', view: buildFormGone() } : formAck(answer));
            return;
        }
        // Wait briefly so a refusal or the cloud's field errors can still land on the form.
        const timer = new Promise((resolve) => setTimeout(() => resolve('late'), deps.submitDeadlineMs ?? 2000).unref());
        const first = await Promise.race([answer.outcome, timer]);
        if (first === 'late') {
            await ack();
            const outcome = await answer.outcome;
            const reply = outcomeReply(outcome);
            if (reply)
                await tell(answer.channel, body.user.id, reply);
            return;
        }
        const verdict = answer.verdict(first);
        await ack(verdict ? formAck(verdict) : undefined);
        if (first.kind === 'posted' && first.unseen)
            await tell(answer.channel, body.user.id, first.unseen);
    });
}
/** The core's verdict on a form, as Slack's answer to its submission. */
function formAck(verdict) {
    if (verdict.kind === 'errors')
        return { response_action: 'errors', errors: verdict.errors };
    return { response_action: 'update', view: modalFrom(verdict.title, verdict.reply.blocks) };
}
//# sourceMappingURL=register-changes.js.map