/**
 * Aliases (issue 14): `/cloud alias web = server status $1` saves a command; `/cloud web 101`
 * runs `/cloud server status 101`. This module is the grammar only — reading a definition,
 * checking a name and a command, and substituting arguments — with no store and no Slack.
 *
 * Safety by construction: an alias is text that is expanded once and then parsed, checked and
 * run exactly as if typed, so it can never skip an access check or a confirmation. It expands
 * only to a command of the catalog (its first word must be a resource), and the expanded text
 * is never looked up as an alias again, so aliases cannot recurse.
 */
import type { Catalog } from './catalog.js';
import { COMMAND_TEXT_MAX, TokenizeError, tokenize, type Token } from './tokenize.js';
import type { AnyOperation } from './types.js';
import { join, md, unescapeEntities, val, type Mrkdwn } from '../views/mrkdwn.js';

/** A name: a lower-case word (letters, digits, dashes), like an account name. */
export const ALIAS_NAME = /^[a-z][a-z0-9-]{0,29}$/;
/** Words the parser reads before any resource: never alias names. */
const HELP_WORDS = /^(help|-h|--help|\?)$/i;
/** `$1`…`$9` are the arguments in order, `$*` all of them. */
const PLACEHOLDER = /\$([1-9*])/g;
/**
 * Most placeholders one alias may hold (`$1`…`$9` and `$*` once each). Each copies what was
 * typed, so a few hundred of them would turn one 4,000-character command into megabytes.
 */
export const ALIAS_PLACEHOLDERS_MAX = 10;

/**
 * `alias NAME = COMMAND…` (or `alias create NAME = …`) as tokens for `alias create`, with the
 * command kept verbatim as one quoted token: its flags, quotes and `$1` are read when the alias
 * runs, not now. Undefined when the text is not a definition.
 */
export function definitionTokens(text: string, catalog: Catalog): Token[] | undefined {
  const m = /^\s*(\S+)\s+(?:create\s+)?([A-Za-z][\w-]*)\s*=\s*([\s\S]*?)\s*$/i.exec(text);
  if (!m || catalog.resolveResource(m[1]!) !== 'alias') return undefined;
  const tokens: Token[] = [
    { value: m[1]!, quoted: false },
    { value: 'create', quoted: false },
    { value: m[2]!, quoted: false },
  ];
  return m[3] ? [...tokens, { value: m[3], quoted: true }] : tokens;
}

/** Why a name cannot be an alias here (the channel's own aliases are checked by the store). */
export function checkAliasName(name: string, catalog: Catalog): Mrkdwn | undefined {
  if (!ALIAS_NAME.test(name)) return md`${val(name)} cannot be an alias name: use a lower-case word of letters, digits and dashes (at most 30).`;
  if (HELP_WORDS.test(name) || catalog.resolveResource(name)) {
    return md`${val(name)} is already a command word (${val(`/cloud ${name}`)}): an alias may not hide it. Choose another name.`;
  }
  return undefined;
}

/** `/cloud server status $1` and `server status $1` are the same command. */
export function normalizeCommand(command: string): string {
  return command.trim().replace(/^\/cloud\s+/i, '');
}

export type CommandCheck = { ok: true; op: AnyOperation } | { ok: false; problem: Mrkdwn };

/** The catalog operation a saved command runs, or why it cannot be saved. */
export function checkAliasCommand(command: string, catalog: Catalog): CommandCheck {
  const target = aliasOperation(command, catalog);
  if (!target.ok) return target;
  const uses = [...command.matchAll(PLACEHOLDER)].length;
  if (uses > ALIAS_PLACEHOLDERS_MAX) {
    return { ok: false, problem: md`The command holds ${uses} placeholders; an alias may hold at most ${ALIAS_PLACEHOLDERS_MAX} (each copies what is typed, and what an alias runs may be at most ${COMMAND_TEXT_MAX} characters).` };
  }
  const { count } = aliasArity(command);
  for (let n = 1; n < count; n++) {
    if (!command.includes(`$${n}`)) return { ok: false, problem: md`The command uses ${val(`$${count}`)} but not ${val(`$${n}`)}: number the arguments from ${val('$1')}.` };
  }
  return target;
}

/**
 * The catalog operation a command runs (its resource and verb), or why it names none. Cheap and
 * bounded by the saved command, so access can be checked on it before any expansion.
 */
export function aliasOperation(command: string, catalog: Catalog): CommandCheck {
  let tokens: Token[];
  try {
    tokens = tokenize(command);
  } catch (e) {
    if (e instanceof TokenizeError) return { ok: false, problem: md`The command has a quote opened at ${val(e.opening)} that is never closed.` };
    throw e;
  }
  const [first, second] = tokens;
  if (!first) return { ok: false, problem: md`An alias needs a command after ${val('=')}, e.g. ${val('/cloud alias web = server status $1')}.` };
  const resource = first.quoted ? undefined : catalog.resolveResource(first.value);
  if (!resource) {
    return { ok: false, problem: md`An alias runs a ${val('/cloud')} command, and ${val(first.value)} is not one (an alias cannot run another alias).` };
  }
  if (resource === 'alias') return { ok: false, problem: md`An alias cannot create, list or delete aliases.` };
  const verb = second && !second.quoted ? catalog.find(resource, second.value) : undefined;
  const defaultVerb = catalog.resources.find((r) => r.name === resource)?.defaultVerb;
  const op = verb ?? (defaultVerb ? catalog.find(resource, defaultVerb) : undefined);
  if (!op) {
    return { ok: false, problem: md`${val(resource)} has no ${val(second?.value ?? '')}: ${val(`/cloud help ${resource}`)} lists its commands.` };
  }
  return { ok: true, op };
}

/** How many arguments a command takes: the highest `$N`, and whether `$*` takes any more. */
export function aliasArity(command: string): { count: number; rest: boolean } {
  let count = 0;
  let rest = false;
  for (const m of command.matchAll(PLACEHOLDER)) {
    if (m[1] === '*') rest = true;
    else count = Math.max(count, Number(m[1]));
  }
  return { count, rest };
}

/** `$1 $2` as people read it. */
const placeholders = (n: number): Mrkdwn => join(Array.from({ length: n }, (_, i) => val(`$${i + 1}`)), ' ');

/** "needs 1 argument ($1)", "takes no arguments" */
export function arityWords(command: string): Mrkdwn {
  const { count, rest } = aliasArity(command);
  if (count === 0) return rest ? md`takes any arguments (${val('$*')})` : md`takes no arguments`;
  return md`needs ${count} ${count === 1 ? md`argument` : md`arguments`} (${placeholders(count)})${rest ? md` and takes more (${val('$*')})` : md``}`;
}

export type Expansion = { ok: true; text: string } | { ok: false; problem: Mrkdwn };

/**
 * The alias's command with the typed arguments in place of `$1`…`$9` and `$*`. An argument that
 * was quoted, or holds a space or a quote, is quoted again where the placeholder stands outside
 * quotes, so it stays one word. The result is Slack-escaped text, as a typed command arrives.
 * `--account NAME` and `--dry-run` typed after the arguments go to the expanded command.
 */
export function expandAlias(alias: { name: string; command: string }, typed: Token[]): Expansion {
  const args: Token[] = [];
  const carried: (() => string)[] = [];
  for (let i = 0; i < typed.length; i++) {
    const t = typed[i]!;
    if (!t.quoted && /^--dry-run$/.test(t.value)) carried.push(() => '--dry-run');
    else if (!t.quoted && /^--account=/.test(t.value)) carried.push(() => quoteWord({ ...t, value: t.value.slice('--account='.length) }, '--account='));
    else if (!t.quoted && t.value === '--account' && typed[i + 1]) {
      const v = typed[++i]!;
      carried.push(() => `--account ${quoteWord(v)}`);
    } else args.push(t);
  }
  const { count, rest } = aliasArity(alias.command);
  if (args.length < count || (args.length > count && !rest)) {
    const extra = args.length > count ? md` ${val(args.slice(count).map((a) => a.value).join(' '))} is more than it takes.` : md``;
    return { ok: false, problem: md`${val(alias.name)} ${arityWords(alias.command)}: ${val(`/cloud ${alias.name} = ${unescapeEntities(alias.command)}`)}.${extra}` };
  }
  try {
    const text = [substitute(alias.command, args, count), ...carried.map((c) => c())].join(' ');
    if (text.length > COMMAND_TEXT_MAX) throw new TooLong();
    return { ok: true, text };
  } catch (e) {
    if (e instanceof TooLong) {
      return { ok: false, problem: md`${val(alias.name)} with these arguments would run a command longer than ${COMMAND_TEXT_MAX} characters (a slash command's own limit), so nothing was run.` };
    }
    if (e instanceof Unquotable) return { ok: false, problem: md`${val(e.value)} holds every kind of quote, so it cannot be passed on as one word.` };
    if (e instanceof QuoteInside) return { ok: false, problem: md`An argument holds the quote the alias puts around it; type it without that quote.` };
    throw e;
  }
}

/** Stops building an expansion as soon as it outgrows a command: its work stays bounded too. */
function substitute(cmd: string, args: Token[], count: number): string {
  let out = '';
  let closing: string | undefined;
  for (let i = 0; i < cmd.length; i++) {
    const c = cmd[i]!;
    const p = c === '$' ? /^[1-9*]/.exec(cmd.slice(i + 1))?.[0] : undefined;
    if (p) {
      const values = p === '*' ? args.slice(count) : [args[Number(p) - 1]!];
      if (closing !== undefined) {
        const raw = values.map((v) => v.value).join(' ');
        if (raw.includes(closing)) throw new QuoteInside();
        out += escapeSlack(raw);
      } else {
        out += values.map((v) => quoteWord(v)).join(' ');
      }
      i++;
      if (out.length > COMMAND_TEXT_MAX) throw new TooLong();
      continue;
    }
    if (closing !== undefined) {
      if (c === closing) closing = undefined;
    } else if (QUOTES[c]) {
      closing = QUOTES[c];
    }
    out += c;
  }
  return out;
}

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '”': '”' };

/** The word as the tokenizer will read it back: quoted when it must be, Slack-escaped. */
function quoteWord(t: Token, prefix = ''): string {
  const v = t.value;
  const needs = t.quoted || v === '' || /[\s"'“”‘’]/.test(v);
  if (!needs) return prefix + escapeSlack(v);
  const q = ['"', "'", '“'].find((open) => !v.includes(QUOTES[open]!));
  // No quote fits around it: refused, rather than let its quotes split it into other words.
  if (q === undefined) throw new Unquotable(v);
  return `${prefix}${q}${escapeSlack(v)}${QUOTES[q]}`;
}

/** The expansion outgrew COMMAND_TEXT_MAX. */
class TooLong extends Error {}

/** An argument put inside the alias's own quotes holds that quote. */
class QuoteInside extends Error {}

class Unquotable extends Error {
  constructor(readonly value: string) {
    super('no quote fits around the value');
  }
}

function escapeSlack(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The first word of a typed command when it could name an alias (not a resource or help), else undefined. */
export function aliasWord(tokens: Token[], catalog: Catalog): string | undefined {
  const first = tokens[0];
  if (!first || first.quoted) return undefined;
  const word = first.value.toLowerCase();
  if (!ALIAS_NAME.test(word) || HELP_WORDS.test(word) || catalog.resolveResource(word)) return undefined;
  return word;
}
