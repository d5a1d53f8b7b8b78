/**
 * Tracing off loads no SDK (issue 22's memory target): the tracer provider, the OTLP exporter and
 * the context manager are required only when an endpoint is configured. Checked in a fresh
 * process, whose module cache nothing else in the suite has filled.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const tracing = fileURLToPath(new URL('../../../src/telemetry/tracing.ts', import.meta.url));

/** The OpenTelemetry packages in the child's CommonJS cache after createTracing(config). */
function loadedWith(config: string): string[] {
  const script = `
    import { createRequire } from 'node:module';
    const { createTracing } = await import(${JSON.stringify(tracing)});
    const t = createTracing(${config});
    const loaded = Object.keys(createRequire(import.meta.url).cache).map((p) => /@opentelemetry\\/([^/]+)/.exec(p)?.[1]).filter(Boolean);
    console.log(JSON.stringify([...new Set(loaded)].sort()));
    await t.shutdown();`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}

describe('tracing and the SDK', () => {
  it('off: only the API is loaded; on: the SDK, the exporter and the context manager too', () => {
    const off = loadedWith('undefined');
    expect(off).not.toContain('sdk-trace');
    expect(off).not.toContain('exporter-trace-otlp-http');
    expect(off).not.toContain('context-async-hooks');
    const on = loadedWith(`{ url: 'http://127.0.0.1:9/v1/traces', headers: {}, serviceName: 'cloudbot', resource: {}, sampler: 'always_on', ratio: 1 }`);
    expect(on).toEqual(expect.arrayContaining(['sdk-trace', 'exporter-trace-otlp-http', 'context-async-hooks', 'resources']));
  });
});
