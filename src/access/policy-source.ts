/**
 * Policy as code: the policy in force, reloaded from its file on SIGHUP and at an interval.
 * A file that fails to read or validate is refused with one message and the old policy stays
 * in force; a file that changed while it was read is read again shortly; every change of the
 * effective policy is reported (and audited by the caller), a widening of access as such.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { describePolicyChanges, describeWidenings } from './policy-diff.js';
import { PolicyFileChanging, PolicyFileError } from './policy-file.js';
import type { Policy } from './policy.js';

export type ReloadTrigger = 'signal' | 'interval';

export type ReloadOutcome =
  | { kind: 'unchanged' }
  | { kind: 'changed'; changes: string[]; widenings: string[] }
  | { kind: 'refused'; message: string }
  /** The file changed while it was read: nothing judged; read again after `retryMs`. */
  | { kind: 'changing'; message: string };

export interface PolicySource {
  current(): Policy;
  reload(trigger: ReloadTrigger): Promise<ReloadOutcome>;
}

export interface PolicySourceDeps {
  initial: Policy;
  /** Reads and validates the file again; throws PolicyFileError with every problem. Undefined: nothing to reload. */
  load?: () => Policy;
  /** Told of an accepted change before it takes effect (new accounts' clients, the audit entry); `widenings`: what it lets through that was not before. */
  onChange?: (next: Policy, changes: string[], trigger: ReloadTrigger, widenings: string[]) => Promise<void> | void;
  /** Told of a refused file (the audit entry). */
  onRefused?: (message: string, trigger: ReloadTrigger) => Promise<void> | void;
  logger: Logger;
  /** Waits before a file that was changing is read again (stopped by `signal`). */
  clock?: Clock;
  retryMs?: number;
  signal?: AbortSignal;
}

/** A save takes milliseconds; a file still changing after this many reads waits for the next reload. */
const RETRIES = 5;

export function createPolicySource(deps: PolicySourceDeps): PolicySource {
  let policy = deps.initial;
  let running: Promise<ReloadOutcome> | undefined;

  const retryMs = deps.retryMs ?? 500;

  function retryLater(trigger: ReloadTrigger, attempt: number): void {
    if (!deps.clock || attempt >= RETRIES) return;
    deps.clock.sleep(retryMs, deps.signal).then(
      () => queue(() => reload(trigger, attempt + 1)).catch((error: unknown) => deps.logger.error('policy reload failed', { error })),
      () => {}, // stopped
    );
  }

  async function reload(trigger: ReloadTrigger, attempt = 0): Promise<ReloadOutcome> {
    if (!deps.load) return { kind: 'unchanged' };
    let next: Policy;
    try {
      next = deps.load();
    } catch (e) {
      if (e instanceof PolicyFileChanging) {
        deps.logger.warn(`policy reload put off; the policy in force is unchanged. ${e.message}`, { trigger, attempt });
        retryLater(trigger, attempt);
        return { kind: 'changing', message: e.message };
      }
      if (!(e instanceof PolicyFileError)) throw e;
      deps.logger.error(`policy reload refused; the policy in force is unchanged. ${e.message}`, { trigger });
      await deps.onRefused?.(e.message, trigger);
      return { kind: 'refused', message: e.message };
    }
    const changes = describePolicyChanges(policy, next);
    if (!changes.length) return { kind: 'unchanged' };
    const widenings = describeWidenings(policy, next);
    await deps.onChange?.(next, changes, trigger, widenings);
    policy = next;
    if (widenings.length) deps.logger.warn('policy reloaded: it WIDENS access', { trigger, widenings, changes });
    else deps.logger.info('policy reloaded', { trigger, changes });
    return { kind: 'changed', changes, widenings };
  }

  // One reload at a time: a SIGHUP during the interval's reload waits for it.
  function queue(run: () => Promise<ReloadOutcome>): Promise<ReloadOutcome> {
    const next = (running ?? Promise.resolve()).then(run);
    running = next.catch(() => ({ kind: 'unchanged' }) as const);
    return next;
  }

  return {
    current: () => policy,
    reload: (trigger) => queue(() => reload(trigger)),
  };
}
