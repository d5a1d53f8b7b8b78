/**
 * Work a listener does after its ack, detached from Bolt's listener promise (issue 15).
 *
 * While a listener's promise is pending, Bolt's receiver keeps the request, the response, the
 * raw body and the whole event context alive. A command waiting a second for the cloud held
 * them through every scavenge in that second; with 500 commands in flight the scavenges grew
 * into pauses of 5-19 ms that every ack waited behind (profiled: ~10 KB kept per command in
 * flight, ~2 KB once detached). Detached, the listener returns at its ack and only what the
 * work itself uses stays reachable.
 *
 * The work waits one turn first (turns.ts: acks already read go out first), is counted so the
 * shell can wait for a reply to finish and stop can drain it, and never rejects: a failure that
 * escapes the work's own handling is logged.
 *
 * Work in flight is bounded (issue 21): at most `running` pieces run at once and `waiting` wait
 * for a place. Work given a `busy` answer (a slash command) is shed — answered "busy, try again"
 * and never started — when the queue is full or the heap is past `heapShare` of its limit, so a
 * burst costs a short answer each instead of memory without bound. Work without one (a click
 * on a record, Home) is never dropped: it waits its turn.
 *
 * The heap share agrees with `npm start`'s `--max-old-space-size=256` (a limit of 304 MB with
 * the young generation): shedding starts at ~182 MB, ~4x the ~45 MB the bot's heap peaks at
 * with 1,000 watches, and leaves ~74 MB of the old space for the work already admitted; at
 * 70% only ~43 MB was left. test/slack/heap-headroom.test.ts holds both sides.
 *
 * The counts are sized for bursts, not to cap memory: a command waiting on the cloud holds
 * ~2 KB once detached from Bolt (bench/results.md, issue 15) and its text is capped at 4,000
 * characters, so 256 running and 1,024 waiting is a few MB. The bench's ack rounds send 500
 * commands within a second, each answered 1 s later; 64 running had them queue for 8 s.
 */
import { getHeapStatistics } from 'node:v8';
import { nextTurn } from '../turns.js';
const v8HeapUsed = () => {
    const h = getHeapStatistics();
    return h.used_heap_size / h.heap_size_limit;
};
export function createAfterAck(logger, limits = {}) {
    const maxRunning = limits.running ?? 256;
    const maxWaiting = limits.waiting ?? 1024;
    const heapUsed = limits.heapUsed ?? v8HeapUsed;
    const heapShare = limits.heapShare ?? 0.6;
    let running = 0;
    let active = 0;
    let shedding = false;
    const queue = [];
    let waiters = [];
    const settle = () => {
        if (--running > 0)
            return;
        const woken = waiters;
        waiters = [];
        for (const wake of woken)
            wake();
    };
    const logged = (what) => (error) => {
        try {
            logger.error('work after an ack failed', { what, error });
        }
        catch {
            // a broken logger must not leave a rejection unhandled
        }
    };
    const start = (what, work) => {
        active++;
        void nextTurn()
            .then(work)
            .catch(logged(what))
            .finally(() => {
            active--;
            queue.shift()?.();
            settle();
        });
    };
    const shouldShed = () => queue.length >= maxWaiting || heapUsed() >= heapShare;
    return {
        run(what, work, busy) {
            running++;
            if (busy && shouldShed()) {
                if (!shedding) {
                    shedding = true;
                    try {
                        logger.warn?.('busy: shedding new requests until work under way drains', { what, running: active, waiting: queue.length, heapShare: Number(heapUsed().toFixed(2)) });
                    }
                    catch {
                        // as above
                    }
                }
                void nextTurn().then(busy).catch(logged(what)).finally(settle);
                return;
            }
            if (busy)
                shedding = false;
            if (active < maxRunning)
                start(what, work);
            else
                queue.push(() => start(what, work));
        },
        idle: () => (running === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
        inFlight: () => running,
    };
}
//# sourceMappingURL=after-ack.js.map