/**
 * Every workflow step ends (issue 23): with a completion Slack takes, or, when Slack would never
 * take one, given up on after a bound — and what it says is what the bot saw. Outputs Slack
 * refuses, a rule whose sync was retried (its id never known), a completion refused for good,
 * a Slack that stays down. (The happy paths: workflow-steps.test.ts.)
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import type { PolicyFile } from '../../src/access/policy-file.js';
import { UNDO_LATE_LIMIT_MS } from '../../src/confirm/undo-window.js';
import { createJumpClock, rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

let rig: BotRig;
const clock = createJumpClock();
const { until, latest, confirmByTyping } = rigHelpers(() => rig);
// A destroy (a reinstall) waits 30 s for an Undo before it is sent.
const POLICY: PolicyFile = { version: 1, undo_delay: 30_000, channels: {} };
let current = POLICY;

beforeAll(async () => {
  rig = await startBotRig({ clock, sandbox: { clock }, watch: { intervalMs: 150 }, policy: POLICY, reloadPolicy: () => current });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const COMPLETIONS = ['functions.completeSuccess', 'functions.completeError'];
const completionCalls = (id: string) => rig.slack.calls.filter((c) => COMPLETIONS.includes(c.method) && c.params.function_execution_id === id);
const answered = (id: string) => completionCalls(id).map((c) => [c.method, c.response.ok]);

async function runStep(callbackId: string, inputs: Record<string, unknown>) {
  const executionId = newExecutionId();
  rig.slack.executions.start(executionId, callbackId);
  expect((await rig.send.event(functionExecutedEnvelope({ callbackId, inputs, executionId }))).status).toBe(200);
  await rig.bot.settled();
  return executionId;
}

/** One pass of the step driver once a waiting step is due again (it looks every 10 s). */
const tick = async (ms = 10_001) => {
  clock.jump(ms);
  await rig.bot.steps.tick();
};

const where = { channel: OPS_CHANNEL.id, requester: ALICE.id };

describe('a step the bot cannot record', () => {
  it('its store locked past its wait when function_executed arrives: failed at once, saying so; nothing sent or posted', { timeout: 15_000 }, async () => {
    const from = rig.sandbox.requests.length;
    const calls = rig.slack.calls.length;
    const executionId = newExecutionId();
    rig.slack.executions.start(executionId, 'server_status');
    const other = new Database(rig.databasePath);
    other.prepare('BEGIN IMMEDIATE').run();
    try {
      expect((await rig.send.event(functionExecutedEnvelope({ callbackId: 'server_status', inputs: { ...where, server: '101' }, executionId }))).status).toBe(200);
      await waitFor(() => (completionCalls(executionId).length ? true : undefined), { timeoutMs: 10_000, message: 'the step to be failed' });
      expect(other.inTransaction).toBe(true); // failed while the store still could not answer
    } finally {
      other.prepare('ROLLBACK').run();
      other.close();
    }
    await rig.bot.settled();
    expect(answered(executionId)).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe('The bot could not record this step, so it did not start it; nothing was sent.');
    expect(rig.sandbox.requests.length).toBe(from);
    expect(rig.slack.calls.slice(calls).filter((c) => !COMPLETIONS.includes(c.method))).toEqual([]);
    await tick(61_000);
    expect(completionCalls(executionId)).toHaveLength(1);
    expect(rig.sandbox.requests.length).toBe(from);
  });
});

/** Starts a reinstall step of server 104 and confirms it (typing its hostname): it waits out its undo delay. */
async function confirmedReinstall() {
  const from = rig.sandbox.requests.length;
  const before = Date.now();
  const executionId = await runStep('server_reinstall', { ...where, server: '104', template: 'debian-12' });
  const card = await rig.statusMessage(OPS_CHANNEL.id, before);
  await confirmByTyping(card, 'staging-1.example.net');
  return { from, executionId, card };
}

describe('a step whose confirmed change was never sent', () => {
  it('its undo window ended while no bot ran: the step says so, not "Nobody confirmed in time"', async () => {
    const { from, executionId, card } = await confirmedReinstall();
    await until(card, 'sending in');
    clock.jump(30_000 + UNDO_LATE_LIMIT_MS + 1);
    await rig.bot.flow.sendDue();
    await until(card, 'expired');
    await tick();
    expect(answered(executionId)).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe(
      'The change was confirmed, but its undo window ended while no bot was running, so it expired unsent; nothing was sent.',
    );
    expect(rig.mutations(from)).toEqual([]);
  });

  it('taken back with Undo: the step says who took it back, not "Cancelled in the channel"', async () => {
    const { from, executionId, card } = await confirmedReinstall();
    await rig.click(await until(card, 'sending in'), 'op_undo', ALICE.id);
    await until(card, 'taken back');
    await tick();
    expect(answered(executionId)).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe(`Taken back by <@${ALICE.id}>; nothing was sent.`);
    expect(rig.mutations(from)).toEqual([]);
  });

  it('its right withdrawn during the undo window: the step says so, not that someone cancelled it', async () => {
    const { from, executionId, card } = await confirmedReinstall();
    await until(card, 'sending in');
    try {
      // The channel's ceiling now stops at changes: a reinstall may not be made here any more.
      current = { ...POLICY, channels: { [OPS_CHANNEL.id]: { admins: [], operators: [], viewers: [], ceiling: ['read', 'change'] } } };
      expect((await rig.bot.reloadPolicy('signal')).kind).not.toBe('refused');
      clock.jump(30_001);
      await rig.bot.flow.sendDue();
      await until(card, 'not sent');
    } finally {
      current = POLICY;
      await rig.bot.reloadPolicy('signal');
    }
    await tick();
    expect(answered(executionId)).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe(
      `Not sent: <@${ALICE.id}> may no longer make this change here (the rules changed during its undo window).`,
    );
    expect(rig.mutations(from)).toEqual([]);
  });
});

/** Starts a backup step on server 101 and confirms it; returns its execution id and the backup. */
async function confirmedBackup(name: string) {
  const before = Date.now();
  const executionId = await runStep('backup_create', { ...where, server: '101', name });
  const card = await rig.statusMessage(OPS_CHANNEL.id, before);
  await rig.click(latest(card), 'op_confirm', ALICE.id);
  await until(card, '— done');
  await rig.bot.settled();
  return { executionId, backup: rig.sandbox.state.backups[101]!.find((b) => b.name === name)! };
}

describe('a backup step', () => {
  it('a backup the cloud lists as completed but not successful fails the step at its next look, not after 2 hours', async () => {
    const { executionId, backup } = await confirmedBackup('wf-fails');
    await tick();
    expect(completionCalls(executionId)).toEqual([]); // still being taken
    backup.completedAt = clock.now();
    backup.isSuccessful = false;
    await tick();
    expect(answered(executionId)).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe(`Backup \`${backup.uuid}\` of server \`101\` failed: the cloud lists it as completed but not successful.`);
  });

  it('a backup that finished while no driver looked for over 2 hours: its uuid, not "stopped waiting"', async () => {
    const { executionId, backup } = await confirmedBackup('wf-late');
    await tick(2 * 3_600_000 + 1);
    expect(completionCalls(executionId).map((c) => [c.method, c.params.outputs])).toEqual([['functions.completeSuccess', { backup_uuid: backup.uuid }]]);
  });
});

describe('a step whose completion Slack refuses', () => {
  it('a rule whose sync was retried before the driver looked: failed once, saying its id was never learned; not tried again', async () => {
    rig.sandbox.failNextSyncs(1);
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const executionId = await runStep('sg_add_rule', { ...where, group: '7', direction: 'inbound', action: 'ACCEPT', protocol: 'tcp', port: '2222' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(latest(card), 'op_confirm', ALICE.id);
    await rig.click(await until(card, '— failed'), 'op_retry_sync', ALICE.id);
    await until(card, '— done');
    await rig.bot.settled();
    await tick();
    expect(answered(executionId)).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe(
      'The change was made, but the bot never learned its `rule_id`, which this step outputs; see the change in the channel.',
    );
    await tick();
    expect(completionCalls(executionId)).toHaveLength(1);
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['POST /v2/security-groups/7/rules', 'POST /v2/security-groups/7/deploy']);
  });

  it('outputs Slack refuses: the step ends failed at once, saying its work was done', async () => {
    rig.slack.failNext('functions.completeSuccess', 'invalid_arguments');
    const executionId = await runStep('server_status', { ...where, server: '101' });
    expect(answered(executionId)).toEqual([
      ['functions.completeSuccess', false],
      ['functions.completeError', true],
    ]);
    expect(completionCalls(executionId)[1]!.params.error).toBe('The step’s work was done, but Slack refused its outputs (`invalid_arguments`), so the step could not pass them on.');
    expect((await rig.store.steps.get(executionId))?.status).toBe('done');
  });

  it('a completion refused for good (invalid_auth) is not tried every 10 s forever: the step is given up, logged', async () => {
    rig.slack.failNext('functions.completeError', 'invalid_auth', 5);
    const executionId = await runStep('server_status', { requester: ALICE.id, server: '101' });
    expect(answered(executionId)).toEqual([['functions.completeError', false]]);
    await tick();
    expect(completionCalls(executionId)).toHaveLength(1);
    expect((await rig.store.steps.get(executionId))?.status).toBe('done');
    expect(rig.logLines.some((l) => l.includes('Slack refused to complete a workflow step; giving up') && l.includes(executionId))).toBe(true);
    rig.slack.clearFaults();
  });

  it('a Slack that stays down: tried on every pass, then given up once the bound has passed', async () => {
    rig.slack.httpErrorNext('functions.completeError', 500, 1000);
    const executionId = await runStep('server_status', { requester: ALICE.id, server: '101' });
    await tick();
    expect((await rig.store.steps.get(executionId))?.status).toBe('completing');
    await tick(2 * 3_600_000);
    expect((await rig.store.steps.get(executionId))?.status).toBe('done');
    const tries = completionCalls(executionId).length;
    await tick();
    expect(completionCalls(executionId)).toHaveLength(tries);
    expect(rig.logLines.some((l) => l.includes('gave up completing a workflow step') && l.includes(executionId))).toBe(true);
    rig.slack.clearFaults();
  });
});
