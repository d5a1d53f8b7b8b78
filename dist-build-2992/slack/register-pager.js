import { answerEphemeral } from './answer.js';
import { runButton } from '../app/run-button.js';
import { PAGE_ACTION_NEXT, PAGE_ACTION_PREV } from '../views/pager.js';
export function registerPager(app, deps) {
    const pattern = new RegExp(`^(${PAGE_ACTION_PREV}|${PAGE_ACTION_NEXT})$`);
    app.action(pattern, async ({ ack, action, body, respond }) => {
        await ack();
        deps.afterAck.run('that page button', async () => {
            const actor = { userId: body.user.id, channelId: body.channel?.id, teamId: body.team?.id };
            const page = runButton(deps, action.value, actor, (op) => !!op.pageArg);
            if (page.kind === 'unreadable') {
                deps.logger.warn('ignored a page button with an unreadable value', { user: actor.userId });
                return;
            }
            await answerEphemeral(deps, respond, page.what, page.reply, { replaceOriginal: true });
        });
    });
}
//# sourceMappingURL=register-pager.js.map