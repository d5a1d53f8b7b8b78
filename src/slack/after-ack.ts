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
 */
import type { Logger } from '../log.js';
import { nextTurn } from '../turns.js';

export interface AfterAck {
  /** Runs `work` on a later turn, detached; `what` names it in the log if it fails. */
  run(what: string, work: () => Promise<void>): void;
  /** Resolves when no work is running (work started by work counts until it ends too). */
  idle(): Promise<void>;
  inFlight(): number;
}

export function createAfterAck(logger: Pick<Logger, 'error'>): AfterAck {
  let running = 0;
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
  return {
    run(what, work) {
      running++;
      void nextTurn().then(work).catch(logged(what)).finally(settle);
    },
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    inFlight: () => running,
  };
}
