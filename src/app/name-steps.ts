/**
 * The stateful name steps of a request, in the core: a name typed for an id becomes the id
 * before anything is shown, stored or sent (resolve-names.ts), and what an answer showed is
 * written down (the entry's `remember` hook, operations/remember.ts). Reads run them in
 * run-operation.ts; the change flow gets them as its `names` port (confirm/change-types.ts).
 */
import type { ChangeNames } from '../confirm/change-types.js';
import type { KnownResourceStore } from '../store/known-types.js';
import type { AnyOperation } from '../operations/types.js';
import { resolveNames } from './resolve-names.js';

/**
 * Records what an answer showed, without holding the answer: the store write runs on its own
 * and a failure is only logged (names are a convenience; the answer is what was asked for).
 */
export function rememberAnswer(
  known: Pick<KnownResourceStore, 'remember'> | undefined,
  op: Pick<AnyOperation, 'command' | 'remember'>,
  result: unknown,
  args: Record<string, unknown>,
  where: { account: string | null; now: number },
  onError: (error: unknown) => void,
): void {
  if (!known || !op.remember) return;
  try {
    // `via`: the command words (`server ips`), so `/cloud server known` can say which answer taught a name.
    const via = op.command.replace(/^\/cloud /, '');
    const entries = op.remember(result, args).map((e) => ({ ...e, via }));
    if (entries.length > 0) known.remember(where.account, entries, where.now).catch(onError);
  } catch (e) {
    onError(e);
  }
}

/** The change flow's name steps over the names seen so far (none: ids are still checked and typed). */
export function nameSteps(known?: KnownResourceStore): ChangeNames {
  return {
    resolve: (op, args, account) => resolveNames(known, op, args, account),
    remember: (op, result, args, where, onError) => rememberAnswer(known, op, result, args, where, onError),
  };
}
