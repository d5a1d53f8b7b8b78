/**
 * Names instead of numbers end to end (issue 14): what one answer showed lets the next command
 * use the name, resolved to the id before any request; an unknown name sends nothing and
 * suggests the nearest; `/cloud server known` lists what was seen; a name known on one account
 * means nothing in a channel of another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/access/policy-file.js';
import { waitFor } from '../rig/wait-for.js';
import type { FakeChannel } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const PROD: FakeChannel = { id: 'CPROD00002', name: 'prod-ops', botIsMember: true };
const STAGE: FakeChannel = { id: 'CSTAGE0002', name: 'staging-ops', botIsMember: true };
const NO_ROLES = { admins: [], operators: [], viewers: [] };

const POLICY = (urls: Record<string, string>): PolicyFile => ({
  version: 1,
  default_account: 'staging',
  accounts: {
    prod: { base_url: urls.prod!, token_env: 'CLOUD_PROD_TOKEN' },
    staging: { base_url: urls.staging!, token_env: 'CLOUD_STAGING_TOKEN' },
  },
  default_channel: 'deny',
  channels: { [PROD.id]: { account: 'prod', ...NO_ROLES }, [STAGE.id]: { account: 'staging', ...NO_ROLES } },
});

let rig: BotRig;
const prod = () => rig.accounts.prod!.sandbox;
const staging = () => rig.accounts.staging!.sandbox;
const paths = (rs: { method: string; rawPath: string }[]) => rs.map((r) => `${r.method} ${r.rawPath}`);
/** Remembering does not hold the answer: wait until the store has it. */
const known = (account: string, kind: 'server' | 'sg' | 'worker', name: string) =>
  waitFor(async () => (await rig.store.known.find(account, kind, name))[0], { timeoutMs: 5000 });

beforeAll(async () => {
  rig = await startBotRig({
    accounts: { prod: { token: 'prod-token-e2e-known-aaaa' }, staging: { token: 'staging-token-e2e-known-bb' } },
    policy: POLICY,
    extraChannels: [PROD, STAGE],
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

describe('names instead of numbers', () => {
  it('after a read shows a server’s hostname, the hostname reaches /servers/101/status', async () => {
    await rig.command('server status 101', { channelId: PROD.id });
    // The status answer carries no name (the API has no "get server"); the addresses' reverse DNS does.
    await rig.command('server ips 101', { channelId: PROD.id });
    expect(await known('prod', 'server', 'web-1.example.net')).toMatchObject({ id: '101', account: 'prod' });

    const from = prod().requests.length;
    const r = await rig.command('server status web-1.example.net', { channelId: PROD.id });
    expect(paths(prod().requests.slice(from))).toEqual(['GET /v2/servers/101/status']);
    expect(visibleText(r.final)).toContain('101');
    // The hostname's first label is enough when it names one server.
    const again = prod().requests.length;
    await rig.command('server status web-1', { channelId: PROD.id });
    expect(paths(prod().requests.slice(again))).toEqual(['GET /v2/servers/101/status']);
  });

  it('an unknown name sends nothing and suggests the nearest known one', async () => {
    const from = prod().requests.length;
    const r = await rig.command('server status web-2.example.net', { channelId: PROD.id });
    expect(prod().requests.length).toBe(from);
    const shown = visibleText(r.final);
    expect(shown).toContain("I don't know a server named `web-2.example.net` here; did you mean `web-1.example.net`?");
    expect(shown).toContain('/cloud server known');
  });

  it('a group seen in sg show is known by name, and so are its servers', async () => {
    await rig.command('sg show 7', { channelId: PROD.id });
    expect(await known('prod', 'sg', 'web-default')).toMatchObject({ id: '7' });
    const from = prod().requests.length;
    await rig.command('sg show WEB-DEFAULT', { channelId: PROD.id });
    expect(paths(prod().requests.slice(from))).toEqual(['GET /v2/security-groups/7']);
  });

  it('/cloud server known lists what was seen on the channel’s account', async () => {
    const from = prod().requests.length;
    const r = await rig.command('server known', { channelId: PROD.id });
    const shown = visibleText(r.final);
    expect(shown).toContain('Servers seen');
    expect(shown).toMatch(/web-1\.example\.net.*id `101`/);
    expect(prod().requests.length).toBe(from); // the bot's memory, not the cloud
    const empty = await rig.command('worker known', { channelId: PROD.id });
    expect(visibleText(empty.final)).toContain('has not seen any worker on this account yet');
  });

  it('a name known only on prod is not resolved in a staging channel', async () => {
    const from = { prod: prod().requests.length, staging: staging().requests.length };
    const r = await rig.command('server status web-1.example.net', { channelId: STAGE.id });
    expect(prod().requests.length).toBe(from.prod);
    expect(staging().requests.length).toBe(from.staging);
    expect(visibleText(r.final)).toContain("I don't know a server named `web-1.example.net` here");
    const list = await rig.command('server known', { channelId: STAGE.id });
    expect(visibleText(list.final)).toContain('has not seen any server on this account yet');
  });
});
