/** `/cloud …`: ack at once, then parse, run and answer (DESIGN "Interaction rules"). */
import type { App, RespondFn, SlashCommand } from '@slack/bolt';
import type { Catalog } from '../operations/catalog.js';
import { parseCommand } from '../operations/parse-command.js';
import { answerEphemeral, type AnswerDeps } from './answer.js';
import { formCovers, openChangeForm, runChangeCommand, type ChangeCommandDeps } from '../app/change-commands.js';
import { runOperation, type RunDeps } from '../app/run-operation.js';
import { buildBusy, buildProblem } from '../views/error-views.js';
import { buildHelp } from '../views/help-views.js';
import { buildCommandHelp } from '../views/command-help-views.js';
import { startWatchByHand, type WatchCommandDeps } from './watch-commands.js';
import { admit, type GuardDeps } from '../app/guard.js';
import { maskedArgs } from '../access/secrets.js';
import { tellFailure } from './answer-failure.js';
import { expandTyped, helpAliases, mayRunHere, notingAlias } from '../app/alias-commands.js';
import type { AfterAck } from './after-ack.js';

export interface CommandDeps extends RunDeps, AnswerDeps, ChangeCommandDeps, GuardDeps {
  /** Runs what a listener does after its ack, detached (after-ack.ts). */
  afterAck: AfterAck;
  catalog: Catalog;
  watcher?: WatchCommandDeps['watcher'];
}

export const SLASH_COMMAND = '/cloud';

/** The account this channel drives, and the others `--account` may name here (help's last line). */
function helpWhere(deps: CommandDeps, channelId: string): { account?: string; accounts?: string[] } {
  const policy = deps.access.policy();
  if (!policy.namedAccounts) return {};
  const rule = policy.channels[channelId] ?? policy.defaultChannel;
  return rule === 'deny' ? {} : { account: rule.account, accounts: rule.accounts };
}

export function registerCommand(app: App, deps: CommandDeps): void {
  app.command(SLASH_COMMAND, async ({ ack, command, respond }) => {
    await ack();
    // The answer runs detached, on a later turn: acks of commands already read go out first
    // (Slack gives each 3 s; this answer has minutes), and Bolt lets go of the request now.
    const answer = async () => {
      // Whatever fails inside (the store stayed locked, a bug) is answered, named as far as known.
      let what = SLASH_COMMAND;
      try {
        await answerCommand(deps, command, respond, (w) => (what = w));
      } catch (e) {
        await tellFailure(deps.logger, what, e, (reply) => respond({ response_type: 'ephemeral', ...reply }), { user: command.user_id });
      }
    };
    // Shed under load (after-ack.ts): told so at once, and nothing was started.
    const busy = async () => void (await respond({ response_type: 'ephemeral', ...buildBusy(SLASH_COMMAND) }));
    deps.afterAck.run(SLASH_COMMAND, answer, busy);
  });
}

async function answerCommand(deps: CommandDeps, command: SlashCommand, respond: RespondFn, naming: (what: string) => void): Promise<void> {
  // An alias of this channel is expanded first; what it expands to is answered as if typed.
  // Whether the person may run what it runs here at all is asked before expanding (mayRunHere).
  const typed = await expandTyped(deps.aliases, deps.catalog, command.text ?? '', command.channel_id, mayRunHere(deps, command.user_id, command.channel_id));
  if (typed.kind === 'reply') return answerEphemeral(deps, respond, SLASH_COMMAND, Promise.resolve(typed.reply));
  if (!typed.alias) return answerTyped(deps, command, typed.text, respond, naming);
  const noted = notingAlias(respond, typed.alias);
  await answerTyped(deps, command, typed.text, noted.respond, naming);
  await noted.flush();
}

async function answerTyped(deps: CommandDeps, command: SlashCommand, text: string, respond: RespondFn, naming: (what: string) => void): Promise<void> {
  const actor = { userId: command.user_id, channelId: command.channel_id, teamId: command.team_id };
  const inv = { ...actor, triggerId: command.trigger_id };
  const parsed = parseCommand(text, deps.catalog);
  if (parsed.kind === 'help') {
    const resource = parsed.resource ? deps.catalog.resolveResource(parsed.resource) : undefined;
    // Help lists only what the asker may run here, and names the account this channel drives.
    const mine = await deps.access.allowed(actor.userId, actor.channelId, deps.catalog.operations);
    const op = mine.find((o) => o.id === parsed.op?.id);
    const reply = op ? buildCommandHelp(deps.catalog, op) : buildHelp(deps.catalog, mine, resource, { ...helpWhere(deps, actor.channelId), aliases: resource ? [] : await helpAliases(deps, actor.channelId, mine) });
    return answerEphemeral(deps, respond, '/cloud help', Promise.resolve(reply));
  }
  if (parsed.kind === 'problem') {
    const missing = parsed.problem.missing;
    // A change missing inputs its form asks for: open the form, prefilled with what was typed.
    if (missing?.op.change?.modal && formCovers(missing.op, missing.names)) {
      const admitted = await admit(deps, missing.op, actor.userId, actor.channelId, {}, missing.account);
      if (!admitted.ok) return answerEphemeral(deps, respond, SLASH_COMMAND, Promise.resolve(admitted.reply));
      const reply = await openChangeForm(deps, missing.op, missing.given, { ...inv, account: admitted.account });
      if (reply) await respond({ response_type: 'ephemeral', ...reply });
      return;
    }
    return answerEphemeral(deps, respond, SLASH_COMMAND, Promise.resolve(buildProblem(parsed.problem, deps.catalog.usage)));
  }
  const { op, args } = parsed;
  naming(op.command);
  const admitted = await admit(deps, op, actor.userId, actor.channelId, maskedArgs(op, args), parsed.account);
  if (!admitted.ok) return answerEphemeral(deps, respond, op.command, Promise.resolve(admitted.reply));
  const { account } = admitted;
  if (op.change) {
    if (op.change.modal?.whenBare && !parsed.flagsGiven && !parsed.dryRun) {
      const reply = await openChangeForm(deps, op, args, { ...inv, account });
      if (reply) await respond({ response_type: 'ephemeral', ...reply });
      return;
    }
    return runChangeCommand(deps, respond, op, args, { ...inv, account, dryRun: parsed.dryRun });
  }
  const work = runOperation(deps, op, args, actor, account).then(async (o) => {
    if (!o.ok || args.watch !== true || !op.watchable || !deps.watcher) return o.reply;
    const started = await startWatchByHand({ ...deps, watcher: deps.watcher }, op, o.args ?? args, actor, account);
    return { text: o.reply.text, blocks: [...o.reply.blocks, ...started.blocks] };
  });
  return answerEphemeral(deps, respond, op.command, work);
}
