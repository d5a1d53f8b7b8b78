import { keepWatching } from '../app/watch-commands.js';
import { ACTION_KEEP_WATCHING } from '../views/watch-views.js';
import { tellFailure } from './answer-failure.js';
export function registerWatchActions(app, deps) {
    app.action(ACTION_KEEP_WATCHING, async ({ ack, action, body }) => {
        await ack();
        deps.afterAck.run('Keep watching', async () => {
            const channel = body.channel?.id;
            if (!channel)
                return;
            try {
                await keepWatching(deps, channel, body.user.id, action.value ?? '');
            }
            catch (e) {
                // The store stayed locked, or a bug: the person hears of it, with a reference.
                await tellFailure(deps.logger, 'Keep watching', e, (reply) => deps.slack.postEphemeral({ channel, user: body.user.id, text: reply.text, blocks: reply.blocks }));
            }
        });
    });
}
//# sourceMappingURL=register-watch-actions.js.map