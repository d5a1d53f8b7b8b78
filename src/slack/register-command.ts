/** `/cloud …`: ack at once, then parse, run and answer (DESIGN "Interaction rules"). */
import type { App, RespondFn, SlashCommand } from '@slack/bolt';
import type { Catalog } from '../operations/catalog.js';
import { parseCommand } from '../operations/parse-command.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import { formCovers, openChangeForm, runChangeCommand, type ChangeCommandDeps } from './change-commands.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { buildProblem } from '../views/error-views.js';
import { buildHelp } from '../views/help-views.js';
import { startWatchByHand, type WatchCommandDeps } from './watch-commands.js';
import { guard, type GuardDeps } from './guard.js';
import { maskedArgs } from '../access/secrets.js';
import { tellFailure } from './answer-failure.js';

export interface CommandDeps extends RunDeps, AnswerDeps, ChangeCommandDeps, GuardDeps {
  catalog: Catalog;
  watcher?: WatchCommandDeps['watcher'];
}

export const SLASH_COMMAND = '/cloud';

export function registerCommand(app: App, deps: CommandDeps): void {
  app.command(SLASH_COMMAND, async ({ ack, command, respond }) => {
    await ack();
    // Whatever fails inside (the store stayed locked, a bug) is answered, named as far as known.
    let what = SLASH_COMMAND;
    try {
      await answerCommand(deps, command, respond, (w) => (what = w));
    } catch (e) {
      await tellFailure(deps.logger, what, e, (reply) => respond({ response_type: 'ephemeral', ...reply }), { user: command.user_id });
    }
  });
}

async function answerCommand(deps: CommandDeps, command: SlashCommand, respond: RespondFn, naming: (what: string) => void): Promise<void> {
  const actor = { userId: command.user_id, channelId: command.channel_id, teamId: command.team_id };
  const inv = { ...actor, triggerId: command.trigger_id };
  const parsed = parseCommand(command.text ?? '', deps.catalog);
  if (parsed.kind === 'help') {
    const resource = parsed.resource ? deps.catalog.resolveResource(parsed.resource) : undefined;
    // Help lists only what the asker may run here.
    const mine = await deps.access.allowed(actor.userId, actor.channelId, deps.catalog.operations);
    const reply = buildHelp(deps.catalog, mine, resource);
    return answerEphemeral(deps, respond, '/cloud help', Promise.resolve(reply));
  }
  if (parsed.kind === 'problem') {
    const missing = parsed.problem.missing;
    // A change missing inputs its form asks for: open the form, prefilled with what was typed.
    if (missing?.op.change?.modal && formCovers(missing.op, missing.names)) {
      const refused = await guard(deps, missing.op, actor.userId, actor.channelId);
      if (refused) return answerEphemeral(deps, respond, SLASH_COMMAND, Promise.resolve(refused));
      const reply = await openChangeForm(deps, missing.op, missing.given, inv);
      if (reply) await respond({ response_type: 'ephemeral', ...reply });
      return;
    }
    return answerEphemeral(deps, respond, SLASH_COMMAND, Promise.resolve(buildProblem(parsed.problem, deps.catalog.usage)));
  }
  const { op, args } = parsed;
  naming(op.command);
  const refused = await guard(deps, op, actor.userId, actor.channelId, maskedArgs(op, args));
  if (refused) return answerEphemeral(deps, respond, op.command, Promise.resolve(refused));
  if (op.change) {
    if (op.change.modal?.whenBare && !parsed.flagsGiven && !parsed.dryRun) {
      const reply = await openChangeForm(deps, op, args, inv);
      if (reply) await respond({ response_type: 'ephemeral', ...reply });
      return;
    }
    return runChangeCommand(deps, respond, op, args, { ...inv, dryRun: parsed.dryRun });
  }
  const work = runOperation(deps, op, args, actor).then(async (o) => {
    if (!o.ok || args.watch !== true || !op.watchable || !deps.watcher) return o.reply;
    const started = await startWatchByHand({ ...deps, watcher: deps.watcher }, op, args, actor);
    return { text: o.reply.text, blocks: [...o.reply.blocks, ...started.blocks] };
  });
  return answerEphemeral(deps, respond, op.command, work);
}
