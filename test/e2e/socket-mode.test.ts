/**
 * The same bot in Socket Mode: Bolt's SocketModeReceiver opens its connection through the
 * fake Web API (apps.connections.open → ws://127.0.0.1), receives a slash command envelope,
 * acks it, and answers through the response_url.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { slashCommandFields } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { APP_TOKEN } from '../rig/workspace.js';
import { visibleText } from './bot-rig.js';
import { startSocketRig, type SocketRig } from './socket-rig.js';

let rig: SocketRig;
const METRICS_TOKEN = 'socket-metrics-token-0123';
beforeAll(async () => {
  rig = await startSocketRig({ cloudToken: 'socket-mode-cloud-token', telemetry: { metricsPort: 0, metricsToken: METRICS_TOKEN, traces: undefined } });
});
afterAll(async () => {
  await rig?.close();
});

it('answers a slash command delivered over the socket', async () => {
  const responseUrl = rig.responses.next();
  const ack = await rig.socket.slashCommand(slashCommandFields({ text: 'server status 101', responseUrl }));
  expect(ack.envelope_id).toBeTruthy();
  const [post] = await waitFor(() => (rig.responses.postsTo(responseUrl).length ? rig.responses.postsTo(responseUrl) : undefined), { timeoutMs: 5000 });
  expect(visibleText(post!.body)).toMatch(/Server 101[\s\S]*running/);
  expect(rig.sandbox.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /v2/servers/101/status']);
  expect(rig.slack.callsTo('apps.connections.open')[0]?.token).toBe(APP_TOKEN);
});

it('serves /metrics on a listener of its own (METRICS_PORT), behind METRICS_TOKEN, with the socket command counted', async () => {
  expect(rig.metricsPort).toBeGreaterThan(0);
  const url = `http://127.0.0.1:${rig.metricsPort}/metrics`;
  expect((await fetch(url)).status).toBe(401);
  const res = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const body = await res.text();
  expect(body).toMatch(/^cloudbot_ack_seconds_count\{kind="command"\} [1-9]/m);
  expect(body).toMatch(/^cloudbot_cloud_requests_total\{endpoint="GET \/servers\/\{server\}\/status",status="200"\} 1$/m);
  expect((await fetch(`http://127.0.0.1:${rig.metricsPort}/slack/events`)).status).toBe(404); // nothing else is served there
});
