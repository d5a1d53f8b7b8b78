/**
 * A button that names a read (a page of a list, a Home tab read): its value is read again like
 * typed input (button-value.ts), and the read is checked, run and audited as a typed command
 * would be — the role may have changed since the button was drawn. The answer comes back as
 * work for the surface to deliver; the check is part of it, so a failure there is answered
 * like one in the operation.
 */
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import { readButtonValue } from './button-value.js';
import { admit, type GuardDeps } from './guard.js';
import { runOperation, type Actor, type RunDeps } from './run-operation.js';

export interface ButtonDeps extends RunDeps, GuardDeps {
  catalog: Catalog;
}

/** `unreadable`: the value names no operation this button may run; nothing was done. */
export type ButtonAnswer = { kind: 'unreadable' } | { kind: 'work'; what: string; reply: Promise<Reply> };

/** Runs the read a button names, if `accepts` it (the surface says which reads its buttons draw). */
export function runButton(deps: ButtonDeps, value: string | undefined, actor: Actor, accepts: (op: AnyOperation) => boolean): ButtonAnswer {
  const run = readButtonValue(value, deps.catalog);
  if (!run || !accepts(run.op)) return { kind: 'unreadable' };
  // The account the button was drawn for (`--account`), checked like the typed flag.
  const { op, args, account } = run;
  const reply = admit(deps, op, actor.userId, actor.channelId, {}, account).then(async (admitted) =>
    admitted.ok ? (await runOperation(deps, op, args, actor, admitted.account)).reply : admitted.reply,
  );
  return { kind: 'work', what: op.command, reply };
}
