/**
 * Turns of the event loop for post-ack work (issue 15). A step of work that follows an ack or
 * an I/O answer (a command's answer, a cloud answer's rendering, a watch poll's result) awaits
 * `nextTurn()` first; waiting steps are released at most STEPS_PER_TURN per loop iteration, so
 * between every few steps the loop polls I/O and a request waiting for its ack is read and
 * acked. Without it, 50 cloud answers arriving together run back to back and an ack read in
 * that turn waits for all of them. Not one per iteration: each turn of the loop has a fixed
 * cost (a poll, the phases), and a step per turn made it most of a cloud call's CPU (client
 * overhead bench: the client's CPU per GET 1.6x raw undici's with one, 1.08x with four, 1.03x
 * with eight); four keep an ack's wait at a few short steps.
 *
 * One queue per process on purpose: it shares out the one event loop, whoever runs on it.
 * `setImmediate` comes from node:timers so fake timers on the global never stall it.
 */
import { setImmediate } from 'node:timers';

/** Steps released in one turn of the loop at most; then the loop polls I/O (reads acks) again. */
export const STEPS_PER_TURN = 4;

const waiting: Array<() => void> = [];
let head = 0;
let pumpQueued = false;

/**
 * One immediate per turn, not one per waiting step: it releases the first STEPS_PER_TURN and,
 * if more wait, queues itself for the next turn (after the loop polled I/O). An immediate per
 * step that re-queued itself when its turn was full made 50 waiting steps cost ~300 immediates.
 */
function pump(): void {
  pumpQueued = false;
  const end = Math.min(waiting.length, head + STEPS_PER_TURN);
  while (head < end) {
    const resolve = waiting[head]!;
    waiting[head++] = undefined as unknown as () => void;
    resolve();
  }
  if (head === waiting.length) {
    waiting.length = 0;
    head = 0;
    return;
  }
  // A queue that never empties under steady load drops its released slots now and then.
  if (head >= 1024 && head * 2 >= waiting.length) {
    waiting.splice(0, head);
    head = 0;
  }
  pumpQueued = true;
  setImmediate(pump);
}

/** Resolves on a later turn of the event loop, after the steps that asked before it (FIFO). */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (pumpQueued) return;
    pumpQueued = true;
    setImmediate(pump);
  });
}

/** Steps waiting for their turn (diagnostics). */
export const waitingTurns = (): number => waiting.length - head;
