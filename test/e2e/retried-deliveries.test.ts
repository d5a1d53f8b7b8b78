/**
 * Retried deliveries (issue 21, item 6): Slack re-sends a request it thinks was lost with
 * `x-slack-retry-num` (HTTP) or `retry_attempt` (Socket Mode), with the very same body. A retry
 * of a delivery the bot already took is acked and not answered again, so a read of a secret is
 * shown once, however often it is delivered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webApi } from '@slack/bolt';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket, type FakeSocket } from '../rig/fake-socket.js';
import { appHomeOpenedEnvelope, slashCommandFields } from '../rig/payloads.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { triggerId as newTriggerId } from '../rig/ids.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, APP_TOKEN, BOT_TOKEN } from '../rig/workspace.js';

const retry = (n: number) => ({ headers: { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' } });

describe('over HTTP', () => {
  let rig: BotRig;
  beforeAll(async () => {
    rig = await startBotRig();
  });
  afterAll(async () => {
    await rig?.close();
  });

  it('`server credentials` delivered four times shows the password once and reads it once', async () => {
    const responseUrl = rig.responses.next();
    const input = { userId: ALICE.id, responseUrl, triggerId: newTriggerId() };
    await rig.sendCommand('server credentials 101', input);
    const [first] = await waitFor(() => (rig.responses.postsTo(responseUrl).length ? rig.responses.postsTo(responseUrl) : undefined), { timeoutMs: 10_000 });
    const root = rig.sandbox.state.servers.find((s) => s.id === 101)!.rootPassword!;
    expect(visibleText(first!.body)).toContain(root);
    for (const n of [1, 2, 3]) expect((await rig.sendCommand('server credentials 101', input, retry(n))).status).toBe(200);
    await rig.bot.settled();
    expect(rig.responses.postsTo(responseUrl)).toHaveLength(1);
    expect(rig.sandbox.requests.filter((q) => q.path.endsWith('/credentials'))).toHaveLength(1);
    expect(rig.logLines.some((l) => l.includes('retried delivery') && l.includes('http_timeout'))).toBe(true);
  });

  it('a retry while the first delivery is still being answered is not answered as well', async () => {
    rig.sandbox.setLatency(300);
    const responseUrl = rig.responses.next();
    const input = { userId: ALICE.id, responseUrl, triggerId: newTriggerId() };
    await rig.sendCommand('server status 101', input);
    await rig.sendCommand('server status 101', input, retry(1));
    await rig.bot.settled();
    rig.sandbox.setLatency(0);
    expect(rig.responses.postsTo(responseUrl)).toHaveLength(1);
  });

  it('a retry of a delivery the bot never took is answered', async () => {
    const responseUrl = rig.responses.next();
    await rig.sendCommand('server status 101', { responseUrl, triggerId: newTriggerId() }, retry(1));
    const [post] = await waitFor(() => (rig.responses.postsTo(responseUrl).length ? rig.responses.postsTo(responseUrl) : undefined), { timeoutMs: 10_000 });
    expect(visibleText(post!.body)).toMatch(/Server 101/);
  });

  it('an event delivered again (same event_id) is handled once: App Home is published once', async () => {
    const envelope = appHomeOpenedEnvelope({ userId: ALICE.id });
    const before = rig.slack.callsTo('views.publish').length;
    await rig.send.event(envelope);
    await waitFor(() => rig.slack.callsTo('views.publish').length > before, { timeoutMs: 10_000 });
    expect((await rig.send.event(envelope, retry(1))).status).toBe(200);
    await rig.bot.settled();
    expect(rig.slack.callsTo('views.publish').length).toBe(before + 1);
  });
});

describe('over Socket Mode', () => {
  let sandbox: Sandbox;
  let cloudServer: ListeningSandbox;
  let slack: FakeSlack;
  let socket: FakeSocket;
  let responses: ResponseUrls;
  let bot: Runtime;
  beforeAll(async () => {
    sandbox = createSandbox({ token: 'retry-socket-cloud-token' });
    cloudServer = await sandbox.listen();
    slack = await createFakeSlack();
    socket = await createFakeSocket({ slack });
    responses = await createResponseUrls();
    bot = createRuntime(
      {
        slack: { mode: 'socket', botToken: BOT_TOKEN, appToken: APP_TOKEN, signingSecret: undefined, port: 0, apiUrl: slack.url },
        cloud: { baseUrl: cloudServer.baseUrl, token: sandbox.token },
        databasePath: ':memory:',
        access: { config: { admins: [ALICE.id], operators: [], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined } },
        log: { sink: () => {} },
      },
      { slackRetryConfig: webApi.retryPolicies.rapidRetryPolicy },
    );
    await bot.start();
    await socket.waitForConnection();
  });
  afterAll(async () => {
    await bot?.stop();
    await socket?.close();
    await cloudServer?.close();
    await slack?.close();
    await responses?.close();
  });

  it('an envelope with retry_attempt for a command already taken is acked, not answered again', async () => {
    const responseUrl = responses.next();
    const fields = slashCommandFields({ userId: ALICE.id, text: 'server credentials 101', responseUrl, triggerId: newTriggerId() });
    await socket.slashCommand(fields);
    await waitFor(() => responses.postsTo(responseUrl).length > 0, { timeoutMs: 5000 });
    const ack = await socket.slashCommand(fields, { retryAttempt: 1, retryReason: 'timeout' });
    expect(ack.envelope_id).toBeTruthy();
    await bot.settled();
    expect(responses.postsTo(responseUrl)).toHaveLength(1);
    expect(sandbox.requests.filter((q) => q.path.endsWith('/credentials'))).toHaveLength(1);
  });
});
