/**
 * Link unfurls (issue 23): `link_shared` → the core reads each link's resource as the person
 * who shared it (app/unfurl-links.ts) → `chat.unfurl` with a card per link. Only links posted
 * in a channel are unfurled: in the composer (`source: composer`) the channel is not known yet,
 * so its policy cannot be checked; nor in a channel the bot is not in (a card is public, and
 * the bot speaks only where it was invited). A card's read buttons run through the button path
 * (the core's `button`: checked, run and audited for whoever presses), answered privately.
 */
import type { ListenerRoutes } from './listener-routes.js';
import { isRead } from '../access/record-access.js';
import type { AppCore } from '../app/app-core.js';
import { buildUnfurlCard, UNFURL_READ } from '../views/unfurl-views.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import type { Block } from '../views/types.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import type { AfterAck } from './after-ack.js';
import type { SlackApi } from '../chat/slack-api.js';

export interface UnfurlListenerDeps extends AnswerDeps {
  core: AppCore;
  afterAck: AfterAck;
  slack: Pick<SlackApi, 'unfurl'>;
}

const CHANNEL = /^[CG][A-Z0-9]{2,20}$/;

export function registerUnfurls(routes: ListenerRoutes, deps: UnfurlListenerDeps): void {
  routes.event('link_shared', async ({ event }) => {
    // A card is public: it goes only where Slack says the bot was invited (a missing flag is not a yes), never into any channel a link is pasted in.
    if (event.source === 'composer' || event.is_bot_user_member !== true || !CHANNEL.test(event.channel) || !deps.slack.unfurl) return;
    const unfurl = deps.slack.unfurl.bind(deps.slack);
    deps.afterAck.run('a link unfurl', async () => {
      const cards = await deps.core.unfurl({ userId: event.user, channelId: event.channel, urls: event.links.map((l) => l.url) });
      if (cards.length === 0) return;
      const unfurls: Record<string, { blocks: Block[] }> = {};
      for (const c of cards) unfurls[c.url] = buildUnfurlCard(c);
      try {
        await unfurl({ channel: event.channel, ts: event.message_ts, unfurls });
      } catch (error) {
        // The link simply stays a link; nobody waits on an unfurl.
        deps.logger.warn('could not unfurl a link', { channel: event.channel, error });
      }
    });
  });

  routes.action(new RegExp(`^${UNFURL_READ}:\\d+$`), async ({ ack, action, body, respond }) => {
    await ack();
    deps.afterAck.run('that unfurl button', async () => {
      const actor = { userId: body.user.id, channelId: body.channel?.id, ...(body.team?.id ? { teamId: body.team.id } : {}) };
      const run = deps.core.button(action.value, actor, isRead);
      if (run.kind === 'unreadable') return void (await respond({ response_type: 'ephemeral', replace_original: false, ...buildNote(md`That button could not be read; nothing was done.`) }));
      // The card is on a message everyone sees: the answer is a new private message, never a replacement.
      await answerEphemeral(deps, respond, run.what, run.reply, { sharedOriginal: true });
    });
  });
}
