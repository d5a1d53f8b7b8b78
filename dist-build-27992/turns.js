/**
 * Turns of the event loop for post-ack work (issue 15). A step of work that follows an ack or
 * an I/O answer (a command's answer, a cloud answer's rendering, a watch poll's result) awaits
 * `nextTurn()` first; waiting steps are released one per loop iteration, so between two steps
 * the loop polls I/O and a request waiting for its ack is read and acked. Without it, 50 cloud
 * answers arriving together run back to back and an ack read in that turn waits for all of them.
 *
 * One queue per process on purpose: it shares out the one event loop, whoever runs on it.
 * `setImmediate` comes from node:timers so fake timers on the global never stall it.
 */
import { setImmediate } from 'node:timers';
const waiting = [];
let head = 0;
let scheduled = false;
function release() {
    const resolve = waiting[head];
    waiting[head++] = undefined;
    if (head === waiting.length) {
        waiting.length = 0;
        head = 0;
    }
    resolve?.();
    // Scheduled from inside an immediate, the next release runs on the next loop iteration,
    // after that iteration's poll phase.
    if (head < waiting.length)
        setImmediate(release);
    else
        scheduled = false;
}
/** Resolves on a later turn of the event loop, after the steps that asked before it (FIFO). */
export function nextTurn() {
    return new Promise((resolve) => {
        waiting.push(resolve);
        if (!scheduled) {
            scheduled = true;
            setImmediate(release);
        }
    });
}
/** Steps waiting for their turn (diagnostics). */
export const waitingTurns = () => waiting.length - head;
//# sourceMappingURL=turns.js.map