/**
 * Names instead of numbers end to end (issue 14): what one answer showed lets the next command
 * use the name, resolved to the id before any request; an unknown name sends nothing and
 * suggests the nearest; `/cloud server known` lists what was seen; a name known on one account
 * means nothing in a channel of another.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/access/policy-file.js';
import { SEED_SERVERS, SEED_WORKER_UUID } from '../../src/sandbox/seed.js';
import { waitFor } from '../rig/wait-for.js';
import type { FakeChannel } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

const PROD: FakeChannel = { id: 'CPROD00002', name: 'prod-ops', botIsMember: true };
const STAGE: FakeChannel = { id: 'CSTAGE0002', name: 'staging-ops', botIsMember: true };
const NO_ROLES = { admins: [], operators: [], viewers: [] };

/** prod's inventory (policy file): names that work before any answer taught them; a reload replaces it. */
type Inventory = NonNullable<NonNullable<PolicyFile['accounts']>[string]['inventory']>;
let inventory: Inventory = [
  { kind: 'server', id: 102, name: 'billing-db', home: PROD.id },
  { kind: 'security group', id: 8, name: 'db-firewall' },
  { kind: 'worker', id: SEED_WORKER_UUID, name: 'docs' },
];
const POLICY = (urls: Record<string, string>): PolicyFile => ({
  version: 1,
  default_account: 'staging',
  accounts: {
    prod: { base_url: urls.prod!, token_env: 'CLOUD_PROD_TOKEN', inventory },
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
    reloadPolicy: POLICY,
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
    expect(shown).toContain('Servers known');
    expect(shown).toMatch(/web-1\.example\.net.*id `101`/);
    expect(prod().requests.length).toBe(from); // the bot's memory, not the cloud
    // A worker none of the answers showed is still listed when the policy file's inventory names it.
    const workers = await rig.command('worker known', { channelId: PROD.id });
    expect(visibleText(workers.final)).toMatch(/docs.*policy file inventory/);
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

describe('names that keep working (issue 20)', () => {
  it('a name one answer taught survives another answer about the same server', async () => {
    // The rename answer teaches `billing`; the addresses' reverse DNS (db-1.example.net) is another name.
    const before = staging().requests.length;
    await rig.sendCommand('server rename 102 billing', { channelId: STAGE.id });
    await waitFor(() => staging().requests.slice(before).some((r) => r.method === 'PATCH'), { timeoutMs: 5000 });
    await known('staging', 'server', 'billing');
    await rig.command('server ips billing', { channelId: STAGE.id });
    await known('staging', 'server', 'db-1.example.net');

    const from = staging().requests.length;
    const r = await rig.command('server status billing', { channelId: STAGE.id });
    expect(visibleText(r.final)).not.toContain("I don't know");
    expect(paths(staging().requests.slice(from))).toEqual(['GET /v2/servers/102/status']);
    // Both names stand for it, and `server known` says where each came from.
    const list = visibleText((await rig.command('server known', { channelId: STAGE.id })).final);
    expect(list).toMatch(/billing.*server rename/);
    expect(list).toMatch(/db-1\.example\.net.*server ips/);
  });

  it('two servers claiming one name: the bot asks which one is meant and sends nothing', async () => {
    const before = staging().requests.length;
    await rig.sendCommand('server rename 104 billing', { channelId: STAGE.id });
    await waitFor(async () => (await rig.store.known.find('staging', 'server', 'billing')).length === 2 || undefined, { timeoutMs: 5000 });
    expect(staging().requests.slice(before).filter((r) => r.method === 'PATCH')).toHaveLength(1);

    const from = staging().requests.length;
    const r = await rig.command('server status billing', { channelId: STAGE.id });
    expect(staging().requests.length).toBe(from);
    const shown = visibleText(r.final);
    expect(shown).toContain('`billing` could be 2 servers here');
    expect(shown).toMatch(/`102`.*`104`|`104`.*`102`/);
    expect(shown).toContain('Which one did you mean?');
  });

  it('a status answer that includes the server’s name teaches it', async () => {
    staging().addFault({
      method: 'GET',
      path: '/servers/103/status',
      rawBody: JSON.stringify({ data: { state: 'running', power_task: null, server_status: null, name: 'builder' } }),
    });
    await rig.command('server status 103', { channelId: STAGE.id });
    expect(await known('staging', 'server', 'builder')).toMatchObject({ id: '103' });
  });

  it('the policy file’s inventory names work from the first command, and `server known` says so', async () => {
    const from = prod().requests.length;
    const r = await rig.command('server status billing-db', { channelId: PROD.id });
    expect(paths(prod().requests.slice(from))).toEqual(['GET /v2/servers/102/status']);
    expect(visibleText(r.final)).toContain('102');
    const sg = prod().requests.length;
    await rig.command('sg show db-firewall', { channelId: PROD.id });
    expect(paths(prod().requests.slice(sg))).toEqual(['GET /v2/security-groups/8']);
    const w = prod().requests.length;
    await rig.command('worker status docs', { channelId: PROD.id });
    expect(paths(prod().requests.slice(w))).toEqual([`GET /v2/workers/${SEED_WORKER_UUID}/status`]);

    const list = visibleText((await rig.command('server known', { channelId: PROD.id })).final);
    expect(list).toMatch(/billing-db.*id `102`.*policy file inventory/);
    expect(list).toContain('home <#CPROD00002>');
    // Only on its own account.
    const other = await rig.command('server status billing-db', { channelId: STAGE.id });
    expect(visibleText(other.final)).toContain("I don't know a server named `billing-db` here");
  });

  it('a policy reload replaces the inventory', async () => {
    inventory = [{ kind: 'server', id: SEED_SERVERS.stopped.uuid, name: 'old-staging' }];
    const outcome = await rig.bot.reloadPolicy('signal');
    expect(outcome.kind).toBe('changed');
    expect(outcome.kind === 'changed' && outcome.changes.join('\n')).toContain('accounts.prod.inventory');

    const from = prod().requests.length;
    await rig.command('server status old-staging', { channelId: PROD.id });
    expect(paths(prod().requests.slice(from))).toEqual([`GET /v2/servers/${SEED_SERVERS.stopped.uuid}/status`]);
    const gone = await rig.command('server status billing-db', { channelId: PROD.id });
    expect(prod().requests.length).toBe(from + 1);
    expect(visibleText(gone.final)).toContain("I don't know a server named `billing-db` here");
  });
});
