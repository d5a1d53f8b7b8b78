/**
 * A typed command, from any surface: alias expansion, parse, admit (access), then help, a form,
 * a change started or a read run — and the answer as data. The surface delivers it (the slash
 * command through its response_url, slack/register-command.ts); nothing here knows Slack's
 * transport. Opening a form and posting a change's status message go through the chat
 * interface (chat/slack-api.ts), which every surface implements.
 */
import type { Catalog } from '../operations/catalog.js';
import { parseCommand, type ParsedCommand } from '../operations/parse-command.js';
import type { TraceSteps } from '../telemetry/index.js';
import { maskedArgs } from '../access/secrets.js';
import type { Reply } from '../views/types.js';
import { buildProblem } from '../views/error-views.js';
import { buildHelp } from '../views/help-views.js';
import { buildAccessRefusal } from '../views/access-views.js';
import { buildCommandHelp } from '../views/command-help-views.js';
import { formCovers, openChangeForm, runChangeCommand, type ChangeCommandDeps, type ScheduledInput } from './change-commands.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { startWatchByHand, type WatchCommandDeps } from './watch-commands.js';
import { admit, type GuardDeps } from './guard.js';
import { expandTyped, helpAliases, mayRunHere } from './alias-commands.js';

export interface CommandCoreDeps extends RunDeps, ChangeCommandDeps, GuardDeps {
  catalog: Catalog;
  watcher?: WatchCommandDeps['watcher'];
  /** Spans of the request's steps (issue 24); absent or off, none. */
  tracing?: TraceSteps;
}

/** Who typed what, where. `triggerId` lets a change open its form. */
export interface CommandInput {
  userId: string;
  channelId: string;
  teamId: string;
  triggerId?: string;
  text: string;
  /** A schedule's run (app/schedule-run.ts): a change goes out as confirmed at scheduling, never through a form. */
  scheduled?: ScheduledInput;
}

/** What a command comes to, for the person who typed it. */
export interface CommandAnswer {
  /** The command's name, for a slow notice or a failure's wording. */
  what: string;
  /**
   * `work`: a reply still being made (a read the cloud answers; the surface may say the cloud
   * is slow meanwhile, and a failure inside is an answer too). `said`: the reply, if any — a
   * form opened or a change's status message posted in the channel may leave nothing to say.
   */
  answer: { kind: 'work'; reply: Promise<Reply> } | { kind: 'said'; reply: Reply | undefined };
  /** An alias ran: the surface notes what it expanded to. */
  alias?: { name: string; expanded: string };
}

/** The account this channel drives, and the others `--account` may name here (help's last line). */
function helpWhere(deps: CommandCoreDeps, channelId: string): { account?: string; accounts?: string[] } {
  const policy = deps.access.policy();
  if (!policy.namedAccounts) return {};
  const rule = policy.channels[channelId] ?? policy.defaultChannel;
  return rule === 'deny' ? {} : { account: rule.account, accounts: rule.accounts };
}

const work = (what: string, reply: Reply | Promise<Reply>): CommandAnswer => ({ what, answer: { kind: 'work', reply: Promise.resolve(reply) } });
const said = (what: string, reply: Reply | undefined): CommandAnswer => ({ what, answer: { kind: 'said', reply } });

/**
 * Runs a typed command. `naming` hears the command's name once parsed, so a failure thrown
 * before the answer exists (the store stayed locked) can still be worded for it.
 */
export async function runCommand(deps: CommandCoreDeps, input: CommandInput, naming: (what: string) => void = () => {}): Promise<CommandAnswer> {
  // An alias of this channel is expanded first; what it expands to is answered as if typed.
  // Whether the person may run what it runs here at all is asked before expanding (mayRunHere).
  const read = async () => {
    const typed = await expandTyped(deps.aliases, deps.catalog, input.text, input.channelId, mayRunHere(deps, input.userId, input.channelId));
    return typed.kind === 'reply' ? typed : { ...typed, parsed: parseCommand(typed.text, deps.catalog) };
  };
  // Off, the parse is the parse; on, a span named by what the text came to, never by the text.
  const typed = deps.tracing?.on
    ? await deps.tracing.span('parse', {}, async (span) => {
        const t = await read();
        span?.setAttributes(parseAttributes(t));
        return t;
      })
    : await read();
  if (typed.kind === 'reply') return work(COMMAND, typed.reply);
  const answer = await runTyped(deps, input, typed.parsed, naming);
  return typed.alias ? { ...answer, alias: typed.alias } : answer;
}

/** What a command came to, in catalog words: help, a problem, an operation to run (its id), or an alias refused; whether an alias ran (not which). */
function parseAttributes(t: { kind: string; alias?: unknown; parsed?: ParsedCommand }): Record<string, string | boolean> {
  const p = t.parsed;
  return { 'cloudbot.parse.outcome': p?.kind ?? 'refused', 'cloudbot.parse.alias': !!t.alias, ...(p?.kind === 'run' ? { 'cloudbot.operation': p.op.id } : {}) };
}

const COMMAND = '/cloud';

async function runTyped(deps: CommandCoreDeps, input: CommandInput, parsed: ParsedCommand, naming: (what: string) => void): Promise<CommandAnswer> {
  const actor = { userId: input.userId, channelId: input.channelId, teamId: input.teamId };
  const inv = { ...actor, triggerId: input.triggerId ?? '' };
  if (parsed.kind === 'help') {
    const resource = parsed.resource ? deps.catalog.resolveResource(parsed.resource) : undefined;
    // `help --account NAME` on an account this channel may not use is refused as a command on it would be.
    if (parsed.account !== undefined) {
      const usable = await deps.access.check(actor.userId, actor.channelId, { tier: 'read' }, parsed.account);
      if (!usable.ok && (usable.reason === 'account' || usable.reason === 'account-ceiling')) return work('/cloud help', buildAccessRefusal(usable, '/cloud help', 'read'));
    }
    // Help lists only what the asker may run here (on the account chosen, else this channel's), and names that account.
    const mine = await deps.access.allowed(actor.userId, actor.channelId, deps.catalog.operations, parsed.account);
    const op = mine.find((o) => o.id === parsed.op?.id);
    const where = parsed.account !== undefined && deps.access.policy().namedAccounts ? { account: parsed.account, chosen: true } : helpWhere(deps, actor.channelId);
    const reply = op ? buildCommandHelp(deps.catalog, op) : buildHelp(deps.catalog, mine, resource, { ...where, aliases: resource ? [] : await helpAliases(deps, actor.channelId, mine) });
    return work('/cloud help', reply);
  }
  if (parsed.kind === 'problem') {
    const missing = parsed.problem.missing;
    // A change missing inputs its form asks for: open the form, prefilled with what was typed.
    if (missing?.op.change?.modal && formCovers(missing.op, missing.names) && !input.scheduled) {
      const admitted = await admit(deps, missing.op, actor.userId, actor.channelId, {}, missing.account);
      if (!admitted.ok) return work(COMMAND, admitted.reply);
      return said(COMMAND, await openChangeForm(deps, missing.op, missing, { ...inv, account: admitted.account }));
    }
    return work(COMMAND, buildProblem(parsed.problem, deps.catalog.usage));
  }
  const { op, args } = parsed;
  naming(op.command);
  const admitted = await admit(deps, op, actor.userId, actor.channelId, maskedArgs(op, args), parsed.account);
  if (!admitted.ok) return work(op.command, admitted.reply);
  const { account } = admitted;
  if (op.change) {
    if (op.change.modal?.whenBare && !parsed.flagsGiven && !parsed.dryRun && !input.scheduled) return said(op.command, await openChangeForm(deps, op, { given: args, values: args }, { ...inv, account }));
    return said(op.command, await runChangeCommand(deps, op, args, { ...inv, account, dryRun: parsed.dryRun, ...(input.scheduled ? { scheduled: input.scheduled } : {}) }));
  }
  const read = runOperation(deps, op, args, input.scheduled ? { ...actor, scheduleId: input.scheduled.run.scheduleId } : actor, account).then(async (o) => {
    if (!o.ok || args.watch !== true || !op.watchable || !deps.watcher) return o.reply;
    const started = await startWatchByHand({ ...deps, watcher: deps.watcher }, op, o.args ?? args, actor, account);
    return { text: o.reply.text, blocks: [...o.reply.blocks, ...started.blocks] };
  });
  return { what: op.command, answer: { kind: 'work', reply: read } };
}
