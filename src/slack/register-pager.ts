/**
 * Previous/Next on paginated lists: re-run the same operation for another page and replace
 * the message in place. The button's value is re-validated like typed input; it only names
 * an operation and arguments, never a URL.
 */
import type { App, BlockButtonAction } from '@slack/bolt';
import { z } from 'zod';
import type { Catalog } from '../operations/catalog.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { guard, type GuardDeps } from './guard.js';
import { PAGE_ACTION_NEXT, PAGE_ACTION_PREV } from '../views/pager.js';

export interface PagerDeps extends RunDeps, AnswerDeps, GuardDeps {
  catalog: Catalog;
}

const PageValue = z.object({ op: z.string().max(64), args: z.record(z.string(), z.unknown()) });

export function registerPager(app: App, deps: PagerDeps): void {
  const pattern = new RegExp(`^(${PAGE_ACTION_PREV}|${PAGE_ACTION_NEXT})$`);
  app.action<BlockButtonAction>(pattern, async ({ ack, action, body, respond }) => {
    await ack();
    const actor = { userId: body.user.id, channelId: body.channel?.id, teamId: body.team?.id };
    let value: unknown;
    try {
      value = JSON.parse(action.value ?? '');
    } catch {
      value = undefined;
    }
    const page = PageValue.safeParse(value);
    const op = page.success ? deps.catalog.byId(page.data.op) : undefined;
    const args = op?.pageArg && page.success ? op.schema.safeParse(page.data.args) : undefined;
    if (!op || !args?.success) {
      deps.logger.warn('ignored a page button with an unreadable value', { user: actor.userId });
      return;
    }
    // Checked again at the click: a role may have changed since the list was shown.
    // The check is part of the work, so a failure there is answered like one in the operation.
    const work = guard(deps, op, actor.userId, actor.channelId).then(
      async (refused) => refused ?? (await runOperation(deps, op, args.data as Record<string, unknown>, actor)).reply,
    );
    await answerEphemeral(deps, respond, op.command, work, { replaceOriginal: true });
  });
}
