/** The tracer's edges (issue 24): off by default, outside a request nothing, and a stuck collector cannot hold a stop. */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTracing, linkFrom, noTracing } from '../../../src/telemetry/index.js';

const sockets: Socket[] = [];
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  for (const s of sockets) s.destroy();
  await close?.();
});

describe('tracing', () => {
  it('off without an endpoint: every call is its function, no ids for log lines', async () => {
    expect(createTracing(undefined)).toBe(noTracing);
    expect(await noTracing.span('x', {}, async (span) => span)).toBeUndefined();
    expect(noTracing.logFields()).toBeUndefined();
  });

  it('outside a request a child span is nothing; inside one, log fields name it', async () => {
    const tracing = createTracing({ url: 'http://127.0.0.1:9/v1/traces', headers: {}, serviceName: 't', resource: {}, sampler: 'always_on', ratio: 1 });
    expect(await tracing.span('store x', {}, async (span) => span)).toBeUndefined();
    expect(tracing.start('cloud x', {})).toBeUndefined();
    await tracing.root('slack command', {}, async (root) => {
      const ids = tracing.logFields()!;
      expect(ids.trace_id).toBe(root!.spanContext().traceId);
      await tracing.span('store x', {}, async (child) => {
        expect(child!.spanContext().traceId).toBe(ids.trace_id);
        expect(tracing.logFields()!.span_id).toBe(child!.spanContext().spanId);
      });
    });
    expect(tracing.logFields()).toBeUndefined();
    // Port 9 (discard) refuses: the export fails, and stop still ends.
    await tracing.shutdown();
  });

  it('a stored traceparent links a later send to the request that made it', async () => {
    expect(noTracing.traceparent()).toBeUndefined();
    expect(await noTracing.linked('x', {}, '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', async (span) => span)).toBeUndefined();
    for (const bad of [undefined, 42, '', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331', '00-00000000000000000000000000000000-b7ad6b7169203331-01', 'ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01 user text'])
      expect(linkFrom(bad), String(bad)).toBeUndefined();

    const tracing = createTracing({ url: 'http://127.0.0.1:9/v1/traces', headers: {}, serviceName: 't', resource: {}, sampler: 'always_on', ratio: 1 });
    const linksOf = (span: unknown) => (span as { links: { context: { traceId: string; spanId: string } }[] }).links.map((l) => l.context);
    expect(tracing.traceparent()).toBeUndefined();
    const made = await tracing.root('slack command', {}, async (root) => {
      const parent = tracing.traceparent()!;
      expect(parent).toBe(`00-${root!.spanContext().traceId}-${root!.spanContext().spanId}-01`);
      // In the trace it was made in, no link to itself.
      await tracing.linked('change execute', {}, parent, async (span) => expect(linksOf(span)).toEqual([]));
      return parent;
    });
    const [, traceId, spanId] = made.split('-');
    // A click's send: a child of the click, linked to the command.
    await tracing.root('slack click', {}, async (click) => {
      await tracing.linked('change execute', {}, made, async (span) => {
        expect(span!.spanContext().traceId).toBe(click!.spanContext().traceId);
        expect(linksOf(span)).toEqual([{ traceId, spanId, traceFlags: 1, isRemote: true }]);
      });
    });
    // The undo window's send, outside any request: a trace of its own, linked.
    await tracing.linked('change execute', {}, made, async (span) => {
      expect(span!.spanContext().traceId).not.toBe(traceId);
      expect(linksOf(span).map((l) => l.spanId)).toEqual([spanId]);
    });
    await tracing.shutdown();
  });

  it('a collector that takes the connection and never answers does not hold a stop', async () => {
    const server = createServer((s) => void sockets.push(s)); // reads nothing, answers nothing
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise<void>((resolve) => server.close(() => resolve()));
    const port = (server.address() as { port: number }).port;
    const tracing = createTracing({ url: `http://127.0.0.1:${port}/v1/traces`, headers: {}, serviceName: 't', resource: {}, sampler: 'always_on', ratio: 1 });
    await tracing.root('slack command', {}, async () => {});
    await tracing.shutdown(); // bounded (SHUTDOWN_FLUSH_MS, 2 s), well inside this test's timeout
    expect(sockets.length).toBeGreaterThan(0); // the export was attempted
  }, 8000); // the SDK's own bounds (30 s per export, 10 s per request) would not fit
});
