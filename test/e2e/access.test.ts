/**
 * Access control end to end: who may run what, where — at the command, at the click, at the
 * form — with roles from the lists, from user groups, from the per-channel policy, and with
 * two-person approval.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readPolicyFile } from '../../src/access/policy-file.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL, RANDOM_CHANNEL } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const DAVE = 'UDAVE00004'; // on no list
const ERIN = 'UERIN00005'; // a second admin
const ONCALL = 'SONCALL001'; // a user group of operators

/** One operation of each tier, and what the cloud receives when it is allowed. */
const PROBES = {
  read: { cmd: 'account usage', sent: 'GET /v2/account/usage' },
  change: { cmd: 'sg deploy 7', sent: 'POST /v2/security-groups/7/deploy' },
  billing: { cmd: 'account invoices', sent: 'GET /v2/account/invoices' },
  destroy: { cmd: 'ssh-key delete 11', sent: 'GET /v2/ssh-keys' }, // allowed: the precheck runs, then it asks
  secret: { cmd: 'server credentials 101', sent: 'GET /v2/servers/101/credentials' },
} as const;

const MATRIX: Record<string, { user: string; may: (keyof typeof PROBES)[]; role: string }> = {
  admin: { user: ALICE.id, may: ['read', 'change', 'billing', 'destroy', 'secret'], role: 'admin' },
  operator: { user: BOB.id, may: ['read', 'change'], role: 'operator' },
  viewer: { user: CAROL.id, may: ['read'], role: 'viewer' },
  'no role (CLOUD_VIEWERS set)': { user: DAVE, may: [], role: 'none' },
};

const text = (m: { blocks?: unknown[]; text: string }) => visibleText({ text: m.text, blocks: m.blocks });

describe('every tier × role', () => {
  let rig: BotRig;
  beforeAll(async () => {
    rig = await startBotRig({ access: { admins: [ALICE.id], operators: [BOB.id], viewers: [CAROL.id] } });
  });
  afterAll(async () => {
    await rig.close();
    expect(rig.slack.violations).toEqual([]);
  });

  for (const [roleName, { user, may, role }] of Object.entries(MATRIX)) {
    for (const [tier, probe] of Object.entries(PROBES) as [keyof typeof PROBES, (typeof PROBES)[keyof typeof PROBES]][]) {
      const allowed = may.includes(tier);
      it(`${roleName} ${allowed ? 'may' : 'may not'} run a ${tier} operation (${probe.cmd})`, async () => {
        if (allowed) {
          // Reads answer privately, changes in the channel: either way the cloud gets the request.
          const from = rig.sandbox.requests.length;
          await rig.sendCommand(probe.cmd, { userId: user });
          await waitFor(() => rig.sandbox.requests.slice(from).some((q) => `${q.method} ${q.rawPath}` === probe.sent), { timeoutMs: 5000 });
        } else {
          const r = await rig.command(probe.cmd, { userId: user });
          expect(r.cloudRequests).toEqual([]);
          const said = visibleText(r.final);
          expect(r.final.response_type).toBe('ephemeral');
          expect(said).toMatch(/it needs the \*(viewer|operator|admin)\* role/);
          expect(said).toContain(role === 'none' ? 'You have no role here.' : `Your role here is *${role}*.`);
        }
      });
    }
  }

  it('help lists only what the asker may run', async () => {
    const viewer = visibleText((await rig.command('help', { userId: CAROL.id })).final);
    expect(viewer).toContain('/cloud account usage');
    expect(viewer).not.toContain('/cloud server reinstall');
    expect(viewer).not.toContain('/cloud server credentials');
    const admin = visibleText((await rig.command('help', { userId: ALICE.id })).final);
    expect(admin).toContain('/cloud server reinstall');
    const nobody = visibleText((await rig.command('help', { userId: DAVE })).final);
    expect(nobody).toContain('You may not run any command here');
  });
});

describe('user groups, channels and the policy file', () => {
  let rig: BotRig;
  beforeAll(async () => {
    rig = await startBotRig({
      access: { admins: [ALICE.id], operators: [ONCALL], channels: [OPS_CHANNEL.id] },
      policy: { channels: { [OPS_CHANNEL.id]: { admins: [], operators: [], viewers: [] } } },
      groupCacheMs: 0,
    });
  });
  afterAll(async () => rig.close());
  afterEach(() => rig.slack.setMembers(ONCALL, []));

  it('a member of an operators user group acts as an operator; leaving the group takes it away', async () => {
    rig.slack.setMembers(ONCALL, [CAROL.id]);
    const from = rig.sandbox.requests.length;
    await rig.sendCommand('sg deploy 8', { userId: CAROL.id });
    await waitFor(() => rig.sandbox.requests.slice(from).some((q) => q.rawPath === '/v2/security-groups/8/deploy'), { timeoutMs: 5000 });
    expect(rig.slack.callsTo('usergroups.users.list').at(-1)?.params.usergroup).toBe(ONCALL);
    rig.slack.setMembers(ONCALL, []);
    const after = await rig.command('sg deploy 8', { userId: CAROL.id });
    expect(after.cloudRequests).toEqual([]);
    expect(visibleText(after.final)).toContain('Your role here is *viewer*');
  });

  it('commands are taken only in the allowed channels', async () => {
    const r = await rig.command('account usage', { userId: ALICE.id, channelId: RANDOM_CHANNEL.id });
    expect(r.cloudRequests).toEqual([]);
    expect(visibleText(r.final)).toContain(`only in <#${OPS_CHANNEL.id}>`);
    const help = await rig.command('help', { userId: ALICE.id, channelId: RANDOM_CHANNEL.id });
    expect(visibleText(help.final)).toContain('You may not run any command here');
  });
});

describe('per-channel roles from ACCESS_POLICY', () => {
  let rig: BotRig;
  beforeAll(async () => {
    rig = await startBotRig({ access: { admins: [ALICE.id], operators: [] }, policy: { channels: { [OPS_CHANNEL.id]: { admins: [], operators: [CAROL.id], viewers: [] } } } });
  });
  afterAll(async () => rig.close());

  it('a channel grants more than the global lists, only there', async () => {
    const from = rig.sandbox.requests.length;
    await rig.sendCommand('sg deploy 7', { userId: CAROL.id, channelId: OPS_CHANNEL.id });
    await waitFor(() => rig.sandbox.requests.slice(from).some((q) => q.rawPath === '/v2/security-groups/7/deploy'), { timeoutMs: 5000 });
    const elsewhere = await rig.command('sg deploy 7', { userId: CAROL.id, channelId: RANDOM_CHANNEL.id });
    expect(elsewhere.cloudRequests).toEqual([]);
    expect(visibleText(elsewhere.final)).toContain('Your role here is *viewer*');
  });
});

describe('who may confirm, and two-person approval', () => {
  let rig: BotRig;
  beforeAll(async () => {
    rig = await startBotRig({ access: { admins: [ALICE.id, ERIN], operators: [BOB.id], approval: 'destroy' } });
  });
  afterAll(async () => {
    await rig.close();
    expect(rig.slack.violations).toEqual([]);
  });

  const ephemeralTo = (user: string) => rig.slack.messages.ephemeral(user).map((e) => visibleText({ text: e.text, blocks: e.blocks }));

  it('a destroy needs a second admin: the requester, a viewer and an operator cannot approve; another admin can', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 12', { userId: ALICE.id });
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toContain('awaiting approval by a second admin');
    expect(JSON.stringify(msg.blocks)).toContain('"text":"Approve"');

    await rig.click(msg, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('another admin must approve it')), { timeoutMs: 5000 });
    await rig.click(msg, 'op_confirm', CAROL.id);
    await waitFor(() => ephemeralTo(CAROL.id).some((t) => t.includes('needs the *admin* role. Your role here is *viewer*')), { timeoutMs: 5000 });
    await rig.click(msg, 'op_confirm', BOB.id);
    await waitFor(() => ephemeralTo(BOB.id).some((t) => t.includes('needs the *admin* role. Your role here is *operator*')), { timeoutMs: 5000 });
    expect(rig.mutations(from)).toEqual([]);

    await rig.click(msg, 'op_confirm', ERIN);
    const done = await waitFor(() => {
      const m = rig.slack.messages.get(msg.channel, msg.ts)!;
      return text(m).includes('— done') ? m : undefined;
    }, { timeoutMs: 5000 });
    expect(text(done)).toContain(`approved by <@${ERIN}>`);
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['DELETE /v2/ssh-keys/12']);
    const [record] = await rig.store.operations.listRecent({ limit: 1 });
    expect(record).toMatchObject({ requestedBy: ALICE.id, approvedBy: ERIN, confirmedBy: ERIN, status: 'succeeded' });
  });

  it('a change that is not a destroy needs no approval', async () => {
    const from = rig.sandbox.requests.length;
    await rig.sendCommand('sg deploy 7', { userId: BOB.id });
    await waitFor(() => rig.sandbox.requests.slice(from).some((q) => q.rawPath === '/v2/security-groups/7/deploy'), { timeoutMs: 5000 });
  });
});

describe('two-person approval of a change (the policy’s `approval: [change]`)', () => {
  let rig: BotRig;
  let dir: string;
  const TOKEN = 'prod-token-approval-aaaaaaaa';
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'approval-change-'));
    const path = join(dir, 'policy.yaml');
    const load = (urls: Record<string, string>) => {
      writeFileSync(
        path,
        `version: 1\naccounts:\n  prod: { base_url: ${urls.prod}, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels:\n  ${OPS_CHANNEL.id}: { account: prod, ceiling: [read, change], approval: [change] }\n`,
      );
      return readPolicyFile(path, { hasEnv: (n) => n === 'CLOUD_PROD_TOKEN' });
    };
    rig = await startBotRig({ accounts: { prod: { token: TOKEN } }, policy: load, policyPath: path, access: { admins: [ALICE.id], operators: [BOB.id, CAROL.id] } });
  });
  afterAll(async () => {
    await rig.close();
    rmSync(dir, { recursive: true, force: true });
    expect(rig.slack.violations).toEqual([]);
  });
  const ephemeralTo = (user: string) => rig.slack.messages.ephemeral(user).map((e) => visibleText({ text: e.text, blocks: e.blocks }));

  it('a second operator cannot approve an operator’s change; an admin can, once', async () => {
    const cloud = rig.accounts.prod!.sandbox;
    const from = cloud.requests.length;
    const before = Date.now();
    await rig.sendCommand('sg deploy 7', { userId: BOB.id });
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toContain('awaiting approval by a second admin');

    await rig.click(msg, 'op_confirm', CAROL.id);
    await waitFor(() => ephemeralTo(CAROL.id).some((t) => t.includes('Only an admin can approve this')), { timeoutMs: 5000 });
    expect(cloud.requests.slice(from).filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await rig.store.operations.listRecent({ limit: 1 }))[0]).toMatchObject({ status: 'pending', approvedBy: null });

    await rig.click(msg, 'op_confirm', ALICE.id);
    await waitFor(() => (text(rig.slack.messages.get(msg.channel, msg.ts)!).includes('— done') ? true : undefined), { timeoutMs: 5000 });
    expect(cloud.requests.slice(from).filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.rawPath}`)).toEqual(['POST /v2/security-groups/7/deploy']);
    expect((await rig.store.operations.listRecent({ limit: 1 }))[0]).toMatchObject({ requestedBy: BOB.id, approvedBy: ALICE.id, status: 'succeeded' });
  });
});
