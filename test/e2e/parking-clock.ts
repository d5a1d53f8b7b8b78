/**
 * A manual clock that counts the sleeps of one length parked on it now, so a test that moves
 * time on can wait until the loop that sleeps that long has done its pass and sleeps again.
 * The length must be one no other sleeper of the bot uses.
 */
import { createManualClock, type Clock, type ManualClock } from '../../src/clock.js';

export function createParkingClock(watchedMs: number): { manual: ManualClock; clock: Clock; parked: () => number } {
  const manual = createManualClock();
  let parked = 0;
  const clock: Clock = {
    now: () => manual.now(),
    sleep(ms, signal) {
      if (ms !== watchedMs) return manual.sleep(ms, signal);
      parked++;
      return manual.sleep(ms, signal).finally(() => parked--);
    },
  };
  return { manual, clock, parked: () => parked };
}
