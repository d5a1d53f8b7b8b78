/** The "Keep watching" button: ack, then the core resumes the watch (app/watch-commands.ts). */
import type { App, BlockButtonAction } from '@slack/bolt';
import { keepWatching, type WatchCommandDeps } from '../app/watch-commands.js';
import { ACTION_KEEP_WATCHING } from '../views/watch-views.js';
import { tellFailure } from './answer-failure.js';
import type { AfterAck } from './after-ack.js';

export function registerWatchActions(app: App, deps: WatchCommandDeps & { afterAck: AfterAck }): void {
  app.action<BlockButtonAction>(ACTION_KEEP_WATCHING, async ({ ack, action, body }) => {
    await ack();
    deps.afterAck.run('Keep watching', async () => {
      const channel = body.channel?.id;
      if (!channel) return;
      try {
        await keepWatching(deps, channel, body.user.id, action.value ?? '');
      } catch (e) {
        // The store stayed locked, or a bug: the person hears of it, with a reference.
        await tellFailure(deps.logger, 'Keep watching', e, (reply) => deps.slack.postEphemeral({ channel, user: body.user.id, text: reply.text, blocks: reply.blocks }));
      }
    });
  });
}

