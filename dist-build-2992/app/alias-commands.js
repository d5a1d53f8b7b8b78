/**
 * Running an alias: `/cloud web 101` becomes `/cloud server status 101` before parsing, and from
 * there goes the one way every typed command goes (parse → access → confirm → run), so an alias
 * can never skip a check or a confirmation. The answer names what ran.
 */
import { aliasOperation, aliasWord, expandAlias } from '../operations/alias-grammar.js';
import { COMMAND_TEXT_MAX, TokenizeError, tokenize } from '../operations/tokenize.js';
import { runnableAliases } from './alias-control.js';
import { buildAliasProblem } from '../views/alias-views.js';
import { buildCommandTooLong } from '../views/error-views.js';
import { admit } from './guard.js';
/**
 * The check before expanding, as the slash command asks it: the role and where commands are
 * taken (scope `everywhere`), not yet the account, which the expansion may name. Audited.
 */
export function mayRunHere(deps, userId, channelId) {
    return async (op) => {
        const admitted = await admit(deps, { ...op, scope: 'everywhere' }, userId, channelId);
        return admitted.ok ? undefined : admitted.reply;
    };
}
/**
 * The command to parse: the typed text, unless its first word is one of this channel's aliases.
 * Text longer than a slash command may be is refused unread. Before an alias is expanded, the
 * person's right to run what it runs here (their role, where commands are taken) is checked,
 * so someone with no role costs a store read and a refusal, never an expansion; the expansion
 * itself stops at COMMAND_TEXT_MAX (alias-grammar.ts). The expanded command is then checked in
 * full (account, ceilings, confirmation) as if typed.
 */
export async function expandTyped(aliases, catalog, text, channelId, mayRun) {
    if (text.length > COMMAND_TEXT_MAX)
        return { kind: 'reply', reply: buildCommandTooLong(text.length, COMMAND_TEXT_MAX) };
    if (!aliases)
        return { kind: 'text', text };
    let tokens;
    try {
        tokens = tokenize(text);
    }
    catch (e) {
        if (e instanceof TokenizeError)
            return { kind: 'text', text }; // the parser says what is wrong
        throw e;
    }
    const word = aliasWord(tokens, catalog);
    const alias = word ? await aliases.get(channelId, word) : undefined;
    if (!alias)
        return { kind: 'text', text };
    const target = aliasOperation(alias.command, catalog);
    if (!target.ok)
        return { kind: 'reply', reply: buildAliasProblem(target.problem) };
    const refused = await mayRun(target.op);
    if (refused)
        return { kind: 'reply', reply: refused };
    const expanded = expandAlias(alias, tokens.slice(1));
    if (!expanded.ok)
        return { kind: 'reply', reply: buildAliasProblem(expanded.problem) };
    return { kind: 'text', text: expanded.text, alias: { name: alias.name, expanded: expanded.text } };
}
/** Help's list: this channel's aliases whose command the asker may run here. */
export async function helpAliases(deps, channelId, mine) {
    if (!deps.aliases)
        return [];
    return runnableAliases(await deps.aliases.list(channelId), deps.catalog, new Set(mine.map((o) => o.id)));
}
//# sourceMappingURL=alias-commands.js.map