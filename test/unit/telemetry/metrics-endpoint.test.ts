/** `/metrics` behind METRICS_TOKEN (issue 24), on the listener Socket Mode uses. */
import { afterEach, describe, expect, it } from 'vitest';
import { createMetrics, listenForMetrics, metricsHandler, type MetricsServer } from '../../../src/telemetry/index.js';

let server: MetricsServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('/metrics', () => {
  it('with a token: 401 without it, with another one, or with it in another scheme; 200 and the exposition with it', async () => {
    server = await listenForMetrics(metricsHandler(createMetrics(), 'token-0123456789abcdef'), 0);
    const url = `http://127.0.0.1:${server.port}/metrics`;
    const status = async (authorization?: string) => (await fetch(url, authorization ? { headers: { authorization } } : {})).status;
    expect(await status()).toBe(401);
    expect(await status('Bearer token-0123456789abcdeX')).toBe(401);
    expect(await status('Basic token-0123456789abcdef')).toBe(401);
    expect(await status('Bearer token-0123456789abcdef')).toBe(200);
    const res = await fetch(url, { headers: { authorization: 'Bearer token-0123456789abcdef' } });
    expect(await res.text()).toMatch(/^# HELP process_cpu_user_seconds_total/m);
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
  });

  it('without a token: open, like /healthz', async () => {
    server = await listenForMetrics(metricsHandler(createMetrics(), undefined), 0);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(200);
  });

  it('a port already taken is named by its variable', async () => {
    server = await listenForMetrics(metricsHandler(createMetrics(), undefined), 0);
    await expect(listenForMetrics(metricsHandler(createMetrics(), undefined), server.port)).rejects.toThrow(`METRICS_PORT ${server.port}: cannot listen for /metrics (listen EADDRINUSE`);
  });
});
