/**
 * The same bot in Socket Mode: Bolt's SocketModeReceiver opens its connection through the
 * fake Web API (apps.connections.open → ws://127.0.0.1), receives a slash command envelope,
 * acks it, and answers through the response_url.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import { createRuntime } from '../../src/runtime.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { createFakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket } from '../rig/fake-socket.js';
import { freePort } from '../rig/loopback.js';
import { slashCommandFields } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { APP_TOKEN, BOT_TOKEN } from '../rig/workspace.js';
import { visibleText } from './bot-rig.js';
import { healthcheck, parseDockerfile } from './dockerfile-steps.js';
import { startSocketRig, type SocketRig } from './socket-rig.js';

const REPO = new URL('../../', import.meta.url).pathname;
// The probe runs in a temporary folder (no stray .env), so tsx's loader is named by its full path.
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

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

it('answers /healthz and /readyz on that listener, open without the token: the container\'s HEALTHCHECK passes in Socket Mode', async () => {
  const base = `http://127.0.0.1:${rig.metricsPort}`;
  const health = await fetch(`${base}/healthz`);
  expect([health.status, await health.text()]).toEqual([200, 'ok']);
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ ready: true, checks: { store: 'ok', slack: 'ok' } });
  // The Dockerfile's own HEALTHCHECK command (dist/x.js is src/x.ts here), with a container's environment.
  const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
  const [cmd, ...args] = healthcheck(parseDockerfile(dockerfile).at(-1)!.steps.findLast((s) => s.op === 'HEALTHCHECK')!.args).command;
  expect(cmd).toBe('node');
  const argv = args.map((a) => (/^dist\/.+\.js$/.test(a) ? join(REPO, a.replace(/^dist\//, 'src/').replace(/\.js$/, '.ts')) : a));
  const cwd = mkdtempSync(join(tmpdir(), 'cloudbot-probe-'));
  try {
    const env = { PATH: process.env.PATH ?? '', PORT: '3000', SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_APP_TOKEN: APP_TOKEN, METRICS_PORT: String(rig.metricsPort) };
    // Not spawnSync: the bot answering the probe runs in this very process.
    const status = await new Promise<number | null>((resolve) => execFile(process.execPath, ['--import', TSX, ...argv], { cwd, env, timeout: 20_000 }, (e) => resolve(e ? (typeof e.code === 'number' ? e.code : null) : 0)));
    expect(status).toBe(0);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}, 30_000);

it('is not ready while its socket is not connected: /readyz answers 503 before Slack opened the connection, and again while it is recycled', async () => {
  const sandbox = createSandbox({ token: 'socket-ready-cloud-token' });
  const cloudServer = await sandbox.listen();
  const slack = await createFakeSlack();
  const socket = await createFakeSocket({ slack });
  const metricsPort = await freePort();
  const bot = createRuntime(
    {
      slack: { mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, signingSecret: undefined, port: 0, apiUrl: slack.url },
      cloud: { baseUrl: cloudServer.baseUrl, token: sandbox.token },
      databasePath: ':memory:',
      access: { config: { admins: [], operators: [], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined } },
      log: { sink: () => {} },
      telemetry: { metricsPort, metricsToken: undefined, traces: undefined },
    },
    { slackRetryConfig: webApi.retryPolicies.rapidRetryPolicy },
  );
  slack.hangNext('apps.connections.open'); // Slack has answered auth.test, not yet the socket's URL
  const started = bot.start();
  try {
    await waitFor(() => slack.callsTo('apps.connections.open').length > 0 || undefined, { timeoutMs: 5000 });
    const waiting = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
    expect(waiting.status).toBe(503);
    expect(((await waiting.json()) as { checks: Record<string, string> }).checks.slack).toMatch(/connecting/);
    slack.releaseHung();
    await started;
    await socket.waitForConnection();
    const ready = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { ready: true, checks: { store: 'ok', slack: 'ok' } }]);

    // Slack recycles the connection; until the client has opened a new one nothing can arrive.
    slack.hangNext('apps.connections.open');
    const opened = slack.callsTo('apps.connections.open').length;
    socket.requestDisconnect('refresh_requested');
    await waitFor(() => slack.callsTo('apps.connections.open').length > opened || undefined, { timeoutMs: 10_000 });
    const between = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
    expect(between.status).toBe(503);
    expect(((await between.json()) as { checks: Record<string, string> }).checks.slack).toBe('reconnecting to Slack (Socket Mode)');
    slack.releaseHung();
    await waitFor(async () => ((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).status === 200 ? true : undefined), { timeoutMs: 10_000 });
  } finally {
    slack.releaseHung();
    await started.catch(() => {});
    await bot.stop();
    await socket.close();
    await cloudServer.close();
    await slack.close();
  }
}, 20_000);

it('a stop leaves the socket once the requests already received are acked, and drains after (answers go through response_urls): Slack sends new requests elsewhere meanwhile', async () => {
  const own = await startSocketRig({ cloudToken: 'socket-stop-cloud-token' });
  try {
    // A request received and not acked yet when the stop begins: held before its listener by a middleware of the test's.
    let received = false;
    own.bot.app.use(async ({ body, next }) => {
      if ((body as { text?: unknown }).text === 'server status 102') {
        received = true;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await next();
    });
    own.sandbox.addFault({ method: 'GET', path: '/servers/101/status', latencyMs: 1500 }); // the first answer waits on a slow cloud
    const first = own.responses.next();
    await own.socket.slashCommand(slashCommandFields({ text: 'server status 101', responseUrl: first }));
    await waitFor(() => own.sandbox.requests.some((r) => r.path === '/servers/101/status') || undefined, { timeoutMs: 5000 });
    const second = own.responses.next();
    const late = own.socket.push('slash_commands', slashCommandFields({ text: 'server status 102', responseUrl: second }));
    await waitFor(() => received || undefined, { timeoutMs: 5000 });

    const stopped = own.bot.stop();
    await waitFor(() => own.socket.openConnections() === 0 || undefined, { timeoutMs: 5000 });
    expect(own.socket.acks.map((a) => a.envelope_id)).toContain(late.envelope_id); // its ack went out first
    expect(own.responses.postsTo(first)).toEqual([]); // off the socket while the first answer is still under way
    await stopped;
    expect(visibleText(own.responses.postsTo(first).at(-1)!.body)).toMatch(/Server 101[\s\S]*running/); // answered through its response_url
    expect(visibleText(own.responses.postsTo(second).at(-1)!.body)).toMatch(/Server 102/); // taken before the stop: served
  } finally {
    await own.close();
  }
}, 20_000);
