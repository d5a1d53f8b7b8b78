/**
 * Workflow steps under the policy file (issue 23): a channel's ceiling and `default_channel:
 * deny` refuse through a step exactly as through /cloud — before anything is posted or sent,
 * audited as refused — and a read the channel allows runs on the channel's own account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

const READONLY: FakeChannel = { id: 'CREAD00001', name: 'prod-readonly', botIsMember: true };
const ACCOUNTS = { prod: { token: 'prod-token-e2e-aaaaaaaaaaaa' }, staging: { token: 'staging-token-e2e-bbbbbbbbb' } };

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig({
    accounts: ACCOUNTS,
    extraChannels: [READONLY],
    policy: (urls) => twoAccountPolicy(urls, { [READONLY.id]: { account: 'prod', ceiling: ['read'], ...NO_ROLES } }),
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const sandboxes = () => [rig.sandbox, rig.accounts.prod!.sandbox, rig.accounts.staging!.sandbox];
const requestCount = () => sandboxes().reduce((n, s) => n + s.requests.length, 0);

async function step(callbackId: string, channel: string, inputs: Record<string, unknown>) {
  const executionId = newExecutionId();
  rig.slack.executions.start(executionId, callbackId);
  expect((await rig.send.event(functionExecutedEnvelope({ callbackId, executionId, inputs: { channel, requester: ALICE.id, ...inputs } }))).status).toBe(200);
  return waitFor(() => rig.slack.calls.find((c) => c.method.startsWith('functions.complete') && c.params.function_execution_id === executionId && c.response.ok), { timeoutMs: 10_000 });
}

describe('a step is held to the channel’s rules', () => {
  it('a change above the channel’s ceiling fails before anything is posted or sent; the refusal is audited', async () => {
    const before = requestCount();
    const posted = rig.slack.messages.inChannel(READONLY.id).length;
    const call = await step('backup_create', READONLY.id, { server: '101' });
    expect(call.method).toBe('functions.completeError');
    expect(String(call.params.error)).toContain('ceiling');
    expect(requestCount()).toBe(before);
    expect(rig.slack.messages.inChannel(READONLY.id).length).toBe(posted);
    const entries = await rig.store.audit.list({ limit: 20 });
    expect(entries.find((e) => e.opId === 'backup.create' && e.outcome === 'refused')?.errorCode).toBe('CHANNEL_CEILING');
  });

  it('default_channel: deny refuses a step in a channel the policy does not list, even a read', async () => {
    const before = requestCount();
    const call = await step('server_status', OPS_CHANNEL.id, { server: '101' });
    expect(call.method).toBe('functions.completeError');
    expect(String(call.params.error)).toContain('default_channel');
    expect(requestCount()).toBe(before);
  });

  it('a read the channel allows runs on the channel’s account only', async () => {
    const prod = rig.accounts.prod!.sandbox;
    const from = prod.requests.length;
    const others = rig.sandbox.requests.length + rig.accounts.staging!.sandbox.requests.length;
    const call = await step('server_status', READONLY.id, { server: '101' });
    expect(call.method).toBe('functions.completeSuccess');
    expect(prod.requests.slice(from).map((r) => r.rawPath)).toEqual(['/v2/servers/101/status']);
    expect(rig.sandbox.requests.length + rig.accounts.staging!.sandbox.requests.length).toBe(others);
  });
});

describe('a step’s change where the policy wants a second admin', () => {
  let r: BotRig;
  const { text, latest, confirmByTyping } = rigHelpers(() => r);
  beforeAll(async () => {
    r = await startBotRig({ access: { admins: [ALICE.id, BOB.id], operators: [], approval: 'destroy' } });
  });
  afterAll(async () => {
    await r.close();
    expect(r.slack.violations).toEqual([]);
  });

  it('the card asks for approval: the requester cannot approve their own; another admin can, and one reinstall is sent', async () => {
    const from = r.sandbox.requests.length;
    const before = Date.now();
    const executionId = newExecutionId();
    r.slack.executions.start(executionId, 'server_reinstall');
    const inputs = { channel: OPS_CHANNEL.id, requester: ALICE.id, server: '104', template: 'debian-12' };
    await r.send.event(functionExecutedEnvelope({ callbackId: 'server_reinstall', executionId, inputs }));
    const card = await r.statusMessage(OPS_CHANNEL.id, before);
    expect(text(card)).toContain('awaiting approval by a second admin');
    await r.click(latest(card), 'op_confirm', ALICE.id);
    await waitFor(() => r.slack.messages.ephemeral(ALICE.id).some((e) => e.text.includes('another admin must approve it')), { timeoutMs: 5000 });
    expect(r.mutations(from)).toEqual([]);
    await confirmByTyping(card, 'staging-1.example.net', BOB.id);
    await waitFor(() => (r.mutations(from).length ? true : undefined), { timeoutMs: 5000 });
    await r.bot.settled();
    expect(r.mutations(from).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/servers/104/reinstall']);
    const entry = (await r.store.audit.list({ limit: 20 })).find((e) => e.opId === 'server.reinstall' && e.outcome === 'succeeded');
    expect(entry).toMatchObject({ userId: ALICE.id, approvedBy: BOB.id });
    expect(entry!.detail).toMatch(/\(workflow Wx\w+\)$/);
  });
});
