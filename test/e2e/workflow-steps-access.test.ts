/**
 * Workflow steps under the policy file (issue 23): a channel's ceiling and `default_channel:
 * deny` refuse through a step exactly as through /cloud — before anything is posted or sent,
 * audited as refused — and a read the channel allows runs on the channel's own account.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { startBotRig, type BotRig } from './bot-rig.js';

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
