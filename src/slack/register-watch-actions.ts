/** The "Keep watching" button: ack, then the core resumes the watch (app/watch-commands.ts) and this delivers its answer. */
import type { ListenerRoutes } from './listener-routes.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { Logger } from '../log.js';
import type { AppCore } from '../app/app-core.js';
import { ACTION_KEEP_WATCHING } from '../views/watch-views.js';
import { tellFailure } from './answer-failure.js';
import type { AfterAck } from './after-ack.js';

export interface WatchActionDeps {
  core: Pick<AppCore, 'keepWatching'>;
  slack: Pick<SlackApi, 'postEphemeral' | 'postMessage'>;
  logger: Logger;
  afterAck: AfterAck;
}

export function registerWatchActions(routes: ListenerRoutes, deps: WatchActionDeps): void {
  routes.action(ACTION_KEEP_WATCHING, async ({ ack, action, body }) => {
    await ack();
    deps.afterAck.run('Keep watching', async () => {
      const channel = body.channel?.id;
      if (!channel) return;
      const user = body.user.id;
      let answer;
      try {
        answer = await deps.core.keepWatching({ channelId: channel, userId: user, watchId: action.value ?? '' });
      } catch (e) {
        // The store stayed locked, or a bug: the person hears of it, with a reference.
        return void (await tellFailure(deps.logger, 'Keep watching', e, (reply) => deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks })));
      }
      const { reply } = answer;
      if (answer.kind === 'tell') return void (await deps.slack.postEphemeral({ channel, user, text: reply.text, blocks: reply.blocks }).catch(() => undefined));
      try {
        await deps.slack.postMessage({ channel: answer.channelId, thread_ts: answer.threadTs, text: reply.text, blocks: reply.blocks });
      } catch (e) {
        deps.logger.warn('could not answer Keep watching', { error: e });
      }
    });
  });
}
