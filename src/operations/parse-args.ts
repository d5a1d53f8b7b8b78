/**
 * A recognised command's arguments: positionals, `--flag value`, `--flag=value` and switches,
 * each checked by the operation's zod schema before any request; missing required ones a form
 * may ask for; `--dry-run` on a change, `--help` on any command.
 */
import type { z } from 'zod';
import { isOptional } from './define.js';
import { nearest } from './suggest.js';
import type { Token } from './tokenize.js';
import type { AnyOperation, ArgSpec } from './types.js';
import { problem, type ParsedCommand } from './parsed-command.js';
import { join, md, val, type Mrkdwn } from '../views/mrkdwn.js';
import { words } from '../views/words.js';
import { inputMessage, plainIssue } from '../views/input-message.js';

export function parseArgs(op: AnyOperation, tokens: Token[]): ParsedCommand {
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
  return problem(argMessage(op, name, message), [op]);
}

/** `--flag: message` or `<placeholder>: message`, for an argument refused by its schema or its entry's check. */
export function argMessage(op: AnyOperation, name: string, message: string): Mrkdwn {
  const spec = op.args[name] as ArgSpec | undefined;
  const label = !spec ? md`Input` : spec.kind === 'flag' ? val(`--${name}`) : words(`<${spec.placeholder}>`);
  // The schemas' messages are our words; where they quote the input it becomes a value.
  return md`${label}: ${inputMessage(message)}`;
}

function flagList(flags: Map<string, ArgSpec>): Mrkdwn {
  return flags.size ? md` Its flags: ${join([...flags.keys()].map((f) => val(`--${f}`)), ', ')}.` : md` It takes no flags.`;
}
