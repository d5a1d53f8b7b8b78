/**
 * Watches on the injected clock: one JumpClock is the bot's and the sandbox's, and the
 * watcher's loop is off (`watchLoop: false`), so a test makes each pass itself — the clock
 * jumps one interval (the sandbox's builds move with it), then the watcher ticks once. Nothing
 * waits for real time to let a build progress, and no pass happens that the test did not make.
 * Give builds a length real time cannot cover (minutes): then only the jumps move them.
 */
import type { WatchRecord } from '../../src/store/watch-store.js';
import { waitFor } from '../rig/wait-for.js';
import type { BotRig, JumpClock } from './bot-rig.js';

export interface WatchSteps {
  /**
   * An open watch that is due now: a change's watch once the change began it (it is held until
   * the change's own final edit is through), or one started by hand.
   */
  begun(): Promise<WatchRecord>;
  /** One pass at the current time (a watch due now gets its look). */
  tick(): Promise<void>;
  /** `n` intervals pass: each jumps the clock by one interval, then the watcher makes one pass. */
  step(n?: number): Promise<void>;
  /** Steps until `done` gives a value; throws after `max` intervals. */
  stepUntil<T>(done: () => T | Promise<T>, max?: number): Promise<Exclude<T, undefined | null | false>>;
}

export function watchSteps(get: () => BotRig, clock: JumpClock, intervalMs: number): WatchSteps {
  const tick = () => get().bot.watcher.tick();
  const step = async (n = 1) => {
    for (let i = 0; i < n; i++) {
      clock.jump(intervalMs);
      await tick();
    }
  };
  return {
    begun: () => waitFor(async () => (await get().store.watches.listOpen()).find((w) => w.nextPollAt <= clock.now()), { timeoutMs: 5000, message: 'no watch began' }),
    tick,
    step,
    async stepUntil(done, max = 20) {
      for (let i = 0; i < max; i++) {
        await step();
        const value = await done();
        if (value !== undefined && value !== null && value !== false) return value as never;
      }
      throw new Error(`still not done after ${max} watch intervals`);
    },
  };
}
