/**
 * Retried deliveries across replicas (issue 21, item 6): two bot replicas on one PostgreSQL
 * database. `server credentials` is delivered to replica A; Slack's retry of it (the very same
 * body, `x-slack-retry-num: 1`) reaches replica B, which never saw it. B knows from the shared
 * store that the delivery was taken: the password is shown once and read from the cloud once.
 * B reaches the database through a proxy the last test pauses: a store that cannot answer
 * does not stop a first delivery, and stops a retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { createTcpProxy, type TcpProxy } from '../rig/tcp-proxy.js';
import { triggerId as newTriggerId } from '../rig/ids.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, DEFAULT_ACCESS, RIG_SLACK_RETRY, visibleText } from './bot-rig.js';
import { createTestDatabase, type TestDatabase } from './replica-rig.js';

const retry = (n: number) => ({ headers: { 'x-slack-retry-num': String(n), 'x-slack-retry-reason': 'http_timeout' } });

let sandbox: Sandbox;
let cloudServer: ListeningSandbox;
let slack: FakeSlack;
let responses: ResponseUrls;
let db: TestDatabase;
let proxy: TcpProxy;
const replicas: { bot: Runtime; send: SlackSender; logLines: string[] }[] = [];

async function startReplica(url: string) {
  const logLines: string[] = [];
  const bot = createRuntime(
    {
      slack: { mode: 'http', botToken: BOT_TOKEN, appToken: undefined, signingSecret: SIGNING_SECRET, port: 0, apiUrl: slack.url },
      cloud: { baseUrl: cloudServer.baseUrl, token: CLOUD_TOKEN },
      databasePath: '',
      database: { kind: 'postgres', url },
      access: { config: DEFAULT_ACCESS },
      log: { level: 'debug', sink: (l) => logLines.push(l) },
    },
    { slackRetryConfig: RIG_SLACK_RETRY, cloudRetry: { budgetMs: 1500, baseDelayMs: 50, maxDelayMs: 200 } },
  );
  const { port } = await bot.start();
  const replica = { bot, send: createSlackSender(`http://127.0.0.1:${port}/slack/events`, { slack }), logLines };
  replicas.push(replica);
  return replica;
}

beforeAll(async () => {
  sandbox = createSandbox({ token: CLOUD_TOKEN });
  cloudServer = await sandbox.listen();
  slack = await createFakeSlack();
  responses = await createResponseUrls();
  db = await createTestDatabase('cloudbot_retries');
  const u = new URL(db.url);
  proxy = await createTcpProxy({ host: u.hostname, port: Number(u.port) });
  await startReplica(db.url);
  await startReplica(proxy.through(db.url));
}, 60_000);

afterAll(async () => {
  for (const r of replicas) await r.bot.stop();
  await proxy?.close();
  await db?.drop();
  await cloudServer?.close();
  await slack?.close();
  await responses?.close();
});

describe('two replicas on one PostgreSQL', () => {
  it('`server credentials` delivered to A and retried to B shows the password once and reads it once', async () => {
    const [a, b] = replicas;
    const responseUrl = responses.next();
    const input = { userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server credentials 101', responseUrl, triggerId: newTriggerId() };
    expect((await a!.send.command(input)).status).toBe(200);
    const [first] = await waitFor(() => (responses.postsTo(responseUrl).length ? responses.postsTo(responseUrl) : undefined), { timeoutMs: 10_000 });
    const root = sandbox.state.servers.find((s) => s.id === 101)!.rootPassword!;
    expect(visibleText(first!.body)).toContain(root);

    expect((await b!.send.command(input, retry(1))).status).toBe(200);
    await a!.bot.settled();
    await b!.bot.settled();
    expect(responses.postsTo(responseUrl)).toHaveLength(1);
    expect(sandbox.requests.filter((q) => q.path.endsWith('/credentials'))).toHaveLength(1);
    expect(b!.logLines.some((l) => l.includes('retried delivery') && l.includes('http_timeout'))).toBe(true);
  });

  it('a retry of a delivery no replica took is answered by the replica it reaches', async () => {
    const [, b] = replicas;
    const responseUrl = responses.next();
    const input = { userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server status 101', responseUrl, triggerId: newTriggerId() };
    expect((await b!.send.command(input, retry(1))).status).toBe(200);
    const [post] = await waitFor(() => (responses.postsTo(responseUrl).length ? responses.postsTo(responseUrl) : undefined), { timeoutMs: 10_000 });
    expect(visibleText(post!.body)).toMatch(/Server 101/);
  });

  it('while B’s database does not answer, a first delivery is answered there and a retry is not', async () => {
    const [, b] = replicas;
    const first = { userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server status 101', responseUrl: responses.next(), triggerId: newTriggerId() };
    const again = { ...first, text: 'server credentials 101', responseUrl: responses.next(), triggerId: newTriggerId() };
    const reads = () => sandbox.requests.filter((q) => q.path.endsWith('/credentials')).length;
    const readsBefore = reads();
    proxy.pause();
    try {
      expect((await b!.send.command(first)).status).toBe(200);
      // Past the check and being answered (the answer itself waits on the store here).
      await waitFor(() => responses.postsTo(first.responseUrl).length > 0, { timeoutMs: 10_000 });
      expect((await b!.send.command(again, retry(2))).status).toBe(200);
      await waitFor(() => b!.logLines.some((l) => l.includes('the store could not say whether it was taken')), { timeoutMs: 10_000 });
    } finally {
      proxy.resume();
    }
    const shown = await waitFor(() => responses.postsTo(first.responseUrl).map((p) => visibleText(p.body)).find((t) => /Server 101/.test(t)), { timeoutMs: 15_000 });
    expect(shown).toMatch(/Server 101/);
    await b!.bot.settled();
    expect(responses.postsTo(again.responseUrl)).toEqual([]);
    expect(reads()).toBe(readsBefore);
  });
});
