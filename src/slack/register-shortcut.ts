/**
 * The message shortcut "Act on this" (issue 23): ack, then the core finds what the message
 * names and what this person may run on each here (app/act-on-this.ts), and a modal lists it.
 * A button in it runs its command through the core's `command`, as `/cloud` would; the answer replaces
 * the modal's content (a read), or the change's card is in the channel. The message text is
 * only matched against what the bot knows; none of it is shown or sent.
 */
import type { ListenerRoutes } from './listener-routes.js';
import { z } from 'zod';
import { SlackApiError } from '../chat/slack-api.js';
import { choiceValue, readChoice } from '../app/act-on-this.js';
import type { AppCore } from '../app/app-core.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { Logger } from '../log.js';
import { ACT_CALLBACK, ACT_RUN, buildActOnThisModal, buildActRefused, buildActResult } from '../views/act-on-this-views.js';
import { buildNote } from '../views/click-views.js';
import { buildFormNotOpened } from '../views/slack-failure-views.js';
import { md } from '../views/mrkdwn.js';
import { failureReply } from './answer-failure.js';
import { respondPrivately } from './respond-privately.js';
import type { AfterAck } from './after-ack.js';

export interface ShortcutDeps {
  core: AppCore;
  afterAck: AfterAck;
  slack: SlackApi;
  logger: Logger;
}

const Metadata = z.object({ channel: z.string().regex(/^[CGD][A-Z0-9]{2,20}$/) });

/** Every text a message shows: its `text` and the text objects of its blocks and attachments (an alert's body). */
export function messageText(message: unknown, out: string[] = [], depth = 0): string {
  if (depth > 12 || out.length > 400) return out.join('\n');
  if (Array.isArray(message)) message.forEach((m) => messageText(m, out, depth + 1));
  else if (message && typeof message === 'object') {
    for (const [k, v] of Object.entries(message)) {
      if (typeof v === 'string' && (k === 'text' || k === 'fallback' || k === 'title' || k === 'pretext')) out.push(v);
      else if (typeof v === 'object') messageText(v, out, depth + 1);
    }
  }
  return out.join('\n');
}

export function registerShortcut(routes: ListenerRoutes, deps: ShortcutDeps): void {
  routes.messageShortcut(ACT_CALLBACK, async ({ ack, shortcut, respond }) => {
    await ack();
    // Named so its answer is timed as a command, as its ack is (telemetry workKind).
    deps.afterAck.run('the Act on this shortcut', async () => {
      const channelId = shortcut.channel.id;
      // A failure inside (the store stayed locked) is told through the shortcut's response_url.
      const listing = await deps.core.actOnThis({ userId: shortcut.user.id, channelId, text: messageText(shortcut.message) }).catch(async (e: unknown) => {
        await respondPrivately(deps.logger, respond, failureReply(deps.logger, 'Act on this', e));
        return undefined;
      });
      if (!listing) return;
      const view =
        listing.kind === 'refused'
          ? buildActRefused(listing.reply)
          : buildActOnThisModal(listing.items.map((i) => ({ ...i, choices: i.choices.map((c) => ({ ...c, value: choiceValue(c) })) })), channelId);
      try {
        await deps.slack.openView(shortcut.trigger_id, view);
      } catch (e) {
        if (!(e instanceof SlackApiError)) throw e;
        deps.logger.warn('could not open the Act on this modal', { error: e });
        await respondPrivately(deps.logger, respond, buildFormNotOpened(e.code, e.failure === 'unavailable'));
      }
    });
  });

  routes.action(new RegExp(`^${ACT_RUN}:`), async ({ ack, action, body }) => {
    await ack();
    deps.afterAck.run('that Act on this button', async () => {
      const view = body.view;
      const meta = view ? Metadata.safeParse(safeJson(view.private_metadata)) : undefined;
      const text = readChoice(action.value);
      if (!view || !meta?.success || !text) {
        deps.logger.warn('ignored an Act on this button that could not be read', { user: body.user.id });
        if (view) await deps.slack.updateView(view.id, buildActRefused(buildNote(md`That button could not be read; nothing was done.`)));
        return;
      }
      const channelId = meta.data.channel;
      // Exactly as typed after /cloud, by this person, in the channel the message is in. The
      // change flow dedupes by trigger: keyed by the modal and the button (not the click's own
      // trigger_id), a double click on one button starts one change. No choice opens a form.
      const input = { userId: body.user.id, channelId, teamId: body.team?.id ?? '', triggerId: `act:${view.id}:${action.action_id}`, text };
      const answer = await deps.core.command(input).catch((e: unknown) => ({ what: '/cloud', answer: { kind: 'said' as const, reply: failureReply(deps.logger, '/cloud', e) } }));
      const reply = answer.answer.kind === 'work' ? await answer.answer.reply.catch((e: unknown) => failureReply(deps.logger, answer.what, e)) : answer.answer.reply;
      // The person may have closed the modal meanwhile: the answer is then only logged as unseen.
      await deps.slack.updateView(view.id, buildActResult(text, reply, channelId)).catch((error: unknown) => deps.logger.warn('could not show an Act on this answer', { error }));
    });
  });
}

function safeJson(raw: string | undefined): unknown {
  try {
    return JSON.parse(raw ?? '');
  } catch {
    return undefined;
  }
}
