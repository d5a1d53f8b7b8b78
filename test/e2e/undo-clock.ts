/**
 * The bot's clock for undo-window tests: a manual clock whose undo loop's sleeps (the only ones
 * of UNDO_TICK_MS: the watcher's interval is set apart) are counted, so a test moves time on and
 * then waits until the loop has done the pass it woke for and sleeps again.
 */
import { UNDO_TICK_MS } from '../../src/confirm/undo-window.js';
import { expect } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { createParkingClock } from './parking-clock.js';

export function createUndoClock() {
  const { manual, clock, parked } = createParkingClock(UNDO_TICK_MS);
  /** Until one undo loop sleeps (after a start or a restart). */
  const parkedLoop = (message = 'the undo loop to park') => waitFor(() => parked() === 1, { timeoutMs: 5000, message });
  /** Moves the bot's clock on and waits until the undo loop sleeps again. */
  async function advance(ms: number): Promise<void> {
    await manual.advance(ms);
    await parkedLoop('the undo loop to sleep again');
  }
  /**
   * A 30 s delay runs out in 10 s ticks: nothing is sent (`sent()` stays empty) until the last
   * one, `done` then waits for the change to be shown done, and one more pass sends nothing more.
   * Returns what was sent in the end.
   */
  async function delayRunsOut<T>(sent: () => T[], done: () => Promise<unknown>): Promise<T[]> {
    await advance(10_000);
    await advance(10_000);
    expect(sent()).toEqual([]);
    await advance(10_000);
    await done();
    await advance(10_000);
    return sent();
  }
  return { manual, clock, parkedLoop, advance, delayRunsOut };
}
