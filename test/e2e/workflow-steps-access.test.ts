/**
 * Workflow steps under the policy file (issue 23): a channel's ceiling and `default_channel:
 * deny` refuse through a step exactly as through /cloud — before anything is posted or sent,
 * audited as refused — and a read the channel allows runs on the channel's own account.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../src/access/policy-file.js';
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
  // A step's `requester` is whatever its workflow names (README, Workflow steps): one admin can
  // name another as requester and then approve "someone else's" request alone. Two-person
  // approval cannot tell the two people apart, so such a change is not started from a step.
  let r: BotRig;
  beforeAll(async () => {
    r = await startBotRig({ access: { admins: [ALICE.id, BOB.id], operators: [], approval: 'destroy' } });
  });
  afterAll(async () => {
    await r.close();
    expect(r.slack.violations).toEqual([]);
  });

  it('one admin cannot be both people: the step fails before anything is posted or sent, and the refusal is audited', async () => {
    const from = r.sandbox.requests.length;
    const posted = r.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const executionId = newExecutionId();
    r.slack.executions.start(executionId, 'server_reinstall');
    // Bob builds the workflow, names Alice as its requester, and would approve it himself.
    const inputs = { channel: OPS_CHANNEL.id, requester: ALICE.id, server: '104', template: 'debian-12' };
    await r.send.event(functionExecutedEnvelope({ callbackId: 'server_reinstall', executionId, inputs }));
    const call = await waitFor(() => r.slack.calls.find((c) => c.method.startsWith('functions.complete') && c.params.function_execution_id === executionId && c.response.ok), {
      timeoutMs: 10_000,
    });
    expect(call.method).toBe('functions.completeError');
    expect(String(call.params.error)).toContain('approval');
    expect(String(call.params.error)).toContain('nothing was sent');
    expect(r.slack.messages.inChannel(OPS_CHANNEL.id).length).toBe(posted);
    expect(r.mutations(from)).toEqual([]);
    const entry = (await r.store.audit.list({ limit: 20 })).find((e) => e.opId === 'server.reinstall' && e.outcome === 'refused');
    expect(entry).toMatchObject({ userId: ALICE.id, errorCode: 'APPROVAL_UNVERIFIED_REQUESTER' });
  });
});

describe('a step’s card when a reload starts asking for a second admin', () => {
  let dir: string;
  let path: string;
  let r: BotRig;
  const { latest, ephemeralTo } = rigHelpers(() => r);
  const PROD: FakeChannel = { id: 'CPROD00002', name: 'prod-steps', botIsMember: true };
  const file = (approval: string, url: string) =>
    `version: 1\naccounts:\n  prod: { base_url: ${url}, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels:\n  ${PROD.id}: { account: prod, ceiling: [read, change, billing, destroy, secret], approval: ${approval} }\n`;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'step-approval-'));
    path = join(dir, 'policy.yaml');
    const load = (urls: Record<string, string>) => {
      if (!existsSync(path)) writeFileSync(path, file('[]', urls.prod!));
      return readPolicyFile(path, { hasEnv: (n) => n === 'CLOUD_PROD_TOKEN' });
    };
    r = await startBotRig({
      access: { admins: [ALICE.id, BOB.id], operators: [] },
      accounts: { prod: ACCOUNTS.prod },
      policy: load,
      reloadPolicy: load,
      policyPath: path,
      extraChannels: [PROD],
    });
  });
  afterAll(async () => {
    await r.close();
    rmSync(dir, { recursive: true, force: true });
    expect(r.slack.violations).toEqual([]);
  });

  it('the approval it now needs is refused at the click: nothing is sent', async () => {
    const prod = r.accounts.prod!.sandbox;
    const before = Date.now();
    const executionId = newExecutionId();
    r.slack.executions.start(executionId, 'server_reinstall');
    const inputs = { channel: PROD.id, requester: ALICE.id, server: '104', template: 'debian-12' };
    await r.send.event(functionExecutedEnvelope({ callbackId: 'server_reinstall', executionId, inputs }));
    const card = await r.statusMessage(PROD.id, before);
    const from = prod.requests.length;
    writeFileSync(path, readFileSync(path, 'utf8').replace('approval: []', 'approval: [destroy]'));
    expect((await r.bot.reloadPolicy('signal')).kind).toBe('changed');
    await r.click(latest(card), 'op_confirm', BOB.id);
    await waitFor(() => ephemeralTo(BOB.id).some((t) => t.includes('workflow step')), { timeoutMs: 5000 });
    await r.bot.settled();
    expect(prod.requests.slice(from).filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await r.store.operations.byDedupeKey(`step:${executionId}`))?.status).toBe('pending');
  });
});
