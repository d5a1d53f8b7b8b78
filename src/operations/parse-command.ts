/**
 * `/cloud <resource> <verb> [args] [--flags]` → an operation and validated arguments, or a
 * problem that names the nearest command and its usage. Everything typed is checked here with
 * the operation's zod schema, before any request (DEVELOPERS "Bad input gets a clear message").
 */
import type { Catalog } from './catalog.js';
import { closeness, closest } from './suggest.js';
import { TokenizeError, tokenize, type Token } from './tokenize.js';
import { definitionTokens } from './alias-grammar.js';
import type { AnyOperation, ArgSpec } from './types.js';
import { problem, type CommandProblem, type ParsedCommand } from './parsed-command.js';
import { parseArgs } from './parse-args.js';
import { AccountNameSchema } from './args.js';
import { md, val } from '../views/mrkdwn.js';
import { inputMessage, plainIssue } from '../views/input-message.js';
import { notOfferedText } from '../views/not-offered-text.js';

export function parseCommand(text: string, catalog: Catalog): ParsedCommand {
  let tokens: Token[];
  try {
    // `/cloud alias NAME = COMMAND…`: the command is kept verbatim for when the alias runs.
    tokens = definitionTokens(text, catalog) ?? tokenize(text);
  } catch (e) {
    if (e instanceof TokenizeError) return problem(md`A quote opened at ${val(e.opening)} is never closed.`, []);
    throw e;
  }
  // `--account NAME` goes with any command (issue 12): taken out here, checked by access control.
  const chosen = takeAccount(tokens);
  if (chosen.kind === 'problem') return chosen;
  tokens = chosen.rest;
  const parsed = parseTokens(tokens, catalog);
  if (chosen.account === undefined) return parsed;
  if (parsed.kind === 'run' || parsed.kind === 'help') return { ...parsed, account: chosen.account };
  if (parsed.kind === 'problem' && parsed.problem.missing) return { ...parsed, problem: { ...parsed.problem, missing: { ...parsed.problem.missing, account: chosen.account } } };
  return parsed;
}

function takeAccount(tokens: Token[]): { kind: 'ok'; rest: Token[]; account?: string } | Extract<ParsedCommand, { kind: 'problem' }> {
  const rest: Token[] = [];
  let account: string | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const m = !t.quoted ? /^--account(?:=(.*))?$/.exec(t.value) : null;
    if (!m) {
      rest.push(t);
      continue;
    }
    if (account !== undefined) return problem(md`${val('--account')} is given twice.`, []) as Extract<ParsedCommand, { kind: 'problem' }>;
    let raw = m[1];
    if (raw === undefined) {
      const next = tokens[i + 1];
      if (!next || (!next.quoted && next.value.startsWith('--'))) return problem(md`${val('--account')} needs a value (an account name).`, []) as Extract<ParsedCommand, { kind: 'problem' }>;
      raw = next.value;
      i++;
    }
    const checked = AccountNameSchema.safeParse(raw, { error: plainIssue });
    if (!checked.success) return problem(md`${val('--account')} ${inputMessage(checked.error.issues[0]!.message)}`, []) as Extract<ParsedCommand, { kind: 'problem' }>;
    account = checked.data;
  }
  return { kind: 'ok', rest, ...(account !== undefined ? { account } : {}) };
}

function parseTokens(tokens: Token[], catalog: Catalog): ParsedCommand {
  const typed = tokens.map((t) => t.value);
  const [first, second] = typed;
  if (first === undefined || HELP.test(first) || first === '?') return helpFor(typed.slice(1), catalog);

  const resource = catalog.resolveResource(first);
  if (!resource) {
    // `/cloud cloud server status 101`, or `cloud …` typed where a slash command was meant.
    if (/^\/?cloud$/i.test(first)) return withoutCommandWord(first, tokens.slice(1), catalog);
    const guess = suggest(tokens, catalog);
    // `ssh-kye add`: the nearest command is one the provider's API does not offer; say that, not only "I don't know".
    if (guess.notOffered) return { kind: 'problem', problem: { ...guess.notOffered, message: md`I don't know ${val(first)}. If you meant ${val(guess.notOfferedLine!.join(' '))}: ${guess.notOffered.message}` } };
    return problem(md`I don't know ${val(first)}.`, guess.usage, guess.line);
  }
  const ops = catalog.forResource(resource);
  const defaultVerb = catalog.resources.find((r) => r.name === resource)?.defaultVerb;
  const defaultOp = defaultVerb ? catalog.find(resource, defaultVerb) : undefined;
  // `/cloud policy U0123`: a word that is no verb is the default verb's positional argument.
  const takesWord = !!defaultOp && (Object.values(defaultOp.args) as ArgSpec[]).some((a) => a.kind === 'positional');
  const isVerb = second !== undefined && (!!catalog.find(resource, second) || HELP.test(second));
  if (defaultOp && (second === undefined || (second.startsWith('--') && !HELP.test(second)) || (takesWord && !isVerb))) {
    // `schedule cancle sch_…`, `schedule list`: an unquoted word near a verb is a mistyped verb, not the default verb's argument.
    const typo = takesWord && second !== undefined && !tokens[1]!.quoted && !second.startsWith('--') ? suggest(tokens, catalog, undefined, true) : undefined;
    if (typo?.usage.length) return problem(md`${val(resource)} has no ${val(second!)}.`, typo.usage, typo.line);
    return parseArgs(defaultOp, tokens.slice(1));
  }
  if (second === undefined || HELP.test(second)) return { kind: 'help', resource };

  const op = catalog.find(resource, second);
  // `ssh-key create`: the provider's API cannot, which is not a typo (catalog notOffered).
  const missing = op ? undefined : catalog.notOffered(resource, second);
  if (missing) return { kind: 'problem', problem: { message: notOfferedText(missing), usage: ops, notOffered: true } };
  if (!op) {
    const guess = suggest(tokens, catalog, resource);
    return problem(md`${val(resource)} has no ${val(second)}.`, guess.usage.length ? guess.usage : ops, guess.line);
  }
  return parseArgs(op, tokens.slice(2));
}

const HELP = /^(help|-h|--help)$/i;

/** `help`, `help server`, `help server status`; an unknown word is named, with the nearest resource. */
function helpFor(words: string[], catalog: Catalog): ParsedCommand {
  const [word, verb] = words;
  if (word === undefined) return { kind: 'help' };
  const resource = catalog.resolveResource(word);
  if (!resource) {
    const near = bestOf(catalog.resources.map((r) => ({ score: closest(word, [r.name, ...r.aliases]), line: ['help', r.name], usage: [] })));
    return problem(md`I don't know ${val(word)}: it is no command.`, [], near?.line);
  }
  const op = verb === undefined ? undefined : catalog.find(resource, verb);
  return { kind: 'help', resource, ...(op ? { op } : {}) };
}

function withoutCommandWord(word: string, rest: Token[], catalog: Catalog): ParsedCommand {
  const message = md`${val(word)} is the command itself: leave it out.`;
  if (rest.length === 0) return problem(message, [], ['help']);
  const parsed = parseTokens(rest, catalog);
  if (understood(parsed)) return problem(message, parsed.kind === 'run' ? [parsed.op] : [], rest.map(shownWord));
  if (parsed.kind === 'problem' && parsed.problem.didYouMean?.startsWith('/cloud ')) return problem(message, parsed.problem.usage, parsed.problem.didYouMean);
  return problem(message, parsed.kind === 'problem' ? parsed.problem.usage : []);
}

interface Guess {
  score: number | undefined;
  line: string[];
  usage: AnyOperation[];
}

/**
 * "Did you mean" for a mistyped resource or verb: resource and verb pairs that exist (`acc use`
 * → `account usage`, `s status` → `server status`), else the resource alone (`polcy U0123`),
 * the nearest first; a guess is offered only when it is unambiguous and, typed back, parses.
 */
function suggest(
  tokens: Token[],
  catalog: Catalog,
  knownResource?: string,
  pairsOnly = false,
): { line?: string[]; usage: AnyOperation[]; notOffered?: CommandProblem; notOfferedLine?: string[] } {
  const [first, second] = tokens.map((t) => t.value) as [string, string | undefined];
  const rest = tokens.slice(2).map(shownWord);
  const resources = catalog.resources.filter((r) => !knownResource || r.name === knownResource);
  const scoreOf = (r: (typeof resources)[number]) => (knownResource ? 0 : closest(first, [r.name, ...r.aliases]));
  const pairs: Guess[] = [];
  if (second !== undefined) {
    for (const r of resources) {
      const rs = scoreOf(r);
      if (rs === undefined) continue;
      for (const op of catalog.forResource(r.name)) {
        const vs = closeness(second, op.verb);
        if (vs !== undefined) pairs.push({ score: rs + vs, line: [r.name, op.verb, ...rest], usage: [op] });
      }
    }
  }
  const alone = knownResource
    ? []
    : resources.map((r) => ({ score: scoreOf(r), line: [r.name, ...tokens.slice(1).map(shownWord)], usage: catalog.forResource(r.name) }));
  for (const list of pairsOnly ? [pairs] : [pairs, alone]) {
    const ranked = list.filter((g) => g.score !== undefined).sort((a, b) => a.score! - b.score!);
    const top = ranked.filter((g) => g.score === ranked[0]?.score);
    // Two equally near commands: show both, guess neither.
    if (top.length > 1) return { usage: top.flatMap((g) => g.usage).slice(0, 6) };
    const guess = top[0];
    if (!guess) continue;
    const typedBack = parseTokens(tokenize(guess.line.join(' ')), catalog);
    if (understood(typedBack)) return { line: guess.line, usage: guess.usage };
    if (list === pairs) return { usage: guess.usage };
    if (typedBack.kind === 'problem' && typedBack.problem.notOffered) return { usage: [], notOffered: typedBack.problem, notOfferedLine: guess.line.slice(0, 2) };
    // The resource is plain but the rest is not understood: show that resource's commands.
    return { usage: guess.usage.slice(0, 6) };
  }
  return { usage: [] };
}

function bestOf(guesses: Guess[]): Guess | undefined {
  const ranked = guesses.filter((g) => g.score !== undefined).sort((a, b) => a.score! - b.score!);
  return ranked.length === 1 || (ranked.length > 1 && ranked[0]!.score! < ranked[1]!.score!) ? ranked[0] : undefined;
}

/** Typed back, the command would run, show help, or only lack inputs (which a form may ask for). */
function understood(p: ParsedCommand): boolean {
  return p.kind !== 'problem' || (!!p.problem.missing && !p.problem.didYouMean);
}

/** A word as it must be typed again: quoted when it holds spaces or was a quoted `--value`. */
function shownWord(t: Token): string {
  return /\s/.test(t.value) || (t.quoted && t.value.startsWith('--')) ? `"${t.value.replace(/"/g, '')}"` : t.value;
}

export type { CommandProblem, ParsedCommand };
