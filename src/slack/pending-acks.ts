/**
 * Requests received and not yet acked. In Socket Mode the ack travels on the socket, so a stop
 * disconnects only once these went out (Slack then sends new requests to a replica that serves,
 * and no ack is lost with the connection); the answers after an ack use the Web API and
 * response_urls, which stay open through the drain.
 */
import type { ReceiverEvent } from '@slack/bolt';

/** Slack waits this long for an ack; past it an ack no longer matters. */
export const SLACK_ACK_MS = 3000;

export interface PendingAcks {
  /** Counts `event` until its ack is sent (its `ack` wrapped in place); call the result once it was processed. */
  track(event: ReceiverEvent): (failed: boolean) => void;
  /** Resolves once no request waits for its ack, or after `boundMs` (real time, as every bound on a stop). */
  sent(boundMs?: number): Promise<void>;
  pending(): number;
}

export function createPendingAcks(): PendingAcks {
  let pending = 0;
  const waiters: Array<() => void> = [];
  const settle = () => {
    if (--pending > 0) return;
    for (const wake of waiters.splice(0)) wake();
  };
  return {
    track(event) {
      pending++;
      let done = false;
      const release = () => {
        if (done) return;
        done = true;
        settle();
      };
      // In place, not a copy: the receiver acks this same object when processing failed.
      const ack = event.ack.bind(event);
      event.ack = async (response) => {
        try {
          await ack(response);
        } finally {
          release();
        }
      };
      // A failure may still be acked by the receiver's error handler, a few microtasks later.
      return (failed) => (failed ? void setImmediate(release) : release());
    },
    async sent(boundMs = SLACK_ACK_MS) {
      if (pending === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs).unref()))]);
      clearTimeout(timer);
    },
    pending: () => pending,
  };
}
