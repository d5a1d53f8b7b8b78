import { ALERT_RUN, ALERT_SNOOZE, ALERT_WATCH } from '../views/alert-views.js';
import { answerEphemeral } from './answer.js';
import { handleAlertClick } from '../app/alert-clicks.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
/** Alerts are channel messages: an answer never replaces one. */
const SHARED = { sharedOriginal: true };
const byPrefix = (id) => new RegExp(`^${id}(:\\d+)?$`);
const UNREADABLE = buildNote(md `That button could not be read; nothing was done.`);
export function registerAlertActions(app, deps) {
    const on = (actionId, button) => app.action(byPrefix(actionId), async ({ ack, action, body, respond }) => {
        await ack();
        deps.afterAck.run('that alert button', async () => {
            const answer = await handleAlertClick(deps, {
                button,
                value: action.value,
                userId: body.user.id,
                ...(body.team?.id ? { teamId: body.team.id } : {}),
                // The alert is found by the message clicked, never by what the value claims.
                channelId: body.channel?.id,
                messageTs: body.container?.message_ts ?? body.message?.ts,
            });
            if (answer.kind === 'unreadable')
                return void (await respond({ response_type: 'ephemeral', replace_original: false, ...UNREADABLE }));
            await answerEphemeral(deps, respond, answer.what, answer.reply, SHARED);
        });
    });
    on(ALERT_RUN, 'run');
    on(ALERT_WATCH, 'watch');
    on(ALERT_SNOOZE, 'snooze');
}
//# sourceMappingURL=register-alert-actions.js.map