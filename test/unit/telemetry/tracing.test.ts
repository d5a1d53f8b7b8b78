/** The tracer's edges (issue 24): off by default, outside a request nothing, and a stuck collector cannot hold a stop. */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTracing, noTracing } from '../../../src/telemetry/index.js';

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
