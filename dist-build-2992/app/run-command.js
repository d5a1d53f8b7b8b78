import { parseCommand } from '../operations/parse-command.js';
import { maskedArgs } from '../access/secrets.js';
import { buildProblem } from '../views/error-views.js';
import { buildHelp } from '../views/help-views.js';
import { buildCommandHelp } from '../views/command-help-views.js';
import { formCovers, openChangeForm, runChangeCommand } from './change-commands.js';
import { runOperation } from './run-operation.js';
import { startWatchByHand } from './watch-commands.js';
import { admit } from './guard.js';
import { expandTyped, helpAliases, mayRunHere } from './alias-commands.js';
/** The account this channel drives, and the others `--account` may name here (help's last line). */
function helpWhere(deps, channelId) {
    const policy = deps.access.policy();
    if (!policy.namedAccounts)
        return {};
    const rule = policy.channels[channelId] ?? policy.defaultChannel;
    return rule === 'deny' ? {} : { account: rule.account, accounts: rule.accounts };
}
const work = (what, reply) => ({ what, answer: { kind: 'work', reply: Promise.resolve(reply) } });
const said = (what, reply) => ({ what, answer: { kind: 'said', reply } });
/**
 * Runs a typed command. `naming` hears the command's name once parsed, so a failure thrown
 * before the answer exists (the store stayed locked) can still be worded for it.
 */
export async function runCommand(deps, input, naming = () => { }) {
    // An alias of this channel is expanded first; what it expands to is answered as if typed.
    // Whether the person may run what it runs here at all is asked before expanding (mayRunHere).
    const typed = await expandTyped(deps.aliases, deps.catalog, input.text, input.channelId, mayRunHere(deps, input.userId, input.channelId));
    if (typed.kind === 'reply')
        return work(COMMAND, typed.reply);
    const answer = await runTyped(deps, input, typed.text, naming);
    return typed.alias ? { ...answer, alias: typed.alias } : answer;
}
const COMMAND = '/cloud';
async function runTyped(deps, input, text, naming) {
    const actor = { userId: input.userId, channelId: input.channelId, teamId: input.teamId };
    const inv = { ...actor, triggerId: input.triggerId ?? '' };
    const parsed = parseCommand(text, deps.catalog);
    if (parsed.kind === 'help') {
        const resource = parsed.resource ? deps.catalog.resolveResource(parsed.resource) : undefined;
        // Help lists only what the asker may run here, and names the account this channel drives.
        const mine = await deps.access.allowed(actor.userId, actor.channelId, deps.catalog.operations);
        const op = mine.find((o) => o.id === parsed.op?.id);
        const reply = op ? buildCommandHelp(deps.catalog, op) : buildHelp(deps.catalog, mine, resource, { ...helpWhere(deps, actor.channelId), aliases: resource ? [] : await helpAliases(deps, actor.channelId, mine) });
        return work('/cloud help', reply);
    }
    if (parsed.kind === 'problem') {
        const missing = parsed.problem.missing;
        // A change missing inputs its form asks for: open the form, prefilled with what was typed.
        if (missing?.op.change?.modal && formCovers(missing.op, missing.names)) {
            const admitted = await admit(deps, missing.op, actor.userId, actor.channelId, {}, missing.account);
            if (!admitted.ok)
                return work(COMMAND, admitted.reply);
            return said(COMMAND, await openChangeForm(deps, missing.op, missing.given, { ...inv, account: admitted.account }));
        }
        return work(COMMAND, buildProblem(parsed.problem, deps.catalog.usage));
    }
    const { op, args } = parsed;
    naming(op.command);
    const admitted = await admit(deps, op, actor.userId, actor.channelId, maskedArgs(op, args), parsed.account);
    if (!admitted.ok)
        return work(op.command, admitted.reply);
    const { account } = admitted;
    if (op.change) {
        if (op.change.modal?.whenBare && !parsed.flagsGiven && !parsed.dryRun)
            return said(op.command, await openChangeForm(deps, op, args, { ...inv, account }));
        return said(op.command, await runChangeCommand(deps, op, args, { ...inv, account, dryRun: parsed.dryRun }));
    }
    const read = runOperation(deps, op, args, actor, account).then(async (o) => {
        if (!o.ok || args.watch !== true || !op.watchable || !deps.watcher)
            return o.reply;
        const started = await startWatchByHand({ ...deps, watcher: deps.watcher }, op, o.args ?? args, actor, account);
        return { text: o.reply.text, blocks: [...o.reply.blocks, ...started.blocks] };
    });
    return { what: op.command, answer: { kind: 'work', reply: read } };
}
//# sourceMappingURL=run-command.js.map