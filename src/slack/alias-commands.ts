/**
 * Running an alias: `/cloud web 101` becomes `/cloud server status 101` before parsing, and from
 * there goes the one way every typed command goes (parse → access → confirm → run), so an alias
 * can never skip a check or a confirmation. The answer names what ran.
 */
import type { RespondFn } from '@slack/bolt';
import { aliasWord, expandAlias } from '../operations/alias-grammar.js';
import type { Catalog } from '../operations/catalog.js';
import { TokenizeError, tokenize, type Token } from '../operations/tokenize.js';
import type { AliasControl, AnyOperation, Reply } from '../operations/types.js';
import type { AliasRecord } from '../store/alias-types.js';
import { runnableAliases } from './alias-control.js';
import { aliasNote, buildAliasNote, buildAliasProblem } from '../views/alias-views.js';

export type TypedCommand =
  /** Text to parse: as typed, or an alias's expansion (`alias` names it). */
  | { kind: 'text'; text: string; alias?: { name: string; expanded: string } }
  /** An alias that could not be expanded (the wrong number of arguments). */
  | { kind: 'reply'; reply: Reply };

/** The command to parse: the typed text, unless its first word is one of this channel's aliases. */
export async function expandTyped(aliases: AliasControl | undefined, catalog: Catalog, text: string, channelId: string): Promise<TypedCommand> {
  if (!aliases) return { kind: 'text', text };
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch (e) {
    if (e instanceof TokenizeError) return { kind: 'text', text }; // the parser says what is wrong
    throw e;
  }
  const word = aliasWord(tokens, catalog);
  const alias = word ? await aliases.get(channelId, word) : undefined;
  if (!alias) return { kind: 'text', text };
  const expanded = expandAlias(alias, tokens.slice(1));
  if (!expanded.ok) return { kind: 'reply', reply: buildAliasProblem(expanded.problem) };
  return { kind: 'text', text: expanded.text, alias: { name: alias.name, expanded: expanded.text } };
}

/**
 * `respond` with "Ran `/cloud server status 101` (alias `web`)" above each answer; `flush`
 * sends the note alone when nothing else was answered privately (a change posted its status
 * message in the channel).
 */
export function notingAlias(respond: RespondFn, alias: { name: string; expanded: string }): { respond: RespondFn; flush(): Promise<void> } {
  const note = aliasNote(alias.name, alias.expanded);
  let sent = false;
  const noted = (async (message: Parameters<RespondFn>[0]) => {
    sent = true;
    if (typeof message === 'string' || message.delete_original) return respond(message);
    // A text-only answer stays so: blocks, once present, would hide its text.
    const blocks = (message as { blocks?: unknown[] }).blocks;
    if (!blocks?.length || blocks.length >= 50) return respond(message);
    return respond({ ...message, blocks: [note, ...blocks] } as Parameters<RespondFn>[0]);
  }) as RespondFn;
  return {
    respond: noted,
    async flush() {
      if (!sent) await respond({ response_type: 'ephemeral', ...buildAliasNote(alias.name, alias.expanded) });
    },
  };
}

/** Help's list: this channel's aliases whose command the asker may run here. */
export async function helpAliases(deps: { aliases?: AliasControl; catalog: Catalog }, channelId: string, mine: readonly AnyOperation[]): Promise<AliasRecord[]> {
  if (!deps.aliases) return [];
  return runnableAliases(await deps.aliases.list(channelId), deps.catalog, new Set(mine.map((o) => o.id)));
}
