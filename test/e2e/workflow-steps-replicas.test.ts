/**
 * Workflow steps across two replicas on one PostgreSQL database (issue 23): the same
 * function_executed reaching both (Slack redelivers it, with a new event id, to whichever
 * replica answers), Confirm clicked on both, both drivers passing over the waiting step, and a
 * step a dead replica had taken — each ends with one card, one mutation and one completion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { blockActionsPayload } from '../rig/payloads.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, createJumpClock, DEFAULT_ACCESS, RIG_SLACK_RETRY } from './bot-rig.js';
import { createTestDatabase, type TestDatabase } from './replica-rig.js';

const clock = createJumpClock();
let sandbox: Sandbox;
let cloudServer: ListeningSandbox;
let slack: FakeSlack;
let db: TestDatabase;
const replicas: { bot: Runtime; send: SlackSender }[] = [];

async function startReplica(url: string) {
  const bot = createRuntime(
    {
      slack: { mode: 'http', botToken: BOT_TOKEN, appToken: undefined, signingSecret: SIGNING_SECRET, port: 0, apiUrl: slack.url },
      cloud: { baseUrl: cloudServer.baseUrl, token: CLOUD_TOKEN },
      databasePath: '',
      database: { kind: 'postgres', url },
      access: { config: DEFAULT_ACCESS },
      log: { level: 'warn', sink: () => {} },
    },
    { clock, stepLoop: false, slackRetryConfig: RIG_SLACK_RETRY, cloudRetry: { budgetMs: 1500, baseDelayMs: 50, maxDelayMs: 200 } },
  );
  const { port } = await bot.start();
  const replica = { bot, send: createSlackSender(`http://127.0.0.1:${port}/slack/events`, { slack }) };
  replicas.push(replica);
  return replica;
}

beforeAll(async () => {
  sandbox = createSandbox({ token: CLOUD_TOKEN, clock });
  cloudServer = await sandbox.listen();
  slack = await createFakeSlack();
  db = await createTestDatabase('cloudbot_steps');
  await startReplica(db.url);
  await startReplica(db.url);
}, 60_000);

afterAll(async () => {
  for (const r of replicas) await r.bot.stop();
  await db?.drop();
  await cloudServer?.close();
  await slack?.close();
  expect(slack.violations).toEqual([]);
});

const completions = (id: string) =>
  slack.calls.filter((c) => (c.method === 'functions.completeSuccess' || c.method === 'functions.completeError') && c.params.function_execution_id === id);
const mutations = (from: number) => sandbox.requests.slice(from).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.rawPath}`);
/** Both replicas' drivers pass at once, once the step is due again. */
const bothTick = async () => {
  clock.jump(10_001);
  await Promise.all(replicas.map((r) => r.bot.steps.tick()));
};
const cards = (after: number) => slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt >= after);
const settled = () => Promise.all(replicas.map((r) => r.bot.settled()));

describe('two replicas on one PostgreSQL', () => {
  it('a step delivered to both, confirmed on both and driven by both: one card, one POST, one completion', async () => {
    const [a, b] = replicas;
    const from = sandbox.requests.length;
    const before = Date.now();
    const executionId = newExecutionId();
    slack.executions.start(executionId, 'sg_add_rule');
    const inputs = { channel: OPS_CHANNEL.id, requester: BOB.id, group: '7', direction: 'inbound', action: 'ACCEPT', protocol: 'tcp', port: '9443', comment: 'replicas' };
    // The same execution twice, as two deliveries (each its own event id), one to each replica.
    await Promise.all([
      a!.send.event(functionExecutedEnvelope({ callbackId: 'sg_add_rule', inputs, executionId })),
      b!.send.event(functionExecutedEnvelope({ callbackId: 'sg_add_rule', inputs, executionId })),
    ]);
    const card = await waitFor(() => cards(before)[0], { timeoutMs: 10_000 });
    await settled();
    expect(cards(before)).toHaveLength(1);
    await bothTick(); // still waiting for a click
    expect(completions(executionId)).toEqual([]);
    const click = (r: (typeof replicas)[number], user: string) =>
      r.send.interaction(blockActionsPayload({ actionId: 'op_confirm', message: slack.messages.get(card.channel, card.ts)!, userId: user, channelId: card.channel, responseUrl: 'http://127.0.0.1:9/unused' }));
    await Promise.all([click(a!, BOB.id), click(b!, ALICE.id)]);
    await waitFor(() => (/done/.test(slack.messages.get(card.channel, card.ts)!.text) ? true : undefined), { timeoutMs: 10_000 });
    await settled();
    expect(mutations(from)).toEqual(['POST /v2/security-groups/7/rules']);
    await bothTick();
    await bothTick();
    expect(completions(executionId).map((c) => [c.method, c.response.ok])).toEqual([['functions.completeSuccess', true]]);
  });

  it('a step a dead replica had taken (nothing started yet) is started by one of the others once its lease ends', async () => {
    const [a] = replicas;
    const from = sandbox.requests.length;
    const before = Date.now();
    const executionId = newExecutionId();
    slack.executions.start(executionId, 'backup_create');
    const inputs = { channel: OPS_CHANNEL.id, requester: ALICE.id, server: '104', name: 'after-crash' };
    await a!.bot.store.steps.begin({ executionId, callbackId: 'backup_create', inputs }, 'replica-that-died', clock.now(), 60_000);
    clock.jump(61_000);
    await Promise.all(replicas.map((r) => r.bot.steps.tick()));
    await settled();
    const card = await waitFor(() => cards(before)[0], { timeoutMs: 10_000 });
    expect(cards(before)).toHaveLength(1);
    await replicas[1]!.send.interaction(blockActionsPayload({ actionId: 'op_confirm', message: card, userId: ALICE.id, channelId: card.channel, responseUrl: 'http://127.0.0.1:9/unused' }));
    await settled();
    expect(mutations(from)).toEqual(['POST /v2/servers/104/backups']);
    clock.jump(31_000); // the sandbox finishes the backup
    await bothTick();
    await bothTick();
    const made = sandbox.state.backups[104]!.find((x) => x.name === 'after-crash')!;
    expect(completions(executionId).map((c) => [c.method, c.params.outputs])).toEqual([['functions.completeSuccess', { backup_uuid: made.uuid }]]);
  });
});
