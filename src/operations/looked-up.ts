/**
 * What an operation looked up by id, so a NOT_FOUND can name it and the command that lists such
 * things (views/cloud-error-text.ts): read from the `lookup` of the operation's own arguments.
 */
import type { LookedUp } from '../views/cloud-error-text.js';
import type { AnyOperation, ArgSpec } from './types.js';

export function lookedUp(op: AnyOperation, args: Record<string, unknown>): LookedUp[] {
  const given = (name: string) => (args[name] === undefined || args[name] === null ? undefined : String(args[name]));
  const out: LookedUp[] = [];
  for (const [name, spec] of Object.entries(op.args) as [string, ArgSpec][]) {
    const value = given(name);
    if (spec.kind !== 'positional' || !spec.lookup || value === undefined) continue;
    const { what, listedBy, lists } = spec.lookup;
    // `/cloud backup list {server}` → the server as given, else its placeholder.
    out.push({ what, listedBy: listedBy.replace(/\{([\w-]+)\}/g, (_, n: string) => given(n) ?? `<${n}>`), lists, value });
  }
  return out;
}
