import { setImmediate as immediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { nextTurn, waitingTurns } from '../../src/turns.js';

describe('nextTurn', () => {
  it('releases waiting steps first in, first out', async () => {
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((n) => nextTurn().then(() => order.push(n))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(waitingTurns()).toBe(0);
  });

  it('releases one step per turn of the loop, so other work runs between two steps', async () => {
    const order: string[] = [];
    const steps = ['a', 'b', 'c'].map((s) => nextTurn().then(() => void order.push(s)));
    // Queued after the steps, and again from inside itself: it runs on the next turns.
    let others = 0;
    const other = () => {
      order.push(`other${++others}`);
      if (others < 3) immediate(other);
    };
    immediate(other);
    await Promise.all(steps);
    await new Promise((r) => immediate(r));
    // All released at once, a, b and c would come before other1.
    expect(order).toEqual(['a', 'other1', 'b', 'other2', 'c', 'other3']);
  });
});
