/**
 * Every read command end to end: a signed /cloud command → the real Bolt app → the client →
 * the sandbox cloud, and back to the person through the response_url. Each test checks the
 * request the cloud received and what the person saw.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
  expect(rig.responses.violations).toEqual([]);
});

/** `METHOD /raw/path?sorted=query` of each request the cloud received. */
const paths = (r: { cloudRequests: { method: string; rawPath: string; query: Record<string, string> }[] }) =>
  r.cloudRequests.map((q) => {
    const query = new URLSearchParams(Object.entries(q.query).sort(([a], [b]) => a.localeCompare(b))).toString();
    return `${q.method} ${q.rawPath}${query ? `?${query}` : ''}`;
  });

describe('read commands', () => {
  it('server status', async () => {
    const r = await rig.command('server status 101');
    expect(r.ack.status).toBe(200);
    expect(paths(r)).toEqual(['GET /v2/servers/101/status']);
    expect(r.final.response_type).toBe('ephemeral');
    expect(visibleText(r.final)).toMatch(/Server 101[\s\S]*running/);
  });

  it('server status of the installing server says it is busy', async () => {
    const r = await rig.command('server status c2d4e6f8');
    expect(paths(r)).toEqual(['GET /v2/servers/c2d4e6f8/status']);
    expect(visibleText(r.final)).toContain('installing');
    expect(visibleText(r.final)).toContain('The server is busy');
  });

  it('server credentials go to the requester only and never into the log', async () => {
    const r = await rig.command('server credentials 5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11');
    expect(paths(r)).toEqual(['GET /v2/servers/5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11/credentials']);
    expect(r.final.response_type).toBe('ephemeral');
    const password = rig.sandbox.state.servers.find((s) => s.id === 101)!.rootPassword!;
    expect(password).toBeTruthy();
    expect(visibleText(r.final)).toContain(password);
    expect(visibleText(r.final)).toContain('Only you can see this');
    expect(rig.logLines.join('\n')).not.toContain(password);
    expect(JSON.stringify(rig.slack.calls)).not.toContain(password); // no chat.postMessage with it
  });

  it('server credentials while installing say the password is being generated', async () => {
    const r = await rig.command('server credentials 103');
    expect(visibleText(r.final)).toMatch(/still being generated/);
  });

  it('server ips marks the reserved address', async () => {
    const r = await rig.command('server ips 101');
    expect(paths(r)).toEqual(['GET /v2/servers/101/ips']);
    const text = visibleText(r.final);
    for (const a of ['185.10.20.11', '2a0c:8c0:1::11', '185.10.20.12', '185.10.20.50']) expect(text).toContain(a);
    expect(text).toMatch(/185\.10\.20\.50[^\n]*reserved/);
  });

  it('backup list pages with Next and Previous, editing the same message', async () => {
    const first = await rig.command('backup list 101');
    expect(paths(first)).toEqual(['GET /v2/servers/101/backups?page=1']);
    expect(visibleText(first.final)).toContain('Page 1 of 2 · 18 backups');
    const second = await rig.clickInResponse(first.posts.at(-1)!, 'cloud_page_next');
    expect(paths(second)).toEqual(['GET /v2/servers/101/backups?page=2']);
    expect(second.final.replace_original).toBe(true);
    expect(visibleText(second.final)).toContain('Page 2 of 2');
    expect(visibleText(second.final)).toContain('locked');
    const back = await rig.clickInResponse(second.posts.at(-1)!, 'cloud_page_prev');
    expect(paths(back)).toEqual(['GET /v2/servers/101/backups?page=1']);
  });

  it('ip subnets shows free addresses and flags the exhausted one', async () => {
    const r = await rig.command('ip subnets');
    expect(paths(r)).toEqual(['GET /v2/reserved-ips/subnets']);
    const text = visibleText(r.final);
    expect(text).toContain('sub-ams-1');
    expect(text).toMatch(/sub-fra-2[^\n]*:no_entry: 0 of/);
  });

  it('worker requirements, locations and templates', async () => {
    const req = await rig.command('worker requirements');
    expect(paths(req)).toEqual(['GET /v2/workers/deploy-requirements']);
    expect(visibleText(req.final)).toContain('42.50');
    const loc = await rig.command('worker locations');
    expect(paths(loc)).toEqual(['GET /v2/workers/locations']);
    expect(visibleText(loc.final)).toMatch(/NYC[^\n]*out of stock/);
    const tpl = await rig.command('worker templates');
    expect(paths(tpl)).toEqual(['GET /v2/workers/templates']);
    expect(visibleText(tpl.final)).toContain('db-postgresql-16');
  });

  it('worker status', async () => {
    const r = await rig.command(`worker status ${SEED_WORKER_UUID}`);
    expect(paths(r)).toEqual([`GET /v2/workers/${SEED_WORKER_UUID}/status`]);
    expect(visibleText(r.final)).toMatch(/Status\*\n:large_green_circle: active/);
  });

  it('sg show lists rules in priority order and the attached server', async () => {
    const r = await rig.command('sg show 7');
    expect(paths(r)).toEqual(['GET /v2/security-groups/7']);
    const group = rig.sandbox.state.securityGroups.find((g) => g.id === 7)!;
    const expected = [...group.rules].sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || a.id - b.id).map((x) => `#${x.id}`);
    const text = visibleText(r.final);
    const order = expected.map((id) => text.indexOf(id));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('web-1');
  });

  it('ssh-key list', async () => {
    const r = await rig.command('ssh-key list');
    expect(paths(r)).toEqual(['GET /v2/ssh-keys']);
    for (const id of ['11', '12', '13']) expect(visibleText(r.final)).toContain(`\`${id}\``);
  });

  it('ssh-key show: one key from the list, its whole public key as data', async () => {
    const key = rig.sandbox.state.sshKeys.find((k) => k.id === 12)!;
    const r = await rig.command('ssh-key show 12');
    expect(paths(r)).toEqual(['GET /v2/ssh-keys']);
    const text = visibleText(r.final);
    expect(text).toContain('SSH key 12');
    expect(text).toContain(`\`${key.name}\``);
    expect(text).toContain(key.public_key!.trim());
    expect(r.final.response_type).toBe('ephemeral');
  });

  it('ssh-key show of a key the account lacks says so; a malformed id sends nothing', async () => {
    const r = await rig.command('ssh-key show 999');
    expect(paths(r)).toEqual(['GET /v2/ssh-keys']);
    expect(visibleText(r.final)).toContain('The account has no SSH key `999`');
    const bad = await rig.command('ssh-key show 12/../../servers');
    expect(paths(bad)).toEqual([]);
    expect(visibleText(bad.final)).toContain('`12/../../servers` is not an id');
  });

  it('plan list with a location shows availability and sizes in GB', async () => {
    const r = await rig.command('plan list --location 1 --page 2');
    expect(paths(r)).toEqual(['GET /v2/plans?location_id=1&page=2']);
    const text = visibleText(r.final);
    expect(text).toMatch(/GB RAM/);
    expect(text).not.toMatch(/\d{9,} /); // no raw byte counts
    expect(text).toContain('out of stock');
  });

  it('plan list for a closed location says so', async () => {
    const r = await rig.command('plan list --location 4');
    expect(visibleText(r.final)).toMatch(/not open for ordering/);
  });

  it('account usage and invoices', async () => {
    const usage = await rig.command('account usage');
    expect(paths(usage)).toEqual(['GET /v2/account/usage']);
    expect(visibleText(usage.final)).toMatch(/IP addresses\*\n4 of 8/);
    const inv = await rig.command('account invoices --page 3');
    expect(paths(inv)).toEqual(['GET /v2/account/invoices?page=3']);
    expect(visibleText(inv.final)).toContain('Page 3 of 3 · 35 invoices');
  });

  it('help is generated from the catalog', async () => {
    const r = await rig.command('help');
    expect(r.cloudRequests).toEqual([]);
    expect(visibleText(r.final)).toContain('/cloud backup list <server> [--page N]');
    const server = await rig.command('help server');
    expect(visibleText(server.final)).toContain('/cloud server credentials <server>');
  });

  it('an unknown command gets a did-you-mean and usage, and no cloud call', async () => {
    const r = await rig.command('server stauts 101');
    expect(r.cloudRequests).toEqual([]);
    expect(visibleText(r.final)).toContain('Did you mean `/cloud server status 101`?');
    expect(visibleText(r.final)).toContain('/cloud server status <server>');
  });
});
