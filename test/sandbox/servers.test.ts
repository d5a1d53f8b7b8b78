import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReinstallResult, Server, ServerCredentials, ServerIp, SERVER_STATUS_BEYOND_SPEC, ServerStatus } from '../../src/cloud-api/schemas.js';
import { SEED_SERVERS } from '../../src/sandbox/index.js';
import { expectError, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start({ reinstallMs: 60_000 });
});
afterEach(() => h.close());

const web = SEED_SERVERS.web;

describe('server identifier', () => {
  it.each([String(web.id), web.uuid.slice(0, 8), web.uuid, web.uuid.toUpperCase()])('finds web-1 by %s', async (ident) => {
    const r = await h.call('GET', `/servers/${ident}/status`);
    expect(r.status).toBe(200);
  });

  it('finds an all-digit uuid_short when no server has that numeric id', async () => {
    const staging = h.sandbox.state.servers.find((s) => s.id === 104);
    if (!staging) throw new Error('seed changed');
    staging.uuid = `12345678${staging.uuid.slice(8)}`;
    staging.uuidShort = '12345678';
    expect((await h.call('GET', '/servers/12345678/status')).json.data.state).toBe('stopped');
  });

  it.each(['999', 'deadbeef', '00000000-0000-4000-8000-000000000000', '5f0c3a1'])('answers 404 for %s', async (ident) => {
    expectError(await h.call('GET', `/servers/${ident}/credentials`), 404, 'NOT_FOUND');
  });
});

describe('status, credentials, rename', () => {
  it('GET status of a running and a stopped server', async () => {
    const run = expectShape(ServerStatus, (await h.call('GET', '/servers/101/status')).json.data, SERVER_STATUS_BEYOND_SPEC);
    expect(run).toMatchObject({ state: 'running', server_status: null });
    const stopped = expectShape(ServerStatus, (await h.call('GET', '/servers/104/status')).json.data, SERVER_STATUS_BEYOND_SPEC);
    expect(stopped.state).toBe('stopped');
    expect(stopped.power_task).toMatchObject({ action: 'shutdown', state: 'stopped' });
  });

  it('the installing server generates credentials, ready 5 minutes after start', async () => {
    const creds = async () => expectShape(ServerCredentials, (await h.call('GET', '/servers/103/credentials')).json.data);
    expect(await creds()).toEqual({ username: 'root', root_password: null, password_status: 'generating', ipv4: '45.80.12.31', ipv6: null });
    expect((await h.call('GET', '/servers/103/status')).json.data.server_status).toBe('installing');
    await h.clock.advance(5 * 60_000);
    const ready = await creds();
    expect(ready.password_status).toBe('ready');
    expect(ready.root_password).toEqual(expect.stringMatching(/^.{16,}$/));
    expect((await h.call('GET', '/servers/103/status')).json.data.server_status).toBeNull();
  });

  it('GET credentials of web-1 has both primary addresses', async () => {
    const c = (await h.call('GET', '/servers/101/credentials')).json.data;
    expect(c).toMatchObject({ username: 'root', password_status: 'ready', ipv4: '185.10.20.11', ipv6: '2a0c:8c0:1::11' });
  });

  it('PATCH rename returns the Server', async () => {
    const r = await h.call('PATCH', `/servers/${web.uuid}/rename`, { name: 'web-frontend' });
    const s = expectShape(Server, r.json.data);
    expect(s).toMatchObject({ id: 101, uuid: web.uuid, uuid_short: '5f0c3a1e', name: 'web-frontend', hostname: 'web-1.example.net' });
    for (const ip of s.ip_addresses ?? []) expectShape(ServerIp, ip);
    expect(s.ip_addresses?.map((ip) => [ip.address, ip.reserved])).toEqual([
      ['185.10.20.11', false],
      ['2a0c:8c0:1::11', false],
      ['185.10.20.12', false],
      ['185.10.20.50', true],
    ]);
    expect((await h.call('PATCH', '/servers/101/rename', { name: 'n'.repeat(40) })).status).toBe(200);
  });

  it.each([{}, { name: '' }, { name: 'n'.repeat(41) }, { name: 42 }])('rename refuses %j', async (body) => {
    const err = expectError(await h.call('PATCH', '/servers/101/rename', body), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details)).toEqual(['name']);
  });
});

describe('POST /servers/{server}/reinstall', () => {
  it('reinstalls: reinstalling with generating credentials, then ready with the password', async () => {
    const r = await h.call('POST', '/servers/101/reinstall', { template_slug: 'debian-12', password: 's3cret-pass', ssh_key_ids: [11, 12] });
    expect(r.status).toBe(200);
    expect(expectShape(ReinstallResult, r.json.data)).toEqual({ status: 'reinstalling', password: 's3cret-pass' });
    expect((await h.call('GET', '/servers/101/status')).json.data.server_status).toBe('reinstalling');
    expect((await h.call('GET', '/servers/101/credentials')).json.data).toMatchObject({ root_password: null, password_status: 'generating' });
    // A second reinstall while reinstalling conflicts.
    expectError(await h.call('POST', '/servers/101/reinstall', { template_slug: 'debian-12' }), 409, 'SERVER_STATUS_CONFLICT');
    await h.clock.advance(59_999);
    expect((await h.call('GET', '/servers/101/credentials')).json.data.password_status).toBe('generating');
    await h.clock.advance(1);
    expect((await h.call('GET', '/servers/101/credentials')).json.data).toMatchObject({ root_password: 's3cret-pass', password_status: 'ready' });
    expect((await h.call('GET', '/servers/101/status')).json.data.server_status).toBeNull();
  });

  it('generates a password of 16+ characters when none is given', async () => {
    const r = await h.call('POST', '/servers/104/reinstall', { template_slug: 'ubuntu-24.04' });
    expect(r.json.data.password).toMatch(/^[A-Za-z0-9]{16,}$/);
  });

  it.each([
    [{}, 'template_slug'],
    [{ template_slug: 'debian-12', password: 'short' }, 'password'],
    [{ template_slug: 'debian-12', ssh_key_ids: [] }, 'ssh_key_ids'],
    [{ template_slug: 'debian-12', ssh_key_ids: Array.from({ length: 21 }, () => 11) }, 'ssh_key_ids'],
    [{ template_slug: 'debian-12', ssh_key_ids: [11, 999] }, 'ssh_key_ids'],
    [{ template_slug: 'debian-12', ssh_key_ids: ['11'] }, 'ssh_key_ids'],
    [{ template_slug: 'debian-12', ssh_key_ids: 11 }, 'ssh_key_ids'],
  ])('refuses %j with VALIDATION_ERROR', async (body, field) => {
    const err = expectError(await h.call('POST', '/servers/101/reinstall', body), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details)).toEqual([field]);
  });

  it('accepts 20 ssh keys and an 8-character password', async () => {
    const r = await h.call('POST', '/servers/101/reinstall', {
      template_slug: 'rocky-9',
      password: '12345678',
      ssh_key_ids: Array.from({ length: 20 }, (_, i) => 11 + (i % 3)),
    });
    expect(r.status).toBe(200);
  });

  it('sets no maximum on the password (the spec gives a minimum only): the bot’s form allows 255, and so does the cloud', async () => {
    const password = 'p'.repeat(255);
    const r = await h.call('POST', '/servers/101/reinstall', { template_slug: 'debian-12', password });
    expect(r.status).toBe(200);
    expect(r.json.data.password).toBe(password);
  });

  it('refuses an unknown template with TEMPLATE_NOT_FOUND and a busy server with 409', async () => {
    expectError(await h.call('POST', '/servers/101/reinstall', { template_slug: 'windows-95' }), 422, 'TEMPLATE_NOT_FOUND');
    expectError(await h.call('POST', '/servers/103/reinstall', { template_slug: 'debian-12' }), 409, 'SERVER_STATUS_CONFLICT');
    const db = h.sandbox.state.servers.find((s) => s.id === 102);
    if (db) db.status = 'restoring';
    expectError(await h.call('POST', '/servers/102/reinstall', { template_slug: 'debian-12' }), 409, 'SERVER_STATUS_CONFLICT');
  });
});

describe('server IPs', () => {
  it('GET ips lists every address with the reserved flag', async () => {
    const r = await h.call('GET', '/servers/5f0c3a1e/ips');
    const ips = (r.json.data as unknown[]).map((x) => expectShape(ServerIp, x));
    expect(ips).toHaveLength(4);
    expect(ips[3]).toEqual({ address: '185.10.20.50', type: 'ipv4', gateway: '185.10.20.1', cidr: 24, rdns: null, reserved: true });
  });

  it('refuses to remove a primary IPv4 or IPv6 (CANNOT_REMOVE_PRIMARY)', async () => {
    expectError(await h.call('DELETE', '/servers/101/ips/185.10.20.11'), 422, 'CANNOT_REMOVE_PRIMARY');
    expectError(await h.call('DELETE', '/servers/101/ips/2a0c%3A08c0%3A0001%3A%3A11'), 422, 'CANNOT_REMOVE_PRIMARY');
  });

  it('answers 404 for an address not on the server', async () => {
    expectError(await h.call('DELETE', '/servers/101/ips/185.10.20.21'), 404, 'NOT_FOUND');
    expectError(await h.call('DELETE', '/servers/101/ips/not-an-ip'), 404, 'NOT_FOUND');
  });

  it('detaches a reserved IP: it stays reserved, unused, and is not counted', async () => {
    const r = await h.call('DELETE', '/servers/101/ips/185.10.20.50');
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const reserved = h.sandbox.state.reservedIps.find((x) => x.address === '185.10.20.50');
    expect(reserved?.serverId).toBeNull();
    expect(h.sandbox.state.account.ipRemovalsThisWeek).toBe(0);
    const ips = (await h.call('GET', '/servers/101/ips')).json.data as { address: string }[];
    expect(ips.map((x) => x.address)).not.toContain('185.10.20.50');
    // Still counts against the limit as an unused reserved IP: used unchanged at 4.
    expect((await h.call('GET', '/account/usage')).json.data.ip_used).toBe(4);
  });

  it('removes a secondary IP, counting it toward the weekly limit (RESOURCE_LIMIT_EXCEEDED)', async () => {
    const acc = h.sandbox.state.account;
    acc.ipRemovalsThisWeek = acc.weeklyIpRemovalLimit - 1;
    expect((await h.call('DELETE', '/servers/101/ips/185.10.20.12')).status).toBe(204);
    expect(acc.ipRemovalsThisWeek).toBe(acc.weeklyIpRemovalLimit);
    h.sandbox.state.servers[0]?.ips.push({ address: '185.10.20.13', type: 'ipv4', gateway: '185.10.20.1', cidr: 24, rdns: null, primary: false });
    const err = expectError(await h.call('DELETE', '/servers/101/ips/185.10.20.13'), 422, 'RESOURCE_LIMIT_EXCEEDED');
    expect(err.details).toEqual({ limit: 5, used: 5 });
    // Reserved IPs are still detachable at the limit.
    expect((await h.call('DELETE', '/servers/101/ips/185.10.20.50')).status).toBe(204);
  });
});
