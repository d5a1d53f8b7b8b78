/** `/cloud …`: ack at once, then the core runs it (app/run-command.ts) and the answer goes back through the response_url. */
import type { ListenerRoutes } from './listener-routes.js';
import type { RespondFn } from '@slack/bolt';
import { answerEphemeral, notingAlias, type AnswerDeps } from './answer.js';
import type { CommandAnswer } from '../app/run-command.js';
import type { AppCore } from '../app/app-core.js';
import { buildBusy } from '../views/error-views.js';
import { tellFailure } from './answer-failure.js';
import type { AfterAck } from './after-ack.js';

export interface CommandDeps extends AnswerDeps {
  core: Pick<AppCore, 'command'>;
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
}

export const SLASH_COMMAND = '/cloud';

export function registerCommand(routes: ListenerRoutes, deps: CommandDeps): void {
  routes.command(SLASH_COMMAND, async ({ ack, command, respond }) => {
    await ack();
    // The answer runs detached, on a later turn: acks of commands already read go out first
    // (Slack gives each 3 s; this answer has minutes), and Bolt lets go of the request now.
    const answer = async () => {
      // Whatever fails inside (the store stayed locked, a bug) is answered, named as far as known.
      let what = SLASH_COMMAND;
      try {
        const input = { userId: command.user_id, channelId: command.channel_id, teamId: command.team_id, triggerId: command.trigger_id, text: command.text ?? '' };
        await deliver(deps, respond, await deps.core.command(input, (w) => (what = w)));
      } catch (e) {
        await tellFailure(deps.logger, what, e, (reply) => respond({ response_type: 'ephemeral', ...reply }), { user: command.user_id });
      }
    };
    // Shed under load (after-ack.ts): told so at once, and nothing was started.
    const busy = async () => void (await respond({ response_type: 'ephemeral', ...buildBusy(SLASH_COMMAND) }));
    deps.afterAck.run(SLASH_COMMAND, answer, busy);
  });
}

/** The core's answer, privately: a slow notice while work runs, and an alias's note above it. */
async function deliver(deps: CommandDeps, respond: RespondFn, { what, answer, alias }: CommandAnswer): Promise<void> {
  const noted = alias ? notingAlias(respond, alias) : undefined;
  const via = noted?.respond ?? respond;
  if (answer.kind === 'work') await answerEphemeral(deps, via, what, answer.reply);
  else if (answer.reply) await via({ response_type: 'ephemeral', ...answer.reply });
  await noted?.flush();
}
