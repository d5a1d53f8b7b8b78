/**
 * Previous/Next on paginated lists: re-run the same operation for another page and replace
 * the message in place. The button's value is re-validated like typed input; it only names
 * an operation and arguments, never a URL.
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import type { Catalog } from '../operations/catalog.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import { runOperation, type RunDeps } from '../app/run-operation.js';
import { admit, type GuardDeps } from '../app/guard.js';
import { readButtonValue } from '../app/button-value.js';
import { PAGE_ACTION_NEXT, PAGE_ACTION_PREV } from '../views/pager.js';
import type { AfterAck } from './after-ack.js';

export interface PagerDeps extends RunDeps, AnswerDeps, GuardDeps {
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  catalog: Catalog;
}

export function registerPager(app: App, deps: PagerDeps): void {
  const pattern = new RegExp(`^(${PAGE_ACTION_PREV}|${PAGE_ACTION_NEXT})$`);
  app.action<BlockButtonAction>(pattern, async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that page button', async () => {
      const actor = { userId: body.user.id, channelId: body.channel?.id, teamId: body.team?.id };
      const page = readButtonValue(action.value, deps.catalog);
      if (!page?.op.pageArg) {
        deps.logger.warn('ignored a page button with an unreadable value', { user: actor.userId });
        return;
      }
      // Checked again at the click: a role may have changed since the list was shown.
      // The check is part of the work, so a failure there is answered like one in the operation.
      // The page of the account the list came from (`--account`), checked like the typed flag.
      const { op, args, account } = page;
      const work = admit(deps, op, actor.userId, actor.channelId, {}, account).then(
        async (admitted) => (admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply),
      );
      await answerEphemeral(deps, respond, op.command, work, { replaceOriginal: true });
    });
  });
}
