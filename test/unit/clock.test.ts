/**
 * The clocks' sleeps on a long-lived signal (the runtime's stop signal, which the undo window's
 * loop passes to every sleep): a sleep that ends must take its abort listener with it, or the
 * signal collects one per pass (MaxListenersExceededWarning, and memory that grows with time).
 */
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createManualClock, systemClock } from '../../src/clock.js';

describe('a sleep that ends leaves no listener on its signal', () => {
  it('the manual clock: 20 sleeps woken by advance, then none left; an abort still ends a waiting one', async () => {
    const clock = createManualClock();
    const stop = new AbortController();
    for (let i = 0; i < 20; i++) {
      const slept = clock.sleep(1000, stop.signal);
      await clock.advance(1000);
      await slept;
    }
    await clock.sleep(0, stop.signal); // due at once
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    const waiting = clock.sleep(1000, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(clock.pendingSleeps()).toBe(0);
  });

  it('the system clock: 20 short sleeps, then none left', async () => {
    const stop = new AbortController();
    for (let i = 0; i < 20; i++) await systemClock.sleep(0, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
