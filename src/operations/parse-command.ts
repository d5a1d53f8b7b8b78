/**
 * `/cloud <resource> <verb> [args] [--flags]` → an operation and validated arguments, or a
 * problem that names the nearest command and its usage. Everything typed is checked here with
 * the operation's zod schema, before any request (DEVELOPERS "Bad input gets a clear message").
 */
import type { z } from 'zod';
import type { Catalog } from './catalog.js';
import { isOptional } from './define.js';
import { closeness, closest, nearest } from './suggest.js';
import { TokenizeError, tokenize, type Token } from './tokenize.js';
import { definitionTokens } from './alias-grammar.js';
import type { AnyOperation, ArgSpec } from './types.js';
import { AccountNameSchema } from './args.js';
import { join, md, val, type Mrkdwn } from '../views/mrkdwn.js';
import { words } from '../views/words.js';
import { inputMessage, plainIssue } from '../views/input-message.js';
import { notOfferedText } from '../views/not-offered-text.js';

export type ParsedCommand =
  | { kind: 'run'; op: AnyOperation; args: Record<string, unknown>; flagsGiven: boolean; dryRun: boolean; account?: string }
  | { kind: 'help'; resource?: string; op?: AnyOperation; account?: string }
  | { kind: 'problem'; problem: CommandProblem };

export interface CommandProblem {
  message: Mrkdwn;
  /** Operations whose usage to show (the nearest command, or every verb of a resource). */
  usage: AnyOperation[];
  /** A corrected command line to suggest, e.g. `/cloud server status 101`. */
  didYouMean?: string;
  /** The command was recognised but required arguments are missing (a modal may fill them). */
  missing?: {
    op: AnyOperation;
    /** The arguments as typed (a form's initial values). */
    given: Record<string, unknown>;
    /** The same arguments checked, each by its own schema (what a form's intro may describe). */
    values: Record<string, unknown>;
    names: string[];
    account?: string;
  };
  /** The provider's API does not offer what was asked (not a mistake in the typing). */
  notOffered?: boolean;
}

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

function parseArgs(op: AnyOperation, tokens: Token[]): ParsedCommand {
  const specs = Object.entries(op.args) as [string, ArgSpec][];
  // Arguments only a form gives, and no form to give them (a schedule's Confirm card): not a
  // typed command, though `--help` still shows what it is.
  if (!op.change?.modal && specs.some(([, s]) => s.kind === 'modal') && !tokens.some((t) => !t.quoted && /^(--help|-h)$/i.test(t.value))) {
    return problem(md`${val(op.command)} is not typed: it is the Confirm card the bot posts for it (see ${val('/cloud help ' + op.resource)}).`, [op]);
  }
  const positionals = specs.filter(([, s]) => s.kind === 'positional' || s.kind === 'rest');
  const flags = new Map(specs.filter(([, s]) => s.kind === 'flag' || s.kind === 'switch'));
  const raw: Record<string, unknown> = {};
  const loose: string[] = [];
  let dryRun = false;

  for (let i = 0; i < tokens.length; i++) {
    const { value, quoted } = tokens[i]!;
    // `--help` on any command shows its usage and flags; nothing runs.
    if (!quoted && /^(--help|-h)$/i.test(value)) return { kind: 'help', resource: op.resource, op };
    if (!quoted && value.startsWith('--') && value.length > 2) {
      const eq = value.indexOf('=');
      const name = value.slice(2, eq < 0 ? undefined : eq);
      // Every change may be rehearsed: show the exact request, send nothing.
      if (name === 'dry-run' && op.change) {
        if (eq >= 0) return problem(md`${val('--dry-run')} takes no value.`, [op]);
        dryRun = true;
        continue;
      }
      const spec = flags.get(name);
      if (!spec) {
        const guess = nearest(name, [...flags.keys()]);
        return problem(md`${val(op.command)} has no flag ${val(`--${name}`)}.${guess ? md`` : flagList(flags)}`, [op], undefined, guess && `--${guess}`);
      }
      if (name in raw) return problem(md`${val(`--${name}`)} is given twice.`, [op]);
      if (spec.kind === 'switch') {
        if (eq >= 0) return problem(md`${val(`--${name}`)} takes no value.`, [op]);
        raw[name] = true;
      } else if (eq >= 0) {
        raw[name] = value.slice(eq + 1);
      } else {
        const next = tokens[i + 1];
        if (!next || (!next.quoted && next.value.startsWith('--'))) return problem(md`${val(`--${name}`)} needs a value (${words(spec.placeholder)}).`, [op]);
        raw[name] = next.value;
        i++;
      }
    } else {
      loose.push(value);
    }
  }

  for (const [name, spec] of positionals) {
    if (loose.length === 0) break;
    raw[name] = spec.kind === 'rest' ? loose.splice(0).join(' ') : loose.shift();
  }
  if (loose.length > 0) {
    return problem(md`Too many arguments: ${val(loose.join(' '))} is not expected here.`, [op]);
  }

  const missing = specs.filter(([name, spec]) => raw[name] === undefined && !isOptional(spec)).map(([n]) => n);
  if (missing.length > 0) {
    // What was typed is checked now, not once the form comes back: a bad value is told at once,
    // and the form's intro never describes unchecked text.
    const values: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(raw)) {
      const one = (op.args[name]!.schema as z.ZodType).safeParse(value, { error: plainIssue });
      if (!one.success) return argProblem(op, name, one.error.issues[0]!.message);
      values[name] = one.data;
    }
    const shown = (n: string) => (op.args[n]!.kind === 'flag' ? val(`--${n}`) : words(`<${op.args[n]!.placeholder}>`));
    return {
      kind: 'problem',
      problem: {
        message: md`${val(op.command)} needs ${join(missing.map(shown), md` and `)}.`,
        usage: [op],
        missing: { op, given: raw, values, names: missing },
      },
    };
  }

  const parsed = (op.schema as z.ZodType).safeParse(raw, { error: plainIssue });
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    return argProblem(op, String(first.path[0] ?? ''), first.message);
  }
  const flagsGiven = Object.keys(raw).some((n) => flags.has(n));
  return { kind: 'run', op, args: parsed.data as Record<string, unknown>, flagsGiven, dryRun };
}

/** An argument its schema refused: `--flag: message` or `<placeholder>: message`. */
function argProblem(op: AnyOperation, name: string, message: string): ParsedCommand {
  const spec = op.args[name] as ArgSpec | undefined;
  const label = !spec ? md`Input` : spec.kind === 'flag' ? val(`--${name}`) : words(`<${spec.placeholder}>`);
  // The schemas' messages are our words; where they quote the input it becomes a value.
  return problem(md`${label}: ${inputMessage(message)}`, [op]);
}

function flagList(flags: Map<string, ArgSpec>): Mrkdwn {
  return flags.size ? md` Its flags: ${join([...flags.keys()].map((f) => val(`--${f}`)), ', ')}.` : md` It takes no flags.`;
}

function problem(message: Mrkdwn, usage: AnyOperation[], corrected?: string[] | string, flagGuess?: string): ParsedCommand {
  const p: CommandProblem = { message, usage };
  if (Array.isArray(corrected)) p.didYouMean = `/cloud ${corrected.join(' ')}`;
  else if (typeof corrected === 'string' && corrected) p.didYouMean = corrected;
  if (flagGuess) p.didYouMean = flagGuess;
  return { kind: 'problem', problem: p };
}
