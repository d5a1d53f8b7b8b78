/**
 * A watch's polls after a restart (issue 24): the new process has no memory of the request that
 * started the watch, so a poll starts a trace of its own, linked to the request that made the
 * watch's change (the traceparent kept in the record's facts), read once per watch. Spans go
 * over the real OTLP/HTTP exporter to the test's receiver.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createMetrics, createTracing } from '../../../src/telemetry/index.js';
import { watchTraces } from '../../../src/runtime-telemetry.js';
import type { WatchRecord } from '../../../src/store/index.js';
import { startOtlpReceiver, type OtlpReceiver } from '../../rig/otlp-receiver.js';

let otlp: OtlpReceiver;
beforeAll(async () => (otlp = await startOtlpReceiver()));
afterAll(() => otlp.close());

const watch = (id: string, operationId: string | null) => ({ id, kind: 'worker', operationId }) as WatchRecord;

it('a poll after a restart is linked to the request that made the change; one read per watch, a failed read links nothing', async () => {
  const tracing = createTracing({ url: otlp.url, headers: {}, serviceName: 't', resource: {}, sampler: 'always_on', ratio: 1 });
  const t = { metrics: createMetrics(), tracing };
  const made = await tracing.root('slack command', {}, async () => tracing.traceparent()!);
  const reads: string[] = [];
  const facts: Record<string, Record<string, unknown>> = { op_made: { traceparent: made }, op_old: {} };
  const records = {
    get: async (id: string) => {
      reads.push(id);
      if (id === 'op_broken') throw new Error('store down');
      return { facts: facts[id]! };
    },
  };
  // A new process: nothing remembered.
  const traces = watchTraces(t, records);
  expect(await traces.poll([watch('w1', 'op_made')], async () => 'polled')).toBe('polled');
  await traces.poll([watch('w1', 'op_made')], async () => {});
  await traces.poll([watch('w2', 'op_old'), watch('w3', null)], async () => {});
  await traces.poll([watch('w4', 'op_broken')], async () => {});
  expect(reads).toEqual(['op_made', 'op_old', 'op_broken']);
  await tracing.flush();

  const [, traceId, spanId] = made.split('-');
  const polls = otlp.spans.filter((s) => s.name === 'watch poll');
  expect(polls).toHaveLength(4);
  for (const p of polls) expect(p.parentSpanId).toBeUndefined();
  expect(polls.map((p) => p.links)).toEqual([[{ traceId, spanId }], [{ traceId, spanId }], [], []]);
  expect(new Set(polls.map((p) => p.traceId)).size).toBe(4);
  await tracing.shutdown();
});
