/**
 * Previous/Next on paginated lists: the core re-runs the same operation for another page
 * (app/run-button.ts) and the answer replaces the message in place. The button's value is
 * re-validated like typed input; it only names an operation and arguments, never a URL.
 */
import type { ListenerRoutes } from './listener-routes.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import type { AppCore } from '../app/app-core.js';
import { PAGE_ACTION_NEXT, PAGE_ACTION_PREV } from '../views/pager.js';
import type { AfterAck } from './after-ack.js';
import { respondPrivately } from './respond-privately.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';

const UNREADABLE = buildNote(md`That button could not be read; nothing was done.`);

export interface PagerDeps extends AnswerDeps {
  core: Pick<AppCore, 'pageButton'>;
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
}

export function registerPager(routes: ListenerRoutes, deps: PagerDeps): void {
  const pattern = new RegExp(`^(${PAGE_ACTION_PREV}|${PAGE_ACTION_NEXT})$`);
  routes.action(pattern, async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that page button', async () => {
      const actor = { userId: body.user.id, channelId: body.channel?.id, teamId: body.team?.id };
      const page = deps.core.pageButton(action.value, actor);
      if (page.kind === 'unreadable') {
        // As the other buttons answer (an older message, a forged value): said, not only logged.
        deps.logger.warn('ignored a page button with an unreadable value', { user: actor.userId });
        await respondPrivately(deps.logger, respond, UNREADABLE);
        return;
      }
      await answerEphemeral(deps, respond, page.what, page.reply, { replaceOriginal: true });
    });
  });
}
