/**
 * Every Slack request as the ops team sees it (issue 24): its ack timed by kind, and, when
 * tracing is on, a server span that is the root of the request's trace; the listeners' work
 * after the ack is carried in it (after-ack.ts hooks). The ack path pays one clock read and one
 * histogram observe; the span's attributes are the request's kind only, never its text or ids.
 */
import { performance } from 'node:perf_hooks';
import type { ReceiverEvent } from '@slack/bolt';
import { SpanKind } from '@opentelemetry/api';
import { requestKind, type Telemetry } from '../telemetry/index.js';

export function observeRequest(t: Telemetry, event: ReceiverEvent, next: (event: ReceiverEvent) => Promise<void>): Promise<void> {
  const kind = requestKind(event.body);
  const t0 = performance.now();
  let acked = false;
  const observed: ReceiverEvent = {
    ...event,
    ack: async (response?: unknown) => {
      const sent = await event.ack(response);
      if (!acked) {
        acked = true;
        t.metrics.ack(kind, (performance.now() - t0) / 1000);
      }
      return sent;
    },
  };
  if (!t.tracing.on) return next(observed);
  return t.tracing.root(`slack ${kind}`, { kind: SpanKind.SERVER, attributes: { 'cloudbot.request.kind': kind } }, () => next(observed));
}
