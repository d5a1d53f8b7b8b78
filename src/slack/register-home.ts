/**
 * The App Home tab (issue 14): when a person opens it, the core reads what they may see
 * (app/home-data.ts) and the bot publishes it as their own view (views.publish); a button
 * there runs its read through the core too.
 *
 * A click on a Home button carries no response_url and no channel, so an ephemeral answer is
 * impossible (chat.postEphemeral needs a channel the person is in). The answer goes to the
 * person's DM with the app instead (chat.postMessage with their user id as the channel, which
 * `chat:write` allows and which lands in the app's Messages tab): it stays readable, unlike a
 * Home view that the next publish replaces.
 */
import type { ListenerRoutes } from './listener-routes.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { Logger } from '../log.js';
import type { AppCore } from '../app/app-core.js';
import { buildHome, HOME_RUN_PATTERN } from '../views/home-views.js';
import { buildNote } from '../views/click-views.js';
import { md } from '../views/mrkdwn.js';
import { failureReply } from './answer-failure.js';
import type { AfterAck } from './after-ack.js';

export interface HomeDeps {
  core: Pick<AppCore, 'homeData' | 'homeButton'>;
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  slack: Pick<SlackApi, 'publishView' | 'postMessage'>;
  logger: Logger;
}

export function registerHome(routes: ListenerRoutes, deps: HomeDeps): void {
  routes.event('app_home_opened', async ({ event }) => {
    // The same event comes for the Messages tab; only the Home tab gets a view.
    if (event.tab !== 'home') return;
    const user = event.user;
    deps.afterAck.run('App Home', async () => {
      try {
        await deps.slack.publishView(user, buildHome(await deps.core.homeData(user)));
      } catch (error) {
        deps.logger.warn('could not publish the Home tab', { user, error });
      }
    });
  });

  routes.action(HOME_RUN_PATTERN, async ({ ack, action, body }) => {
    await ack();
    deps.afterAck.run('that Home tab button', async () => {
      const userId = body.user.id;
      const run = deps.core.homeButton(action.value, userId);
      const reply =
        run.kind === 'unreadable'
          ? buildNote(md`That button could not be read; nothing was done.`)
          : await run.reply.catch((e: unknown) => failureReply(deps.logger, run.what, e));
      try {
        await deps.slack.postMessage({ channel: userId, text: reply.text, blocks: reply.blocks });
      } catch (error) {
        deps.logger.warn('could not answer a Home tab button in the person’s DM', { user: userId, error });
      }
    });
  });
}
