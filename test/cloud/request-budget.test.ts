/** The shared request budget on a manual clock: rate, burst, FIFO, pause, abort. */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { createRequestBudget, defaultBurst } from '../../src/cloud/request-budget.js';

/** Lets granted promises settle without moving the clock. */
const settle = () => new Promise((r) => setImmediate(r));

describe('request budget', () => {
  it('lets a burst through at once, then the steady rate', async () => {
    const clock = createManualClock();
    const budget = createRequestBudget({ perMinute: 60, clock, burst: 3 });
    const granted: number[] = [];
    for (let i = 0; i < 6; i++) void budget.take().then(() => granted.push(clock.now()));
    await settle();
    expect(granted).toHaveLength(3);
    const t0 = clock.now();
    await clock.advance(999);
    expect(granted).toHaveLength(3);
    await clock.advance(1);
    expect(granted).toHaveLength(4);
    await clock.advance(2000);
    expect(granted.map((t) => t - t0)).toEqual([0, 0, 0, 1000, 2000, 3000]);
    expect(budget.stats()).toEqual({ taken: 6, waitedMs: 1000 + 2000 + 3000 });
  });

  it('keeps any minute within perMinute + burst, and perMinute on average', async () => {
    const clock = createManualClock();
    const budget = createRequestBudget({ perMinute: 120, clock });
    const burst = defaultBurst(120);
    expect(burst).toBe(10);
    const granted: number[] = [];
    let stop = false;
    // Ten eager pollers: the budget, not the callers, sets the pace.
    const poller = async () => {
      while (!stop) {
        await budget.take();
        granted.push(clock.now());
      }
    };
    const t0 = clock.now();
    for (let i = 0; i < 10; i++) void poller();
    for (let s = 0; s < 300; s++) await clock.advance(1000);
    stop = true;
    for (let start = t0; start + 60_000 <= t0 + 300_000; start += 5_000) {
      const inWindow = granted.filter((t) => t >= start && t < start + 60_000).length;
      expect(inWindow).toBeLessThanOrEqual(120 + burst);
    }
    const lastMinutes = granted.filter((t) => t >= t0 + 60_000 && t < t0 + 300_000).length;
    expect(lastMinutes / 4).toBeCloseTo(120, -1);
  });

  it('serves waiters first come, first served', async () => {
    const clock = createManualClock();
    const budget = createRequestBudget({ perMinute: 6, clock, burst: 1 });
    const order: string[] = [];
    await budget.take();
    for (const name of ['a', 'b', 'c', 'd']) void budget.take().then(() => order.push(name));
    for (let i = 0; i < 4; i++) await clock.advance(10_000);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    // A newcomer does not jump a queue that is waiting for tokens.
    void budget.take().then(() => order.push('e'));
    void budget.take().then(() => order.push('f'));
    await clock.advance(10_000);
    expect(order).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('pause holds every take until it ends, then resumes at the steady rate', async () => {
    const clock = createManualClock();
    const budget = createRequestBudget({ perMinute: 60, clock, burst: 5 });
    const t0 = clock.now();
    budget.pause(30_000);
    const granted: number[] = [];
    for (let i = 0; i < 3; i++) void budget.take().then(() => granted.push(clock.now() - t0));
    await clock.advance(29_999);
    expect(granted).toEqual([]);
    await clock.advance(1);
    expect(granted).toEqual([30_000]); // one at once, not the whole burst
    await clock.advance(2_000);
    expect(granted).toEqual([30_000, 31_000, 32_000]);
    // A shorter pause does not shorten a longer one.
    budget.pause(10_000);
    budget.pause(1_000);
    let late = false;
    void budget.take().then(() => (late = true));
    await clock.advance(9_999);
    expect(late).toBe(false);
    await clock.advance(1);
    expect(late).toBe(true);
  });

  it('a pause set while waiters are queued holds them too', async () => {
    const clock = createManualClock();
    const budget = createRequestBudget({ perMinute: 60, clock, burst: 1 });
    await budget.take();
    let done = false;
    void budget.take().then(() => (done = true));
    await clock.advance(500);
    budget.pause(5_000);
    await clock.advance(4_999);
    expect(done).toBe(false);
    await clock.advance(1);
    expect(done).toBe(true);
  });

  it('an aborted waiter rejects, leaves the queue, and costs no token', async () => {
    const clock = createManualClock();
    const budget = createRequestBudget({ perMinute: 60, clock, burst: 1 });
    await budget.take();
    const ac = new AbortController();
    const aborted = budget.take(ac.signal);
    let next = -1;
    const t0 = clock.now();
    void budget.take().then(() => (next = clock.now() - t0));
    ac.abort(new Error('stopped'));
    await expect(aborted).rejects.toThrow('stopped');
    await clock.advance(1000);
    expect(next).toBe(1000); // the token the aborted waiter would have had
    await expect(budget.take(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
    expect(budget.stats().taken).toBe(2);
  });

  it('refuses a budget that could never grant', () => {
    const clock = createManualClock();
    expect(() => createRequestBudget({ perMinute: 0, clock })).toThrow(RangeError);
    expect(() => createRequestBudget({ perMinute: 60, clock, burst: 0 })).toThrow(RangeError);
    expect(defaultBurst(6)).toBe(1);
    expect(createRequestBudget({ perMinute: 90, clock }).perMinute).toBe(90);
  });
});
