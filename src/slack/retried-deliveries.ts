/**
 * Retried deliveries (issue 21): when Slack thinks a request was lost it sends the very same
 * body again, marked `x-slack-retry-num` / `x-slack-retry-reason` over HTTP and `retry_attempt`
 * in a Socket Mode envelope (Bolt puts both in `context.retryNum`/`retryReason`). A retry of a
 * delivery this process already took is acked and goes no further, so `server credentials`
 * delivered four times shows the password once. Changes were never sent twice (their records
 * are keyed by the trigger id); this keeps reads, forms and Home from being answered twice too.
 *
 * A delivery is known by its `trigger_id` (every slash command and interaction carries a fresh
 * one) or, for an event, its `event_id`. Keys are remembered from the first delivery, for a
 * while longer than Slack goes on retrying, and at most MAX_REMEMBERED at once, per process:
 * a retry that lands on another replica is answered there (README › Other guarantees).
 */
import type { AnyMiddlewareArgs, Middleware } from '@slack/bolt';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';

/** Slack retries an HTTP delivery three times within about 5 minutes; kept twice as long. */
export const REMEMBER_MS = 10 * 60_000;
/** ~100 bytes each: about a megabyte at most, whatever the traffic. */
export const MAX_REMEMBERED = 10_000;

export interface DeliveryMemory {
  /** Remembers `key`; true when it was remembered already (a delivery seen before). */
  seen(key: string): boolean;
  size(): number;
}

export function createDeliveryMemory(clock: Pick<Clock, 'now'>, rememberMs = REMEMBER_MS, max = MAX_REMEMBERED): DeliveryMemory {
  // Insertion order is expiry order (one lifetime for all), so the oldest go first.
  const until = new Map<string, number>();
  return {
    seen(key) {
      const now = clock.now();
      for (const [k, expires] of until) {
        if (expires > now && until.size < max) break;
        until.delete(k);
      }
      if (until.has(key)) return true;
      until.set(key, now + rememberMs);
      return false;
    },
    size: () => until.size,
  };
}

/** What makes a delivery the same one: its trigger id, or an event's id. */
export function deliveryKey(body: unknown): string | undefined {
  const b = (body ?? {}) as { trigger_id?: unknown; event_id?: unknown };
  if (typeof b.event_id === 'string' && b.event_id) return `event:${b.event_id}`;
  if (typeof b.trigger_id === 'string' && b.trigger_id) return `trigger:${b.trigger_id}`;
  return undefined;
}

/** Global middleware: a retry of a delivery already taken is acked and dropped. */
export function skipRetriedDeliveries(deps: { clock: Pick<Clock, 'now'>; logger: Pick<Logger, 'info'> }): Middleware<AnyMiddlewareArgs> {
  const memory = createDeliveryMemory(deps.clock);
  return async (args) => {
    const key = deliveryKey(args.body);
    const { retryNum, retryReason } = args.context;
    if (key && memory.seen(key) && retryNum !== undefined && retryNum > 0) {
      // Events are acked by Bolt already; commands and interactions are acked here.
      const ack = (args as { ack?: () => Promise<void> }).ack;
      if (ack) await ack();
      deps.logger.info('retried delivery already taken; not answered again', { retryNum, retryReason, kind: key.slice(0, key.indexOf(':')) });
      return;
    }
    await args.next();
  };
}
