/**
 * Policy as code: the policy in force, reloaded from its file on SIGHUP and at an interval.
 * A file that fails to read or validate is refused with one message and the old policy stays
 * in force; every change of the effective policy is reported (and audited by the caller).
 */
import type { Logger } from '../log.js';
import { describePolicyChanges } from './policy-diff.js';
import { PolicyFileError } from './policy-file.js';
import type { Policy } from './policy.js';

export type ReloadTrigger = 'signal' | 'interval';

export type ReloadOutcome =
  | { kind: 'unchanged' }
  | { kind: 'changed'; changes: string[] }
  | { kind: 'refused'; message: string };

export interface PolicySource {
  current(): Policy;
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome>;
}

export interface PolicySourceDeps {
  initial: Policy;
  /** Reads and validates the file again; throws PolicyFileError with every problem. Undefined: nothing to reload. */
  load?: () => Policy;
  /** Told of an accepted change before it takes effect (new accounts' clients, the audit entry). */
  onChange?: (next: Policy, changes: string[], trigger: ReloadTrigger) => Promise<void> | void;
  /** Told of a refused file (the audit entry). */
  onRefused?: (message: string, trigger: ReloadTrigger) => Promise<void> | void;
  logger: Logger;
}

export function createPolicySource(deps: PolicySourceDeps): PolicySource {
  let policy = deps.initial;
  let running: Promise<ReloadOutcome> | undefined;

  async function reload(trigger: ReloadTrigger): Promise<ReloadOutcome> {
    if (!deps.load) return { kind: 'unchanged' };
    let next: Policy;
    try {
      next = deps.load();
    } catch (e) {
      if (!(e instanceof PolicyFileError)) throw e;
      deps.logger.error(`policy reload refused; the policy in force is unchanged. ${e.message}`, { trigger });
      await deps.onRefused?.(e.message, trigger);
      return { kind: 'refused', message: e.message };
    }
    const changes = describePolicyChanges(policy, next);
    if (!changes.length) return { kind: 'unchanged' };
    await deps.onChange?.(next, changes, trigger);
    policy = next;
    deps.logger.info('policy reloaded', { trigger, changes });
    return { kind: 'changed', changes };
  }

  return {
    current: () => policy,
    // One reload at a time: a SIGHUP during the interval's reload waits for it.
    reload(trigger) {
      const next = (running ?? Promise.resolve()).then(() => reload(trigger));
      running = next.catch(() => ({ kind: 'unchanged' }) as const);
      return next;
    },
  };
}
