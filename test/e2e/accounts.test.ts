/**
 * Several cloud accounts end to end (issue 12): each channel drives its own account, a token
 * reaches only its own account's URL (reads, changes, confirmations across a restart,
 * watches), channel ceilings and deny-by-default refuse before the cloud hears anything,
 * `--account` is held to the channel's set, messages name the account, and `/cloud policy`
 * explains. (A reloaded policy: policy-reload.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/domain/audit-entry.js';
import type { Tier } from '../../src/domain/tier.js';
import type { RecordedRequest } from '../../src/sandbox/index.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { rigHelpers, startBotRig, visibleText, WATCHER_AGENT, type BotRig } from './bot-rig.js';

const PROD_TOKEN = 'prod-token-e2e-aaaaaaaaaaaa';
const STAGING_TOKEN = 'staging-token-e2e-bbbbbbbbb';
const PROD: FakeChannel = { id: 'CPROD00001', name: 'prod-ops', botIsMember: true };
const STAGE: FakeChannel = { id: 'CSTAGE0001', name: 'staging-ops', botIsMember: true };
const READONLY: FakeChannel = { id: 'CREAD00001', name: 'prod-readonly', botIsMember: true };
const CHANNELS = [PROD, STAGE, READONLY];

const channel = (account: string, more: { accounts?: string[]; ceiling?: Tier[] } = {}) => ({ account, ...more, ...NO_ROLES });

/** prod and staging; staging is the default; unlisted channels (OPS_CHANNEL) are refused. */
const POLICY = (urls: Record<string, string>) =>
  twoAccountPolicy(urls, {
    [PROD.id]: channel('prod'),
    [STAGE.id]: channel('staging', { accounts: ['prod'] }),
    [READONLY.id]: channel('prod', { ceiling: ['read'] }),
  });

const ACCOUNTS = { prod: { token: PROD_TOKEN }, staging: { token: STAGING_TOKEN } };

let rig: BotRig;
const { text, until } = rigHelpers(() => rig);
const prod = () => rig.accounts.prod!.sandbox;
const staging = () => rig.accounts.staging!.sandbox;
/** Where both sandboxes are now, to look at what arrived since. */
const mark = () => ({ prod: prod().requests.length, staging: staging().requests.length });
const since = (m: ReturnType<typeof mark>) => ({ prod: prod().requests.slice(m.prod), staging: staging().requests.slice(m.staging) });
const lines = (rs: RecordedRequest[]) => rs.map((r) => `${r.method} ${r.rawPath}`);
const audit = async (): Promise<AuditEntry[]> => rig.store.audit.list({ limit: 200 });

beforeAll(async () => {
  rig = await startBotRig({ accounts: ACCOUNTS, policy: POLICY, extraChannels: CHANNELS, watch: { intervalMs: 150 } });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

describe("a token reaches only its own account's URL", () => {
  // The same steps in each channel; afterwards each sandbox must have seen only its own token.
  for (const [name, ch] of [
    ['prod', PROD],
    ['staging', STAGE],
  ] as const) {
    it(`in #${ch.name}: a read, a rename, a confirmed delete and a --watch all go to ${name}`, async () => {
      const m = mark();
      const read = await rig.command('account usage', { channelId: ch.id });
      expect(visibleText(read.final)).toContain(`account \`${name}\``);

      let before = Date.now();
      await rig.sendCommand(`server rename 101 web-${name}`, { channelId: ch.id });
      await waitFor(() => since(m)[name].some((r) => r.method === 'PATCH' && r.rawPath === '/v2/servers/101/rename'), { timeoutMs: 5000 });
      const renamed = await rig.statusMessage(ch.id, before);
      expect(text(await until(renamed, `account \`${name}\``))).toContain(`account \`${name}\``);

      before = Date.now();
      await rig.sendCommand('ssh-key delete 11', { channelId: ch.id });
      const ask = await rig.statusMessage(ch.id, before);
      expect(text(ask)).toContain('awaiting confirmation');
      expect(text(ask)).toContain(`account \`${name}\``);
      await rig.click(ask, 'op_confirm', ALICE.id);
      await until(ask, '— done');

      const watch = await rig.command('server status 103 --watch', { channelId: ch.id });
      expect(visibleText(watch.final)).toMatch(/Watching in the channel as `w[a-z2-7]{8}`/);
      await waitFor(() => since(m)[name].some((r) => r.userAgent === WATCHER_AGENT && r.rawPath === '/v2/servers/103/status'), { timeoutMs: 5000 });
      const id = /`(w[a-z2-7]{8})`/.exec(visibleText(watch.final))![1]!;
      await rig.command(`watch cancel ${id}`, { channelId: ch.id });

      const got = since(m);
      const other = name === 'prod' ? 'staging' : 'prod';
      expect(lines(got[name])).toEqual(expect.arrayContaining(['GET /v2/account/usage', 'PATCH /v2/servers/101/rename', 'DELETE /v2/ssh-keys/11']));
      expect(got[other]).toEqual([]);
    });
  }

  it('a confirmation asked before a restart and confirmed after it goes to its own account', async () => {
    // In the prod channel: prod is not the default account, so a record that lost its
    // account would go to staging.
    const m = mark();
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 12', { channelId: PROD.id });
    const ask = await rig.statusMessage(PROD.id, before);
    expect(text(ask)).toContain('awaiting confirmation');
    await rig.restartBot();
    await rig.click(ask, 'op_confirm', ALICE.id);
    expect(text(await until(ask, '— done'))).toContain('account `prod`');
    expect(lines(since(m).prod.filter((r) => r.method !== 'GET'))).toEqual(['DELETE /v2/ssh-keys/12']);
    expect(since(m).prod.every((r) => r.token === PROD_TOKEN)).toBe(true);
    expect(since(m).staging).toEqual([]);
  });

  it("the audit entries of the prod channel's changes name prod", async () => {
    // (watch.cancel acts on the bot, not on an account: not among these.)
    const entries = (await audit()).filter((e) => e.channelId === PROD.id && ['server.rename', 'ssh-key.delete'].includes(e.opId) && e.outcome === 'succeeded');
    expect(entries.map((e) => e.opId).sort()).toEqual(['server.rename', 'ssh-key.delete', 'ssh-key.delete']);
    for (const e of entries) expect([e.opId, e.account]).toEqual([e.opId, 'prod']);
  });

  it('every request each sandbox received carried its own token; the default sandbox got nothing', () => {
    expect(prod().requests.length).toBeGreaterThan(3);
    expect(staging().requests.length).toBeGreaterThan(3);
    expect(new Set(prod().requests.map((r) => r.token))).toEqual(new Set([PROD_TOKEN]));
    expect(new Set(staging().requests.map((r) => r.token))).toEqual(new Set([STAGING_TOKEN]));
    expect(rig.sandbox.requests).toEqual([]);
  });
});

describe('guardrails refuse before the cloud hears anything', () => {
  it("a channel ceiling of read refuses an admin's destroy, naming channels.<id>.ceiling; the refusal is audited with the rule and the account", async () => {
    const m = mark();
    const r = await rig.command('ssh-key delete 13', { channelId: READONLY.id, userId: ALICE.id });
    const said = visibleText(r.final);
    expect(said).toContain(`channels.${READONLY.id}.ceiling`);
    expect(said).toContain('no role can do it here');
    expect(since(m)).toEqual({ prod: [], staging: [] });
    const entry = await waitFor(async () => (await audit()).find((e) => e.outcome === 'refused' && e.channelId === READONLY.id));
    expect(entry).toMatchObject({ userId: ALICE.id, opId: 'ssh-key.delete', errorCode: 'CHANNEL_CEILING' });
    expect(entry.detail).toContain(`channels.${READONLY.id}.ceiling`);
    // The channel drives prod; an entry without an account would read as the default (staging).
    expect(entry.account).toBe('prod');
    // Reads still work there.
    const read = await rig.command('account usage', { channelId: READONLY.id });
    expect(lines(since(m).prod)).toEqual(['GET /v2/account/usage']);
    expect(visibleText(read.final)).toContain('account `prod`');
  });

  it('deny by default refuses a command in an unlisted channel, naming default_channel', async () => {
    const m = mark();
    const r = await rig.command('account usage', { channelId: OPS_CHANNEL.id });
    expect(visibleText(r.final)).toContain('default_channel');
    expect(visibleText(r.final)).toContain('not in the access policy');
    expect(since(m)).toEqual({ prod: [], staging: [] });
    const entry = await waitFor(async () => (await audit()).find((e) => e.outcome === 'refused' && e.channelId === OPS_CHANNEL.id));
    expect(entry.detail).toContain('default_channel');
  });

  it('--account outside the channel\'s set is refused before any request; the audit entry names it and the rule', async () => {
    const m = mark();
    const r = await rig.command('account usage --account staging', { channelId: PROD.id });
    const said = visibleText(r.final);
    expect(said).toContain(`channels.${PROD.id}.accounts`);
    expect(said).toContain('may not use account `staging`');
    expect(since(m)).toEqual({ prod: [], staging: [] });
    const entry = await waitFor(async () => (await audit()).find((e) => e.outcome === 'refused' && e.errorCode === 'ACCOUNT_NOT_ALLOWED'));
    expect(entry).toMatchObject({ channelId: PROD.id, account: 'staging' });
    expect(entry.detail).toContain(`channels.${PROD.id}.accounts`);

    const change = await rig.command('server rename 101 nope --account staging', { channelId: PROD.id });
    expect(visibleText(change.final)).toContain(`channels.${PROD.id}.accounts`);
    expect(since(m)).toEqual({ prod: [], staging: [] });
  });

  it('an allowed --account goes to that account only', async () => {
    const m = mark();
    const r = await rig.command('account usage --account prod', { channelId: STAGE.id });
    expect(visibleText(r.final)).toContain('account `prod`');
    expect(lines(since(m).prod)).toEqual(['GET /v2/account/usage']);
    expect(since(m).prod.every((q) => q.token === PROD_TOKEN)).toBe(true);
    expect(since(m).staging).toEqual([]);
  });

  it('help --account names the account chosen, and is refused for one the channel may not use', async () => {
    const chosen = visibleText((await rig.command('help --account prod', { channelId: STAGE.id })).final);
    expect(chosen).toContain('With `--account prod`, commands act on account `prod`');
    expect(chosen).not.toContain('Commands here act on account `staging`');
    expect(chosen).toContain('/cloud server status');
    const refused = visibleText((await rig.command('help server --account staging', { channelId: PROD.id })).final);
    expect(refused).toContain('may not use account `staging`');
    expect(refused).toContain(`channels.${PROD.id}.accounts`);
    expect(refused).not.toContain('/cloud server status');
  });
});

describe('/cloud policy', () => {
  it("an admin sees the channel's account and ceiling", async () => {
    const m = mark();
    const r = await rig.command('policy', { channelId: READONLY.id, userId: ALICE.id });
    const said = visibleText(r.final);
    expect(said).toContain('Account: `prod`');
    expect(said).toContain(`channels.${READONLY.id}.ceiling`);
    expect(said).toMatch(/Ceiling: .*read/);
    expect(since(m)).toEqual({ prod: [], staging: [] });
  });

  it('an operator is refused', async () => {
    const m = mark();
    const r = await rig.command('policy', { channelId: PROD.id, userId: BOB.id });
    expect(visibleText(r.final)).toMatch(/needs the \*admin\* role/);
    expect(visibleText(r.final)).not.toContain('Account: `prod`');
    expect(since(m)).toEqual({ prod: [], staging: [] });
  });
});

describe('only CLOUD_API_TOKEN: no account is named', () => {
  let plain: BotRig;
  beforeAll(async () => {
    plain = await startBotRig();
  });
  afterAll(async () => plain.close());

  it('a read and the status message of a change do not name an account', async () => {
    const read = await plain.command('account usage');
    expect(read.cloudRequests.map((q) => q.rawPath)).toEqual(['/v2/account/usage']);
    expect(visibleText(read.final)).not.toMatch(/account `|Account: `/);
    const before = Date.now();
    await plain.sendCommand('server rename 101 web-plain');
    const msg = await plain.statusMessage(OPS_CHANNEL.id, before);
    const done = await waitFor(() => {
      const now = plain.slack.messages.get(msg.channel, msg.ts)!;
      const t = visibleText({ text: now.text, blocks: now.blocks });
      return t.includes('sent `PATCH') ? t : undefined;
    }, { timeoutMs: 5000 });
    expect(done).not.toMatch(/account `|Account: `/);
    expect(plain.sandbox.requests.every((q) => q.token === plain.sandbox.token)).toBe(true);
  });
});
