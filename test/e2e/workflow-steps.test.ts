/**
 * Workflow Builder steps end to end (issue 23): `function_executed` as Slack sends it, over
 * signed HTTP, to the real Bolt app; the cloud's requests and every Slack call checked (the
 * fake Slack refuses a completion missing its arguments, of an execution it never started or
 * already ended, or with outputs the manifest does not declare). Exactly once: a retried
 * delivery, a double click and a restart while the step waits each end with one mutation and
 * one completion. (Two replicas on PostgreSQL: workflow-steps-replicas.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL } from '../rig/workspace.js';
import { createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
const clock = createJumpClock();
const { text, until, buttons, latest, confirmByTyping } = rigHelpers(() => rig);

beforeAll(async () => {
  rig = await startBotRig({ clock, sandbox: { clock }, watch: { intervalMs: 150 } });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const COMPLETIONS = ['functions.completeSuccess', 'functions.completeError'];
/** Every completion call of one execution, answered or not. */
const completionCalls = (id: string) => rig.slack.calls.filter((c) => COMPLETIONS.includes(c.method) && c.params.function_execution_id === id);
const completed = (id: string) =>
  waitFor(() => {
    const ok = completionCalls(id).filter((c) => c.response.ok);
    return ok.length ? ok : undefined;
  }, { timeoutMs: 10_000 });

async function runStep(callbackId: string, inputs: Record<string, unknown>) {
  const executionId = newExecutionId();
  rig.slack.executions.start(executionId, callbackId);
  const envelope = functionExecutedEnvelope({ callbackId, inputs, executionId });
  const ack = await rig.send.event(envelope);
  expect(ack.status).toBe(200);
  return { executionId, envelope };
}

/** One pass of the step driver once a waiting step is due again (it looks every 10 s). */
const tick = async () => {
  clock.jump(10_001);
  await rig.bot.steps.tick();
};

const where = (user = ALICE.id) => ({ channel: OPS_CHANNEL.id, requester: user });

describe('a read step', () => {
  it('server status outputs the power state and status; only a GET reaches the cloud', async () => {
    const from = rig.sandbox.requests.length;
    const { executionId } = await runStep('server_status', { ...where(), server: '101' });
    const [call] = await completed(executionId);
    const s = rig.sandbox.state.servers.find((x) => x.id === 101)!;
    expect(call!.method).toBe('functions.completeSuccess');
    expect(call!.params.outputs).toEqual({ power_state: s.powerState, status: s.status ?? 'ready' });
    expect(rig.sandbox.requests.slice(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /v2/servers/101/status']);
    expect(rig.slack.executions.get(executionId)!.state).toBe('completed');
    const entry = (await rig.store.audit.list({ limit: 5 })).find((e) => e.opId === 'server.status' && e.outcome === 'succeeded');
    expect(entry?.detail).toMatch(/^workflow Wx\w+$/);
  });

  it('bad input fails with a sentence naming the input; nothing reaches the cloud or the channel', async () => {
    const from = rig.sandbox.requests.length;
    const posted = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const { executionId } = await runStep('backup_create', { ...where(), server: '101', name: 'x'.repeat(41) });
    const [call] = await completed(executionId);
    expect(call!.method).toBe('functions.completeError');
    expect(call!.params.error).toMatch(/^Input `name` must be at most 40 characters; nothing was sent\.$/);
    expect(rig.sandbox.requests.length).toBe(from);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).length).toBe(posted);
  });

  it('a function this version does not offer is failed, saying so, never left waiting; nothing sent or posted', async () => {
    const from = rig.sandbox.requests.length;
    const calls = rig.slack.calls.length;
    const { executionId } = await runStep('server_delete_everything', { ...where(), server: '101' });
    const [call] = await completed(executionId);
    expect([call!.method, call!.params.error]).toEqual(['functions.completeError', 'This version of the bot does not offer the step `server_delete_everything`; nothing was sent.']);
    expect(rig.sandbox.requests.length).toBe(from);
    expect(rig.slack.calls.slice(calls).filter((c) => !COMPLETIONS.includes(c.method))).toEqual([]);
  });

  it('a channel or requester that is not a Slack id of its kind fails naming the input; nothing reaches the cloud or the channel', async () => {
    const from = rig.sandbox.requests.length;
    const calls = rig.slack.calls.length;
    for (const [inputs, input, shape] of [
      [{ channel: OPS_CHANNEL.id, requester: 'everyone' }, 'requester', 'a Slack user id'],
      [{ channel: OPS_CHANNEL.id, requester: OPS_CHANNEL.id }, 'requester', 'a Slack user id'],
      [{ channel: '#ops', requester: ALICE.id }, 'channel', 'a channel id'],
      [{ channel: ALICE.id, requester: ALICE.id }, 'channel', 'a channel id'],
    ] as const) {
      const { executionId } = await runStep('server_status', { ...inputs, server: '101' });
      const [call] = await completed(executionId);
      expect(call!.method).toBe('functions.completeError');
      expect(call!.params.error).toMatch(new RegExp(`^Input \`${input}\` must be ${shape} like [UC]0123ABCD; nothing was sent\.$`));
    }
    expect(rig.sandbox.requests.length).toBe(from);
    expect(rig.slack.calls.slice(calls).filter((c) => !COMPLETIONS.includes(c.method))).toEqual([]);
  });

  it('a refusal in the operation’s own sentences reads as one sentence: no ".;", a colon before its own capital', async () => {
    const { executionId } = await runStep('sg_add_rule', { ...where(), group: '7', direction: 'sideways', action: 'ACCEPT', protocol: 'tcp' });
    const [call] = await completed(executionId);
    expect(call!.params.error).toBe('Input `direction` `sideways` is not a direction: use inbound (in) or outbound (out); nothing was sent.');
    const long = await runStep('sg_add_rule', { ...where(), group: '7', direction: 'inbound', action: 'ACCEPT', protocol: 'tcp', comment: 'x'.repeat(300) });
    const [said] = await completed(long.executionId);
    expect(said!.params.error).toBe('Input `comment`: The comment is 300 characters long; at most 255 are allowed; nothing was sent.');
  });

  it('a step with no channel input fails before anything is sent', async () => {
    const from = rig.sandbox.requests.length;
    const { executionId } = await runStep('server_status', { requester: ALICE.id, server: '101' });
    const [call] = await completed(executionId);
    expect(call!.params.error).toContain('needs a channel');
    expect(rig.sandbox.requests.length).toBe(from);
  });
});

describe('a change step asks a person and completes once the change finished', () => {
  it('backup create: the card waits for Confirm even though /cloud would not ask; one POST; the uuid once the backup is finished', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const { executionId, envelope } = await runStep('backup_create', { ...where(BOB.id), server: '101', name: 'wf-backup' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(card)).toContain('Back up server `101` as `wf-backup`');
    expect(buttons(card)).toContain('"action_id":"op_confirm"');
    // Slack retries the delivery (no ack in time, say): no second card, no second record.
    await rig.send.event(envelope, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    await rig.bot.settled();
    expect(rig.mutations(from)).toEqual([]);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt >= before)).toHaveLength(1);
    // Two clicks on Confirm (a double click, or two people at once): one request.
    await Promise.all([rig.click(latest(card), 'op_confirm', BOB.id), rig.click(latest(card), 'op_confirm', ALICE.id)]);
    await until(card, 'done');
    await rig.bot.settled();
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['POST /v2/servers/101/backups']);
    // The backup is still being taken: the step waits.
    await tick();
    expect(completionCalls(executionId)).toEqual([]);
    clock.jump(31_000);
    await tick();
    await tick();
    const calls = await completed(executionId);
    const made = rig.sandbox.state.backups[101]!.find((b) => b.name === 'wf-backup')!;
    expect(calls.map((c) => [c.method, c.params.outputs])).toEqual([['functions.completeSuccess', { backup_uuid: made.uuid }]]);
    expect(completionCalls(executionId)).toHaveLength(1);
    // The audit entry of the change names the workflow.
    const entries = await rig.store.audit.list({ limit: 50 });
    const done = entries.find((e) => e.opId === 'backup.create' && e.outcome === 'succeeded' && e.userId === BOB.id)!;
    expect(done.detail).toContain(`(workflow ${envelope.event && (envelope.event as { workflow_execution_id: string }).workflow_execution_id})`);
  });

  it('Cancel fails the step with a sentence; nothing is sent', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const { executionId } = await runStep('sg_add_rule', { ...where(BOB.id), group: '1', direction: 'inbound', action: 'ACCEPT', protocol: 'tcp', port: '443' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(latest(card), 'op_cancel', BOB.id);
    await until(card, 'ancel');
    await tick();
    const [call] = await completed(executionId);
    expect(call!.method).toBe('functions.completeError');
    expect(call!.params.error).toBe(`Cancelled in the channel by <@${BOB.id}>; nothing was sent.`);
    expect(rig.mutations(from)).toEqual([]);
  });

  it('a change the cloud rate-limits past the retry budget fails the step with the wait the cloud named', async () => {
    rig.sandbox.addFault({ method: 'POST', path: '/security-groups/1/rules', status: 429, code: 'RATE_LIMITED', retryAfter: '600' });
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const { executionId } = await runStep('sg_add_rule', { ...where(BOB.id), group: '1', direction: 'inbound', action: 'ACCEPT', protocol: 'tcp', port: '8443' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(latest(card), 'op_confirm', BOB.id);
    await until(card, '— failed');
    await tick();
    const [call] = await completed(executionId);
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['POST /v2/security-groups/1/rules']);
    expect(call!.method).toBe('functions.completeError');
    // The step is told at its next look, 10 s after the failure: what is left of the cloud's 600 s.
    expect(call!.params.error).toContain('Try again in 590 s.');
  });

  it('expiry fails the step', async () => {
    const before = Date.now();
    const { executionId } = await runStep('ip_reserve', { ...where(), location: 1, subnet: 'sub-ams-1', quantity: 1 });
    await rig.statusMessage(OPS_CHANNEL.id, before);
    clock.jump(11 * 60_000);
    await rig.bot.flow.expireDue();
    await tick();
    const [call] = await completed(executionId);
    expect(call!.params.error).toContain('Nobody confirmed in time');
  });

  it('a restart while the step waits: the new process resumes it from the store; one request, one completion', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const { executionId } = await runStep('sg_add_rule', { ...where(), group: '7', direction: 'inbound', action: 'ACCEPT', protocol: 'tcp', port: '8443', comment: 'wf' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.restartBot();
    await rig.click(latest(card), 'op_confirm', ALICE.id);
    await until(card, 'done');
    await tick();
    const calls = await completed(executionId);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('functions.completeSuccess');
    expect(calls[0]!.params.outputs).toEqual({ rule_id: expect.any(Number) });
    expect(rig.mutations(from).filter((r) => r.rawPath.endsWith('/rules'))).toHaveLength(1);
    await tick();
    expect(completionCalls(executionId)).toHaveLength(1);
  });

  it('a driver pass while this replica is still telling Slack the outcome does not tell it a second time', async () => {
    const executionId = newExecutionId();
    rig.slack.executions.start(executionId, 'server_status');
    rig.slack.delayNext('functions.completeSuccess', 800);
    await rig.send.event(functionExecutedEnvelope({ callbackId: 'server_status', inputs: { ...where(), server: '101' }, executionId }));
    // The outcome is claimed and Slack is being told (slowly): a pass of this replica's driver now.
    await waitFor(async () => ((await rig.store.steps.get(executionId))?.status === 'completing' ? true : undefined), { timeoutMs: 5_000 });
    await rig.bot.steps.tick();
    await rig.bot.settled();
    await completed(executionId);
    await waitFor(async () => ((await rig.store.steps.get(executionId))?.status === 'done' ? true : undefined), { timeoutMs: 5_000 });
    expect(completionCalls(executionId).map((c) => [c.method, c.response.ok])).toEqual([['functions.completeSuccess', true]]);
  });

  it('a replica that stopped mid-step (row taken, nothing started): another takes it over when its lease ends', async () => {
    const from = rig.sandbox.requests.length;
    const executionId = newExecutionId();
    rig.slack.executions.start(executionId, 'server_status');
    await rig.store.steps.begin({ executionId, callbackId: 'server_status', inputs: { ...where(), server: '102' } }, 'dead-replica', clock.now(), 60_000);
    await rig.bot.steps.tick();
    expect(completionCalls(executionId)).toEqual([]); // still the dead replica's
    clock.jump(61_000);
    await tick();
    const calls = await completed(executionId);
    expect(calls.map((c) => c.method)).toEqual(['functions.completeSuccess']);
    expect(rig.sandbox.requests.slice(from).map((r) => r.rawPath)).toEqual(['/v2/servers/102/status']);
  });

  it('a step a dead replica took but never started, found only after the give-up bound: failed saying it never started, not "check the change"', async () => {
    const from = rig.sandbox.requests.length;
    const calls = rig.slack.calls.length;
    const executionId = newExecutionId();
    rig.slack.executions.start(executionId, 'backup_create');
    await rig.store.steps.begin({ executionId, callbackId: 'backup_create', inputs: { ...where(), server: '101' } }, 'dead-replica', clock.now(), 60_000);
    clock.jump(2 * 3_600_000);
    await tick();
    const [call] = await completed(executionId);
    expect([call!.method, call!.params.error]).toEqual(['functions.completeError', 'The bot stopped before it started this step, and too long has passed to start it now; nothing was sent.']);
    expect(rig.sandbox.requests.length).toBe(from);
    expect(rig.slack.calls.slice(calls).filter((c) => !COMPLETIONS.includes(c.method))).toEqual([]);
  });

  it('a replica that died after posting the card: the next holder follows that card, posts no second one, and fails the step once with the cloud’s refusal', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const executionId = newExecutionId();
    rig.slack.executions.start(executionId, 'backup_create');
    const inputs = { ...where(), server: '102', name: 'mid-step' };
    await rig.store.steps.begin({ executionId, callbackId: 'backup_create', inputs }, 'dead-replica', clock.now(), 60_000);
    // What the dead replica got done: the change stored under the step's key and its card posted.
    const op = rig.bot.flow;
    const started = await op.start({ op: (await import('../../src/operations/index.js')).catalog.byId('backup.create')!, args: { server: '102', name: 'mid-step', mode: 'snapshot', compression: 'zstd' }, userId: ALICE.id, channelId: OPS_CHANNEL.id, dedupeKey: `step:${executionId}`, via: { workflow: 'Wx-dead' } });
    expect(started.kind).toBe('posted');
    clock.jump(61_000);
    await rig.bot.steps.tick();
    await rig.bot.settled();
    const posted = rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt >= before);
    expect(posted).toHaveLength(1);
    await rig.click(latest(posted[0]!), 'op_confirm', ALICE.id);
    await until(posted[0]!, 'failed');
    await tick();
    // Server 102 is at the plan's backup limit: the cloud refused, and the step says so, once.
    const calls = await completed(executionId);
    expect(calls.map((c) => c.method)).toEqual(['functions.completeError']);
    expect(calls[0]!.params.error).toMatch(/^An account limit stops this: `.+` Free something up, or raise the account level\.$/);
    expect(rig.mutations(from).map((r) => r.rawPath)).toEqual(['/v2/servers/102/backups']);
  });

  it('a worker deploy completes with its uuid and address once the build is active', async () => {
    const before = Date.now();
    const { executionId } = await runStep('worker_deploy', { ...where(), name: 'wf-app', location: rig.sandbox.state.locations[0]!.id, repo: 'https://github.com/example/app' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(latest(card), 'op_confirm', ALICE.id);
    await rig.bot.settled();
    await tick();
    expect(completionCalls(executionId)).toEqual([]); // building
    clock.jump(10 * 60_000);
    const worker = rig.sandbox.state.workers.find((w) => w.name === 'wf-app')!;
    await waitFor(async () => ((await rig.store.watches.forOperation((await rig.store.operations.listRecent({ limit: 1 }))[0]!.id))?.status === 'done' ? true : undefined), { timeoutMs: 10_000 });
    await tick();
    const [call] = await completed(executionId);
    expect(call!.params.outputs).toEqual({ worker_uuid: worker.uuid, fqdn: expect.stringMatching(/^[a-z0-9.-]+$/) });
    expect(visibleText({ text: '', blocks: latest(card).blocks ?? [] })).toContain((call!.params.outputs as { fqdn: string }).fqdn);
  });

  it('a worker whose build fails fails the step with the build’s error', async () => {
    const before = Date.now();
    const { executionId } = await runStep('worker_deploy', { ...where(), name: 'wf-broken', location: rig.sandbox.state.locations[0]!.id, repo: 'https://github.com/example/fail-app' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(latest(card), 'op_confirm', ALICE.id);
    await rig.bot.settled();
    clock.jump(10 * 60_000);
    await waitFor(async () => ((await rig.store.watches.forOperation((await rig.store.operations.listRecent({ limit: 1 }))[0]!.id))?.status === 'done' ? true : undefined), { timeoutMs: 10_000 });
    await tick();
    const [call] = await completed(executionId);
    expect(call!.method).toBe('functions.completeError');
    expect(call!.params.error).toMatch(/^Worker `wf-broken` did not come up: `.+`\.$/);
  });
});

describe('a reinstall step', () => {
  it('asks for the hostname typed, sends one reinstall, and completes once the watch saw the install end', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const { executionId } = await runStep('server_reinstall', { ...where(), server: '104', template: 'debian-12' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(card)).toContain('Reinstall server `104`');
    await confirmByTyping(card, 'staging-1.example.net');
    await rig.bot.settled();
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['POST /v2/servers/104/reinstall']);
    await tick();
    expect(completionCalls(executionId)).toEqual([]); // installing
    clock.jump(30 * 60_000 - 60_000);
    const record = (await rig.store.operations.listRecent({ limit: 1 }))[0]!;
    await waitFor(async () => ((await rig.store.watches.forOperation(record.id))?.status === 'done' ? true : undefined), { timeoutMs: 10_000 });
    await tick();
    const [call] = await completed(executionId);
    expect([call!.method, call!.params.outputs]).toEqual(['functions.completeSuccess', { server: '104' }]);
    // The new root password went to the requester only, never into the step's outputs.
    expect(JSON.stringify(call!.params)).not.toContain(rig.sandbox.state.servers.find((s) => s.id === 104)!.rootPassword ?? 'no-password');
  });
});

describe('access through a step is access through /cloud', () => {
  it('a viewer is refused before anything is posted or sent; the refusal is audited', async () => {
    const from = rig.sandbox.requests.length;
    const posted = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const { executionId } = await runStep('backup_create', { ...where(CAROL.id), server: '101' });
    const [call] = await completed(executionId);
    expect(call!.method).toBe('functions.completeError');
    expect(call!.params.error).toContain('change');
    expect(rig.sandbox.requests.length).toBe(from);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).length).toBe(posted);
    const entry = (await rig.store.audit.list({ limit: 20 })).find((e) => e.userId === CAROL.id && e.outcome === 'refused' && e.opId === 'backup.create');
    expect(entry?.errorCode).toBe('ACCESS_DENIED');
  });

  it('a viewer cannot confirm a step’s card either', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const { executionId } = await runStep('backup_create', { ...where(BOB.id), server: '103' });
    const card = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(latest(card), 'op_confirm', CAROL.id);
    await rig.bot.settled();
    expect(rig.mutations(from)).toEqual([]);
    expect(visibleText({ text: text(latest(card)) })).toContain('waiting');
    await tick();
    expect(completionCalls(executionId)).toEqual([]);
    await rig.click(latest(card), 'op_cancel', BOB.id);
  });
});
