/**
 * Moves the workflow steps that wait (issue 23): every replica claims the due ones (a lease, as
 * watches), looks at each step's change and watch, and completes it once they have finished.
 * A step a stopped replica left — mid-start, mid-wait or mid-completion — is claimed here once
 * its lease ends, so a restart resumes every waiting step from the store.
 */
import { advanceStep, type StepDeps } from './run-step.js';

export interface StepDriver {
  /** One pass over the due steps (the loop calls it; tests call it with their clock). */
  tick(): Promise<number>;
  start(everyMs?: number): void;
  stop(): Promise<void>;
}

/** At most this many steps are moved per pass. */
const BATCH = 100;

export function createStepDriver(deps: StepDeps): StepDriver {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let running: Promise<number> = Promise.resolve(0);
  /** The loop's pass: none once stopping began, though passes were queued behind a slow one. */
  const pass = () => (stopped ? 0 : tick());
  const tick = async (): Promise<number> => {
    const due = await deps.steps.claimDue(deps.owner, deps.clock.now(), deps.leaseMs ?? 60_000, BATCH);
    for (const step of due) {
      await advanceStep(deps, step).catch((error: unknown) => deps.logger.error('a workflow step could not move', { step: step.executionId, error }));
    }
    return due.length;
  };
  return {
    tick: () => (running = running.then(tick, tick)),
    start(everyMs = deps.checkEveryMs ?? 10_000) {
      if (timer) return;
      stopped = false;
      timer = setInterval(() => {
        running = running.then(pass, pass).catch((error: unknown) => {
          deps.logger.error('workflow step pass failed', { error });
          return 0;
        });
      }, everyMs);
      timer.unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running.catch(() => 0);
    },
  };
}
