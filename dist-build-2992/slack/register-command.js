import { answerEphemeral, notingAlias } from './answer.js';
import { runCommand } from '../app/run-command.js';
import { buildBusy } from '../views/error-views.js';
import { tellFailure } from './answer-failure.js';
export const SLASH_COMMAND = '/cloud';
export function registerCommand(app, deps) {
    app.command(SLASH_COMMAND, async ({ ack, command, respond }) => {
        await ack();
        // The answer runs detached, on a later turn: acks of commands already read go out first
        // (Slack gives each 3 s; this answer has minutes), and Bolt lets go of the request now.
        const answer = async () => {
            // Whatever fails inside (the store stayed locked, a bug) is answered, named as far as known.
            let what = SLASH_COMMAND;
            try {
                const input = { userId: command.user_id, channelId: command.channel_id, teamId: command.team_id, triggerId: command.trigger_id, text: command.text ?? '' };
                await deliver(deps, respond, await runCommand(deps, input, (w) => (what = w)));
            }
            catch (e) {
                await tellFailure(deps.logger, what, e, (reply) => respond({ response_type: 'ephemeral', ...reply }), { user: command.user_id });
            }
        };
        // Shed under load (after-ack.ts): told so at once, and nothing was started.
        const busy = async () => void (await respond({ response_type: 'ephemeral', ...buildBusy(SLASH_COMMAND) }));
        deps.afterAck.run(SLASH_COMMAND, answer, busy);
    });
}
/** The core's answer, privately: a slow notice while work runs, and an alias's note above it. */
async function deliver(deps, respond, { what, answer, alias }) {
    const noted = alias ? notingAlias(respond, alias) : undefined;
    const via = noted?.respond ?? respond;
    if (answer.kind === 'work')
        await answerEphemeral(deps, via, what, answer.reply);
    else if (answer.reply)
        await via({ response_type: 'ephemeral', ...answer.reply });
    await noted?.flush();
}
//# sourceMappingURL=register-command.js.map