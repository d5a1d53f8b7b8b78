/**
 * `/cloud <resource> <verb> [args] [--flags]` → an operation and validated arguments, or a
 * problem that names the nearest command and its usage. Everything typed is checked here with
 * the operation's zod schema, before any request (DEVELOPERS "Bad input gets a clear message").
 */
import type { z } from 'zod';
import type { Catalog } from './catalog.js';
import { isOptional } from './define.js';
import { nearest } from './suggest.js';
import { TokenizeError, tokenize, type Token } from './tokenize.js';
import type { AnyOperation, ArgSpec } from './types.js';
import { join, md, val, type Mrkdwn } from '../views/mrkdwn.js';
import { words } from '../views/words.js';
import { inputMessage } from '../views/input-message.js';

export type ParsedCommand =
  | { kind: 'run'; op: AnyOperation; args: Record<string, unknown>; flagsGiven: boolean; dryRun: boolean }
  | { kind: 'help'; resource?: string }
  | { kind: 'problem'; problem: CommandProblem };

export interface CommandProblem {
  message: Mrkdwn;
  /** Operations whose usage to show (the nearest command, or every verb of a resource). */
  usage: AnyOperation[];
  /** A corrected command line to suggest, e.g. `/cloud server status 101`. */
  didYouMean?: string;
  /** The command was recognised but required arguments are missing (a modal may fill them). */
  missing?: { op: AnyOperation; given: Record<string, unknown>; names: string[] };
}

export function parseCommand(text: string, catalog: Catalog): ParsedCommand {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch (e) {
    if (e instanceof TokenizeError) return problem(md`A quote opened at ${val(e.opening)} is never closed.`, []);
    throw e;
  }
  const typed = tokens.map((t) => t.value);
  const [first, second] = typed;
  if (first === undefined || /^(help|-h|--help|\?)$/i.test(first)) {
    return { kind: 'help', ...(second ? { resource: second } : {}) };
  }

  const resource = catalog.resolveResource(first);
  if (!resource) {
    const guess = nearest(first, catalog.resourceWords());
    const resolved = guess ? catalog.resolveResource(guess) : undefined;
    return problem(md`I don't know ${val(first)}.`, resolved ? catalog.forResource(resolved) : [], guess && [guess, ...typed.slice(1)]);
  }
  const ops = catalog.forResource(resource);
  const defaultVerb = catalog.resources.find((r) => r.name === resource)?.defaultVerb;
  if (defaultVerb && (second === undefined || (second.startsWith('--') && !/^--help$/i.test(second)))) {
    return parseArgs(catalog.find(resource, defaultVerb)!, tokens.slice(1));
  }
  if (second === undefined || /^(help|-h|--help)$/i.test(second)) return { kind: 'help', resource };

  const op = catalog.find(resource, second);
  if (!op) {
    const guess = nearest(second, ops.map((o) => o.verb));
    const guessed = guess ? catalog.find(resource, guess) : undefined;
    return problem(
      md`${val(resource)} has no ${val(second)}.`,
      guessed ? [guessed] : ops,
      guess && [resource, guess, ...typed.slice(2)],
    );
  }
  return parseArgs(op, tokens.slice(2));
}

function parseArgs(op: AnyOperation, tokens: Token[]): ParsedCommand {
  const specs = Object.entries(op.args) as [string, ArgSpec][];
  const positionals = specs.filter(([, s]) => s.kind === 'positional' || s.kind === 'rest');
  const flags = new Map(specs.filter(([, s]) => s.kind === 'flag' || s.kind === 'switch'));
  const raw: Record<string, unknown> = {};
  const loose: string[] = [];
  let dryRun = false;

  for (let i = 0; i < tokens.length; i++) {
    const { value, quoted } = tokens[i]!;
    if (!quoted && value.startsWith('--') && value.length > 2) {
      const eq = value.indexOf('=');
      const name = value.slice(2, eq < 0 ? undefined : eq);
      // Every change may be rehearsed: show the exact request, send nothing.
      if (name === 'dry-run' && op.change && eq < 0) {
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
    const shown = (n: string) => (op.args[n]!.kind === 'flag' ? val(`--${n}`) : words(`<${op.args[n]!.placeholder}>`));
    return {
      kind: 'problem',
      problem: {
        message: md`${val(op.command)} needs ${join(missing.map(shown), md` and `)}.`,
        usage: [op],
        missing: { op, given: raw, names: missing },
      },
    };
  }

  const parsed = (op.schema as z.ZodType).safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const name = String(first.path[0] ?? '');
    const spec = op.args[name] as ArgSpec | undefined;
    const label = !spec ? md`Input` : spec.kind === 'flag' ? val(`--${name}`) : words(`<${spec.placeholder}>`);
    // The schemas' messages are our words; where they quote the input it becomes a value.
    return problem(md`${label}: ${inputMessage(first.message)}`, [op]);
  }
  const flagsGiven = Object.keys(raw).some((n) => flags.has(n));
  return { kind: 'run', op, args: parsed.data as Record<string, unknown>, flagsGiven, dryRun };
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
