/**
 * A command as a person types it, written back from an entry's argument specs and parsed
 * arguments: what a cut list's note names for the next page (`/cloud sg show 7 --page 3`), so it
 * reads back, through tokenize.ts and parse-args.ts, as the same arguments with another page.
 */
import type { ListPaging, PageButtonValue } from '../views/pager.js';
import type { ArgSpec } from './types.js';

interface Typable {
  id: string;
  command: string;
  args: Record<string, ArgSpec>;
  pageArg?: string;
}

/** One word as typed: quoted when it holds a space or could be read as a flag or a quote. */
function word(value: string): string {
  if (value !== '' && !/[\s"'“”‘’]/.test(value) && !/^(--|[—–])/.test(value)) return value;
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

/** `/cloud sg show 7 --page 3`: positionals in order, then flags, then `--account` when given. */
export function commandText(op: Typable, args: Record<string, unknown>, account?: string): string {
  const words = [op.command];
  const flags: string[] = [];
  for (const [name, spec] of Object.entries(op.args)) {
    const v = args[name];
    if (v === undefined || v === null || v === false || spec.kind === 'modal') continue;
    if (spec.kind === 'switch') flags.push(`--${name}`);
    else if (spec.kind === 'flag') flags.push(`--${name}`, word(String(v)));
    else words.push(spec.kind === 'rest' ? String(v) : word(String(v)));
  }
  if (account !== undefined) flags.push('--account', word(account));
  return [...words, ...flags].join(' ');
}

/**
 * The paging of one answer of `op` (an entry with a `pageArg`). `named`: several accounts are
 * declared, so the command names the account the answer came from (the channel's may differ);
 * a button always carries it, as `buildPager`'s do.
 */
export function listPaging(op: Typable, args: Record<string, unknown>, where: { account?: string; named?: boolean }): ListPaging {
  const pageArg = op.pageArg ?? 'page';
  const raw = args[pageArg];
  const page = typeof raw === 'number' && Number.isInteger(raw) && raw >= 1 ? raw : 1;
  const at = (p: number) => ({ ...args, [pageArg]: p });
  return {
    page,
    command: (p) => commandText(op, at(p), where.named ? where.account : undefined),
    buttonValue: (p) => JSON.stringify({ op: op.id, args: at(p), ...(where.account ? { account: where.account } : {}) } satisfies PageButtonValue),
  };
}
