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
 * The heap share agrees with `npm start`'s `--max-old-space-size=256 --max-semi-space-size=8`
 * (a limit of 280 MB with the young generation): shedding starts at ~168 MB, over 3x the
 * 45-52 MB the bot's heap peaks at with 1,000 watches, and leaves ~88 MB of the old space for the
 * work already admitted. test/slack/heap-headroom.test.ts holds both sides.
 *
 * The counts are sized for bursts, not to cap memory: a command waiting on the cloud holds
 * ~2 KB once detached from Bolt (bench/results.md, issue 15) and its text is capped at 4,000
 * characters, so 256 running and 1,024 waiting is a few MB. The bench's ack rounds send 500
 * commands within a second, each answered 1 s later; 64 running had them queue for 8 s.
 */
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from '../log.js';
import { nextTurn } from '../turns.js';

export interface AfterAck {
  /**
   * Runs `work` on a later turn, detached; `what` names it in the log if it fails. With `busy`,
   * the work may be shed under load: `busy` (a short answer) runs instead.
   */
  run(what: string, work: () => Promise<void>, busy?: () => Promise<void>): void;
  /** Resolves when no work is running (work started by work counts until it ends too). */
  idle(): Promise<void>;
  inFlight(): number;
}

export interface AfterAckLimits {
  /** Pieces of work running at once (default 256: a burst of 500 commands drains in ~2 cloud answers). */
  running?: number;
  /** Pieces waiting for a place; beyond this, sheddable work is shed (default 1,024). */
  waiting?: number;
  /** Share of the heap limit in use now, 0…1 (default: V8's own figures). */
  heapUsed?: () => number;
  /** At or above this share of the heap limit, sheddable work is shed (default 0.6). */
  heapShare?: number;
}

/** Telemetry (issue 24): the request's trace carried into the work, and how long the work took. */
export interface AfterAckHooks {
  /** Binds work to the trace context in force at the ack (work may start later, from a queue). */
  bind?: (work: () => Promise<void>) => () => Promise<void>;
  /** The work (or its busy answer) ended, `seconds` after the listener handed it over at its ack. */
  done?: (what: string, seconds: number) => void;
}

const v8HeapUsed = (): number => {
  const h = getHeapStatistics();
  return h.used_heap_size / h.heap_size_limit;
};

export function createAfterAck(logger: Pick<Logger, 'error'> & Partial<Pick<Logger, 'warn'>>, limits: AfterAckLimits = {}, hooks: AfterAckHooks = {}): AfterAck {
  const maxRunning = limits.running ?? 256;
  const maxWaiting = limits.waiting ?? 1024;
  const heapUsed = limits.heapUsed ?? v8HeapUsed;
  const heapShare = limits.heapShare ?? 0.6;
  let running = 0;
  let active = 0;
  let shedding = false;
  const queue: Array<() => void> = [];
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (--running > 0) return;
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  const logged = (what: string) => (error: unknown) => {
    try {
      logger.error('work after an ack failed', { what, error });
    } catch {
      // a broken logger must not leave a rejection unhandled
    }
  };
  const start = (what: string, work: () => Promise<void>) => {
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
  const { bind, done } = hooks;
  /** The piece, carried in the request's trace and timed (each only when asked for). */
  const observed = (what: string, piece: () => Promise<void>): (() => Promise<void>) => {
    const bound = bind ? bind(piece) : piece;
    if (!done) return bound;
    const t0 = performance.now();
    return () => bound().finally(() => done(what, (performance.now() - t0) / 1000));
  };
  return {
    run(what, piece, busy) {
      running++;
      if (busy && shouldShed()) {
        if (!shedding) {
          shedding = true;
          try {
            logger.warn?.('busy: shedding new requests until work under way drains', { what, running: active, waiting: queue.length, heapShare: Number(heapUsed().toFixed(2)) });
          } catch {
            // as above
          }
        }
        void nextTurn().then(observed(what, busy)).catch(logged(what)).finally(settle);
        return;
      }
      if (busy) shedding = false;
      const work = observed(what, piece);
      if (active < maxRunning) start(what, work);
      else queue.push(() => start(what, work));
    },
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    inFlight: () => running,
  };
}
