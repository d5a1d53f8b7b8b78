/**
 * The same bot in Socket Mode: Bolt's SocketModeReceiver opens its connection through the
 * fake Web API (apps.connections.open → ws://127.0.0.1), receives a slash command envelope,
 * acks it, and answers through the response_url.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket, type FakeSocket } from '../rig/fake-socket.js';
import { slashCommandFields } from '../rig/payloads.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { waitFor } from '../rig/wait-for.js';
import { APP_TOKEN, BOT_TOKEN } from '../rig/workspace.js';
import { visibleText } from './bot-rig.js';

let sandbox: Sandbox;
let cloudServer: ListeningSandbox;
let slack: FakeSlack;
let socket: FakeSocket;
let responses: ResponseUrls;
let bot: Runtime;
let metricsPort: number | undefined;
const METRICS_TOKEN = 'socket-metrics-token-0123';

beforeAll(async () => {
  sandbox = createSandbox({ token: 'socket-mode-cloud-token' });
  cloudServer = await sandbox.listen();
  slack = await createFakeSlack();
  socket = await createFakeSocket({ slack });
  responses = await createResponseUrls();
  bot = createRuntime(
    {
      slack: { mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, signingSecret: undefined, port: 0, apiUrl: slack.url },
      cloud: { baseUrl: cloudServer.baseUrl, token: sandbox.token },
      databasePath: ':memory:',
      access: { config: { admins: [], operators: [], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined } },
      log: { sink: () => {} },
      telemetry: { metricsPort: 0, metricsToken: METRICS_TOKEN, traces: undefined },
    },
    { slackRetryConfig: webApi.retryPolicies.rapidRetryPolicy },
  );
  ({ metricsPort } = await bot.start());
  await socket.waitForConnection();
});

afterAll(async () => {
  await bot.stop();
  await socket.close();
  await cloudServer.close();
  await slack.close();
  await responses.close();
});

it('answers a slash command delivered over the socket', async () => {
  const responseUrl = responses.next();
  const ack = await socket.slashCommand(slashCommandFields({ text: 'server status 101', responseUrl }));
  expect(ack.envelope_id).toBeTruthy();
  const [post] = await waitFor(() => (responses.postsTo(responseUrl).length ? responses.postsTo(responseUrl) : undefined), { timeoutMs: 5000 });
  expect(visibleText(post!.body)).toMatch(/Server 101[\s\S]*running/);
  expect(sandbox.requests.map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /v2/servers/101/status']);
  expect(slack.callsTo('apps.connections.open')[0]?.token).toBe(APP_TOKEN);
});

it('serves /metrics on a listener of its own (METRICS_PORT), behind METRICS_TOKEN, with the socket command counted', async () => {
  expect(metricsPort).toBeGreaterThan(0);
  const url = `http://127.0.0.1:${metricsPort}/metrics`;
  expect((await fetch(url)).status).toBe(401);
  const res = await fetch(url, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  const body = await res.text();
  expect(body).toMatch(/^cloudbot_ack_seconds_count\{kind="command"\} [1-9]/m);
  expect(body).toMatch(/^cloudbot_cloud_requests_total\{endpoint="GET \/servers\/\{server\}\/status",status="200"\} 1$/m);
  expect((await fetch(`http://127.0.0.1:${metricsPort}/slack/events`)).status).toBe(404); // nothing else is served there
});
