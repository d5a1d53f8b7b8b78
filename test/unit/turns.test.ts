import { createHook } from 'node:async_hooks';
import { setImmediate as immediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { nextTurn, STEPS_PER_TURN, waitingTurns } from '../../src/turns.js';

describe('nextTurn', () => {
  it('releases waiting steps first in, first out', async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => nextTurn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(waitingTurns()).toBe(0);
  });

  it('releases at most STEPS_PER_TURN steps per turn of the loop, so other work runs between groups of steps', async () => {
    const order: string[] = [];
    const names = Array.from({ length: 2 * STEPS_PER_TURN + 1 }, (_, i) => `s${i + 1}`);
    const steps = names.map((s) => nextTurn().then(() => void order.push(s)));
    // Queued after the steps, and again from inside itself: it runs on the next turns.
    let others = 0;
    const other = () => {
      order.push(`other${++others}`);
      if (others < 3) immediate(other);
    };
    immediate(other);
    await Promise.all(steps);
    await new Promise((r) => immediate(r));
    // All released at once, every step would come before other1.
    const k = STEPS_PER_TURN;
    expect(order).toEqual([...names.slice(0, k), 'other1', ...names.slice(k, 2 * k), 'other2', names[2 * k], 'other3']);
    expect(waitingTurns()).toBe(0);
  });

  it('a step queued by a step runs on a later turn', async () => {
    const order: string[] = [];
    let inner: Promise<void> | undefined;
    const outer = nextTurn().then(() => {
      order.push('outer');
      inner = nextTurn().then(() => void order.push('inner'));
    });
    immediate(() => order.push('other'));
    await outer;
    await inner;
    expect(order).toEqual(['outer', 'other', 'inner']);
  });

  it('takes one immediate per turn, not one per waiting step', async () => {
    let immediates = 0;
    const hook = createHook({ init: (_id, type) => void (type === 'Immediate' && immediates++) }).enable();
    const steps = 50;
    await Promise.all(Array.from({ length: steps }, () => nextTurn()));
    hook.disable();
    // An immediate per step that re-queued itself while its turn was full took 50 + 46 + 42 + … here.
    expect(immediates).toBe(Math.ceil(steps / STEPS_PER_TURN));
    expect(waitingTurns()).toBe(0);
  });

  it('keeps releasing in order while steps keep coming, past the point where it drops released slots', async () => {
    const order: number[] = [];
    let n = 0;
    // Each released step queues two more until 3,000 have been asked for: the queue never empties for long.
    const step = (i: number): Promise<void> =>
      nextTurn().then(async () => {
        order.push(i);
        const more: Promise<void>[] = [];
        for (let k = 0; k < 2 && n < 3000; k++) more.push(step(n++));
        await Promise.all(more);
      });
    await step(n++);
    expect(order).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(waitingTurns()).toBe(0);
  });
});
