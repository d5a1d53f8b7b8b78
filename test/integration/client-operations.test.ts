/**
 * Every client operation against the seeded sandbox over loopback: what the client parsed
 * (values from src/sandbox/seed.ts and seed-catalog.ts) and what the sandbox received
 * (method, raw path, query, body).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SEED_SERVERS, SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import { DAY, GiB, TOKEN, collect, startRig } from './helpers.js';
import type { Rig } from './helpers.js';

const WEB = SEED_SERVERS.web;
const DB = SEED_SERVERS.db;
const START = Date.parse('2026-11-22T12:00:00Z'); // createManualClock's default start

let rig: Rig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  await rig.close();
});

/** The one request a call made (and that it made exactly one). */
function only(mark: number) {
  const got = rig.since(mark);
  expect(got).toHaveLength(1);
  return got[0]!;
}

const wire = (r: { method: string; rawPath: string; query: Record<string, string>; body: unknown }) => ({
  method: r.method,
  rawPath: r.rawPath,
  query: r.query,
  body: r.body,
});

describe('reserved IPs', () => {
  it('subnets: every subnet with its location, CIDR and free count', async () => {
    const subnets = await rig.client.reservedIps.subnets();
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/reserved-ips/subnets', query: {}, body: undefined });
    expect(subnets.map((s) => s.id)).toEqual(['sub-ams-1', 'sub-ams-2', 'sub-fra-1', 'sub-fra-2', 'sub-nyc-1']);
    // sub-ams-1: 253 hosts; .100–.199 foreign (100), web-1 .11/.12/.50, db-1 .21, reserved .51.
    expect(subnets[0]).toEqual({
      id: 'sub-ams-1',
      location_id: 1,
      location: { id: 1, short_code: 'AMS', description: 'Amsterdam, Netherlands' },
      subnet: '185.10.20.0/24',
      type: 'ipv4',
      available: 253 - 105,
      total: 253,
      hourly_price: 0.0065,
    });
    expect(subnets.find((s) => s.id === 'sub-ams-2')).toMatchObject({ type: 'ipv6', subnet: '2a0c:8c0:1::/64', available: 4094 - 2 });
    // .2–.29 foreign (28), build-1 .31, reserved .60.
    expect(subnets.find((s) => s.id === 'sub-fra-1')).toMatchObject({ available: 253 - 30, hourly_price: 0.007 });
    expect(subnets.find((s) => s.id === 'sub-fra-2')).toMatchObject({ subnet: '45.80.13.0/29', available: 0, total: 5 });
  });

  it('reserve: 201 with the new addresses and the list meta', async () => {
    const res = await rig.client.reservedIps.reserve({ location_id: 1, subnet_id: 'sub-ams-1', quantity: 2 });
    expect(wire(only(0))).toEqual({
      method: 'POST',
      rawPath: '/v2/reserved-ips',
      query: {},
      body: { location_id: 1, subnet_id: 'sub-ams-1', quantity: 2 },
    });
    expect(rig.client.events.find((e) => e.type === 'response')?.status).toBe(201);
    const common = {
      type: 'ipv4',
      gateway: '185.10.20.1',
      cidr: 24,
      rdns: null,
      subnet: '185.10.20.0/24',
      location: { id: 1, short_code: 'AMS', description: 'Amsterdam, Netherlands' },
      server: null,
      reserved_at: new Date(START).toISOString(),
    };
    expect(res.data).toEqual([
      { address: '185.10.20.2', ...common },
      { address: '185.10.20.3', ...common },
    ]);
    // Before: 3 reserved; used = 2 extra on web-1 (.12, .50) + 2 unused reserved (.51, 45.80.12.60).
    expect(res.meta).toEqual({ count: 5, limit: 8, used: 6, hourly_price: 0.0065 });
    expect(rig.sandbox.state.reservedIps.map((r) => r.address)).toContain('185.10.20.3');
  });
});

describe('workers', () => {
  it('requirements', async () => {
    expect(await rig.client.workers.requirements()).toEqual({
      minimum_credit: 5,
      credit: 42.5,
      sufficient: true,
      workers_used: 1,
      workers_allowed: 3,
      limits: { cpu: 1, memory_mb: 1024, disk_mb: 10_240 },
    });
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/workers/deploy-requirements', query: {}, body: undefined });
  });

  it('locations: worker locations only, NYC out of stock', async () => {
    const locations = await rig.client.workers.locations();
    expect(only(0)).toMatchObject({ method: 'GET', rawPath: '/v2/workers/locations' });
    expect(locations).toEqual([
      { id: 1, name: 'Amsterdam', short_code: 'AMS', description: 'Amsterdam, Netherlands', out_of_stock: false },
      { id: 2, name: 'Frankfurt', short_code: 'FRA', description: 'Frankfurt, Germany', out_of_stock: false },
      { id: 3, name: 'New York', short_code: 'NYC', description: 'New York, United States', out_of_stock: true },
    ]);
  });

  it('templates', async () => {
    const templates = await rig.client.workers.templates();
    expect(only(0)).toMatchObject({ method: 'GET', rawPath: '/v2/workers/templates' });
    expect(templates).toHaveLength(7);
    expect(templates[0]).toEqual({ id: 'tpl-nextjs', name: 'Next.js', type: 'template', description: 'Next.js starter with server rendering' });
    expect(templates.filter((t) => t.type === 'database').map((t) => t.id)).toEqual(['db-postgresql-16', 'db-mysql-8', 'db-redis-7']);
  });

  it('status of the seeded worker', async () => {
    const w = await rig.client.workers.status(SEED_WORKER_UUID);
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: `/v2/workers/${SEED_WORKER_UUID}/status`, query: {}, body: undefined });
    expect(w).toMatchObject({
      uuid: SEED_WORKER_UUID,
      name: 'docs-site',
      status: 'active',
      runtime_status: 'running',
      last_deployment_status: 'finished',
      fqdn: 'docs-site-0d9c8b7a.workers.example.net',
      git_source: 'public',
      git_repository: 'https://github.com/acme/docs-site.git',
      build_pack: 'static',
      is_spa: true,
      location: { id: 1, short_code: 'AMS', out_of_stock: false },
    });
  });

  it('deploy, then status moves pending → active as the clock advances', async () => {
    const body = {
      location_id: 2,
      name: 'Shop Front',
      git_source: 'public' as const,
      git_repository: 'https://github.com/acme/shop.git',
      git_branch: 'release',
      build_pack: 'container_file' as const,
      ports_exposes: '3000',
      is_spa: false,
    };
    const w = await rig.client.workers.deploy(body);
    expect(wire(only(0))).toEqual({ method: 'POST', rawPath: '/v2/workers', query: {}, body });
    expect(w).toMatchObject({
      name: 'Shop Front',
      status: 'pending',
      last_deployment_status: 'queued',
      provisioned: false,
      runtime_status: null,
      location_id: 2,
      git_branch: 'release',
      build_pack: 'container_file',
      ports_exposes: '3000',
      location: { id: 2, short_code: 'FRA' },
    });
    expect(w.fqdn).toBe(`shop-front-${w.uuid.slice(0, 8)}.workers.example.net`);

    // Build: 120 s, the first 20 % queued.
    await rig.clock.advance(30_000);
    expect(await rig.client.workers.status(w.uuid)).toMatchObject({ status: 'pending', last_deployment_status: 'in_progress' });
    await rig.clock.advance(90_000);
    const done = await rig.client.workers.status(w.uuid);
    expect(done).toMatchObject({ uuid: w.uuid, status: 'active', runtime_status: 'running', provisioned: true, last_deployment_status: 'finished' });
    expect(rig.since(1).map((r) => r.rawPath)).toEqual([`/v2/workers/${w.uuid}/status`, `/v2/workers/${w.uuid}/status`]);
    expect((await rig.client.workers.requirements()).workers_used).toBe(2);
  });

  it('deploy of a repository whose build fails ends in `failed` with the error', async () => {
    const w = await rig.client.workers.deploy({ location_id: 1, name: 'broken', git_repository: 'https://github.com/acme/fail-build.git' });
    expect(w.status).toBe('pending');
    await rig.clock.advance(120_000);
    expect(await rig.client.workers.status(w.uuid)).toMatchObject({
      status: 'failed',
      last_deployment_status: 'failed',
      provisioned: false,
      last_error: expect.stringMatching(/Build failed/),
    });
  });

  it('deploy from a template id', async () => {
    const w = await rig.client.workers.deploy({ location_id: 1, name: 'blog', git_source: 'template', git_repository: 'tpl-astro' });
    expect(w).toMatchObject({ status: 'pending', git_source: 'template', git_repository: 'tpl-astro', build_pack: 'auto_detect' });
  });
});

describe('servers', () => {
  it('status: running, stopped and installing servers', async () => {
    const web = await rig.client.servers.status('101');
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/servers/101/status', query: {}, body: undefined });
    expect(web).toMatchObject({ state: 'running', server_status: null, power_task: { action: 'start', status: 'OK', state: 'running' } });
    // By uuid and by (upper-case) uuid_short as well.
    expect((await rig.client.servers.status(SEED_SERVERS.stopped.uuid)).power_task).toMatchObject({ action: 'shutdown', state: 'stopped' });
    expect(await rig.client.servers.status('C2D4E6F8')).toMatchObject({ state: 'running', server_status: 'installing' });
    expect(rig.since(1).map((r) => r.rawPath)).toEqual([`/v2/servers/${SEED_SERVERS.stopped.uuid}/status`, '/v2/servers/C2D4E6F8/status']);
  });

  it('credentials: ready for db-1; generating for build-1 until its install finishes', async () => {
    const db = await rig.client.servers.credentials(DB.uuid);
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: `/v2/servers/${DB.uuid}/credentials`, query: {}, body: undefined });
    expect(db).toEqual({
      username: 'root',
      root_password: rig.sandbox.state.servers.find((s) => s.id === 102)?.rootPassword,
      password_status: 'ready',
      ipv4: '185.10.20.21',
      ipv6: '2a0c:8c0:1::21',
    });
    expect(db.root_password).toMatch(/^[A-Za-z0-9]{20}$/);

    expect(await rig.client.servers.credentials('103')).toEqual({
      username: 'root',
      root_password: null,
      password_status: 'generating',
      ipv4: '45.80.12.31',
      ipv6: null,
    });
    await rig.clock.advance(5 * 60_000);
    const ready = await rig.client.servers.credentials('103');
    expect(ready.password_status).toBe('ready');
    expect(ready.root_password).toMatch(/^[A-Za-z0-9]{20}$/);
  });

  it('ips: every address of web-1, reserved flagged', async () => {
    const ips = await rig.client.servers.ips(WEB.uuid.slice(0, 8));
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/servers/5f0c3a1e/ips', query: {}, body: undefined });
    expect(ips).toEqual([
      { address: '185.10.20.11', type: 'ipv4', gateway: '185.10.20.1', cidr: 24, rdns: 'web-1.example.net', reserved: false },
      { address: '2a0c:8c0:1::11', type: 'ipv6', gateway: '2a0c:8c0:1::1', cidr: 64, rdns: 'web-1.example.net', reserved: false },
      { address: '185.10.20.12', type: 'ipv4', gateway: '185.10.20.1', cidr: 24, rdns: 'www.example.net', reserved: false },
      { address: '185.10.20.50', type: 'ipv4', gateway: '185.10.20.1', cidr: 24, rdns: null, reserved: true },
    ]);
  });

  it('rename: the server with its new name', async () => {
    const s = await rig.client.servers.rename('101', 'web-primary');
    expect(wire(only(0))).toEqual({ method: 'PATCH', rawPath: '/v2/servers/101/rename', query: {}, body: { name: 'web-primary' } });
    expect(s).toMatchObject({
      id: 101,
      uuid: WEB.uuid,
      uuid_short: '5f0c3a1e',
      name: 'web-primary',
      hostname: 'web-1.example.net',
      status: null,
      cpu: 4,
      memory: 8 * GiB,
      disk: 160 * GiB,
      node_id: 12,
      created_at: new Date(START - 210 * DAY).toISOString(),
    });
    expect(s.ip_addresses).toHaveLength(4);
    expect(rig.sandbox.state.servers.find((x) => x.id === 101)?.name).toBe('web-primary');
  });

  it('reinstall: the password is returned; credentials generating → ready as the clock advances', async () => {
    const res = await rig.client.servers.reinstall('101', { template_slug: 'debian-12', password: 'correct-horse-42', ssh_key_ids: [11, 13] });
    expect(wire(only(0))).toEqual({
      method: 'POST',
      rawPath: '/v2/servers/101/reinstall',
      query: {},
      body: { template_slug: 'debian-12', password: 'correct-horse-42', ssh_key_ids: [11, 13] },
    });
    expect(res).toEqual({ status: 'reinstalling', password: 'correct-horse-42' });
    expect(await rig.client.servers.status('101')).toMatchObject({ server_status: 'reinstalling', power_task: { action: 'reinstall' } });
    expect(await rig.client.servers.credentials('101')).toMatchObject({ password_status: 'generating', root_password: null });

    await rig.clock.advance(90_000); // default reinstall time
    expect(await rig.client.servers.credentials('101')).toMatchObject({ password_status: 'ready', root_password: 'correct-horse-42' });
    expect((await rig.client.servers.status('101')).server_status).toBeNull();
  });

  it('reinstall without a password: one is generated and becomes the root password', async () => {
    const res = await rig.client.servers.reinstall(DB.uuid, { template_slug: 'windows-2022' });
    expect(res.status).toBe('reinstalling');
    expect(res.password).toMatch(/^[A-Za-z0-9]{20}$/);
    await rig.clock.advance(90_000);
    expect(await rig.client.servers.credentials('102')).toMatchObject({ username: 'Administrator', root_password: res.password, password_status: 'ready' });
  });

  it('removeIp: 204 → undefined; a plain IP counts against the weekly limit', async () => {
    await expect(rig.client.servers.removeIp('101', '185.10.20.12')).resolves.toBeUndefined();
    expect(wire(only(0))).toEqual({ method: 'DELETE', rawPath: '/v2/servers/101/ips/185.10.20.12', query: {}, body: undefined });
    expect(rig.client.events.find((e) => e.type === 'response')?.status).toBe(204);
    expect((await rig.client.servers.ips('101')).map((ip) => ip.address)).toEqual(['185.10.20.11', '2a0c:8c0:1::11', '185.10.20.50']);
    expect(rig.sandbox.state.account.ipRemovalsThisWeek).toBe(1);
  });

  it('removeIp of a reserved IP: detached, stays reserved, not counted', async () => {
    await expect(rig.client.servers.removeIp(WEB.uuid, '185.10.20.50')).resolves.toBeUndefined();
    expect(only(0)).toMatchObject({ method: 'DELETE', rawPath: `/v2/servers/${WEB.uuid}/ips/185.10.20.50` });
    expect(rig.sandbox.state.reservedIps.find((r) => r.address === '185.10.20.50')?.serverId).toBeNull();
    expect(rig.sandbox.state.account.ipRemovalsThisWeek).toBe(0);
  });
});

describe('backups', () => {
  it('list: first page of 15, newest first, with the pagination meta', async () => {
    const page = await rig.client.backups.list('101');
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/servers/101/backups', query: {}, body: undefined });
    expect(page.meta).toEqual({ current_page: 1, last_page: 2, per_page: 15, total: 18 });
    expect(page.data).toHaveLength(15);
    expect(page.data[0]).toEqual({
      uuid: rig.sandbox.state.backups[101]?.[0]?.uuid,
      name: 'web-1-daily-2026-11-21',
      is_successful: true,
      is_locked: false,
      size: Math.round(11.2 * GiB),
      completed_at: new Date(START - DAY + 4 * 60_000).toISOString(),
      created_at: new Date(START - DAY).toISOString(),
    });
  });

  it('list page 2: the last three, the oldest locked', async () => {
    const page = await rig.client.backups.list(WEB.uuid, { page: 2 });
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: `/v2/servers/${WEB.uuid}/backups`, query: { page: '2' }, body: undefined });
    expect(page.meta).toMatchObject({ current_page: 2, last_page: 2 });
    expect(page.data.map((b) => b.is_locked)).toEqual([false, false, true]);
    expect(page.data[2]?.name).toBe(`web-1-daily-${new Date(START - 18 * DAY).toISOString().slice(0, 10)}`);
  });

  it('all: 18 backups over two page requests', async () => {
    const all = await collect(rig.client.backups.all('101'));
    expect(all).toHaveLength(18);
    expect(new Set(all.map((b) => b.uuid)).size).toBe(18);
    expect(rig.since(0).map(wire)).toEqual([
      { method: 'GET', rawPath: '/v2/servers/101/backups', query: { page: '1' }, body: undefined },
      { method: 'GET', rawPath: '/v2/servers/101/backups', query: { page: '2' }, body: undefined },
    ]);
  });

  it('create: in progress, then complete after 30 s; delete: 204 → undefined', async () => {
    const b = await rig.client.backups.create('101', { name: 'pre-upgrade', mode: 'suspend', compression_type: 'gzip' });
    expect(wire(only(0))).toEqual({
      method: 'POST',
      rawPath: '/v2/servers/101/backups',
      query: {},
      body: { name: 'pre-upgrade', mode: 'suspend', compression_type: 'gzip' },
    });
    expect(b).toMatchObject({ name: 'pre-upgrade', is_successful: false, is_locked: false, size: 0, completed_at: null });
    expect(b.created_at).toBe(new Date(START).toISOString());

    await rig.clock.advance(30_000);
    const first = (await rig.client.backups.list('101')).data[0];
    expect(first).toMatchObject({ uuid: b.uuid, is_successful: true, size: Math.round(160 * GiB * 0.35) });
    expect(first?.completed_at).toBe(new Date(START + 30_000).toISOString());

    const mark = rig.sandbox.requests.length;
    await expect(rig.client.backups.delete('101', b.uuid)).resolves.toBeUndefined();
    expect(wire(only(mark))).toEqual({ method: 'DELETE', rawPath: `/v2/servers/101/backups/${b.uuid}`, query: {}, body: undefined });
    expect(rig.sandbox.state.backups[101]).toHaveLength(18);
  });

  it('delete a seeded backup by an upper-case uuid', async () => {
    const uuid = rig.sandbox.state.backups[101]?.[0]?.uuid ?? '';
    await expect(rig.client.backups.delete('101', uuid.toUpperCase())).resolves.toBeUndefined();
    expect(only(0).rawPath).toBe(`/v2/servers/101/backups/${uuid.toUpperCase()}`);
    expect((await rig.client.backups.list('101')).meta.total).toBe(17);
  });
});

describe('security groups', () => {
  it('get: rules in priority order, attached servers', async () => {
    const g = await rig.client.securityGroups.get(7);
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/security-groups/7', query: {}, body: undefined });
    expect(g).toMatchObject({
      id: 7,
      name: 'web-default',
      description: 'Public web traffic and office SSH',
      vm_count: 1,
      rules_count: 4,
      servers: [{ uuid: WEB.uuid, uuid_short: '5f0c3a1e', name: 'web-1' }],
    });
    expect(g.rules?.map((r) => [r.id, r.priority])).toEqual([
      [71, 10],
      [72, 20],
      [73, 30],
      [74, 1000],
    ]);
    expect(g.rules?.[0]).toEqual({
      id: 71,
      type: 'inbound',
      action: 'ACCEPT',
      protocol: 'tcp',
      source: '203.0.113.0/24',
      destination: null,
      source_port: null,
      destination_port: '22',
      comment: 'SSH from office',
      priority: 10,
    });
  });

  it('addRule: the saved rule; deleteRule: 204 → undefined', async () => {
    const body = {
      type: 'inbound' as const,
      action: 'ACCEPT' as const,
      protocol: 'tcp',
      source: '198.51.100.0/24',
      destination_port: '8080:8090',
      comment: 'Alt HTTP',
      priority: 40,
    };
    const rule = await rig.client.securityGroups.addRule(7, body);
    expect(wire(only(0))).toEqual({ method: 'POST', rawPath: '/v2/security-groups/7/rules', query: {}, body });
    expect(rule).toEqual({ id: 100, ...body, destination: null, source_port: null });

    const mark = rig.sandbox.requests.length;
    await expect(rig.client.securityGroups.deleteRule(7, 72)).resolves.toBeUndefined();
    expect(wire(only(mark))).toEqual({ method: 'DELETE', rawPath: '/v2/security-groups/7/rules/72', query: {}, body: undefined });
    expect((await rig.client.securityGroups.get(7)).rules?.map((r) => r.id)).toEqual([71, 73, 100, 74]);
  });

  it('attachServer by short uuid, then deploy', async () => {
    expect(await rig.client.securityGroups.attachServer(7, '9b7e1d42')).toEqual({ status: 'attached' });
    expect(wire(only(0))).toEqual({
      method: 'POST',
      rawPath: '/v2/security-groups/7/servers/attach',
      query: {},
      body: { server_uuid: '9b7e1d42' },
    });
    expect(await rig.client.securityGroups.deploy(7)).toEqual({ status: 'deployed' });
    expect(wire(only(1))).toEqual({ method: 'POST', rawPath: '/v2/security-groups/7/deploy', query: {}, body: undefined });
    expect((await rig.client.securityGroups.get(7)).servers?.map((s) => s.name)).toEqual(['web-1', 'db-1']);
  });
});

describe('SSH keys', () => {
  it('list, delete (204 → undefined), list again', async () => {
    const keys = await rig.client.sshKeys.list();
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/ssh-keys', query: {}, body: undefined });
    expect(keys.map((k) => [k.id, k.name])).toEqual([
      [11, 'alice@laptop'],
      [12, 'ci-deploy'],
      [13, 'ops-backup'],
    ]);
    expect(keys[1]?.public_key).toMatch(/^ssh-ed25519 AAAA\S+ ci-deploy$/);
    expect(keys[2]?.created_at).toBe(new Date(START - 20 * DAY).toISOString());

    await expect(rig.client.sshKeys.delete(12)).resolves.toBeUndefined();
    expect(wire(only(1))).toEqual({ method: 'DELETE', rawPath: '/v2/ssh-keys/12', query: {}, body: undefined });
    expect((await rig.client.sshKeys.list()).map((k) => k.id)).toEqual([11, 13]);
  });
});

describe('plans', () => {
  it('list: the first page of the 19 visible plans, cheapest first, no `available`', async () => {
    const page = await rig.client.plans.list();
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/plans', query: {}, body: undefined });
    expect(page.meta).toEqual({ current_page: 1, last_page: 2, per_page: 15, total: 19 });
    expect(page.data[0]).toEqual({
      id: 1,
      name: 'Cloud XS',
      cpu: 1,
      memory: 1 * GiB,
      disk: 20 * GiB,
      bandwidth_limit: 10 * 1024 ** 4,
      monthly_price: 3.5,
      hourly_price: 0.0048,
      backup_price: 0.7,
      backup_limit: 2,
      location_id: null,
    });
    expect(page.data.map((p) => p.id)).not.toContain(16); // hidden
    const prices = page.data.map((p) => p.monthly_price ?? 0);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it('all: 19 plans over two page requests', async () => {
    const all = await collect(rig.client.plans.all());
    expect(all).toHaveLength(19);
    expect(all.map((p) => p.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20]);
    expect(rig.since(0).map((r) => [r.rawPath, r.query])).toEqual([
      ['/v2/plans', { page: '1' }],
      ['/v2/plans', { page: '2' }],
    ]);
  });

  it('with location_id: global plans plus the location’s, with `available`', async () => {
    const ams = await collect(rig.client.plans.all({ location_id: 1 }));
    expect(rig.since(0).map((r) => r.query)).toEqual([
      { location_id: '1', page: '1' },
      { location_id: '1', page: '2' },
    ]);
    expect(ams).toHaveLength(17);
    expect(ams.map((p) => p.id)).not.toContain(19);
    expect(ams.map((p) => p.id)).not.toContain(20);
    expect(ams.filter((p) => p.available === false).map((p) => p.id)).toEqual([18]); // GPU Lite out of stock in AMS
    expect(ams.every((p) => typeof p.available === 'boolean')).toBe(true);

    const mark = rig.sandbox.requests.length;
    const fra = await rig.client.plans.list({ location_id: 2, page: 2 });
    expect(wire(only(mark))).toEqual({ method: 'GET', rawPath: '/v2/plans', query: { location_id: '2', page: '2' }, body: undefined });
    expect(fra.meta).toMatchObject({ current_page: 2, total: 16 });
    // The dearest of the 16 (Cloud 3XL, 119.9) is out of stock in FRA.
    expect(fra.data.map((p) => [p.id, p.available])).toEqual([[7, false]]);

    const sin = await rig.client.plans.list({ location_id: 4 });
    expect(sin).toEqual({ data: [], meta: { current_page: 1, last_page: 1, per_page: 15, total: 0 } });
    expect(await collect(rig.client.plans.all({ location_id: 4 }))).toEqual([]);
  });

  it('a provider answering `vcpus`/`ram` is read into cpu/memory', async () => {
    const legacy = await startRig({ legacyPlanFields: true });
    try {
      // The wire carries the legacy names only…
      const raw = (await (await fetch(`${legacy.server.baseUrl}/plans`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as {
        data: Record<string, unknown>[];
      };
      expect(raw.data[0]).toMatchObject({ vcpus: 1, ram: GiB });
      expect(raw.data[0]).not.toHaveProperty('cpu');
      expect(raw.data[0]).not.toHaveProperty('memory');
      // …and the client reads them into cpu/memory.
      const all = await collect(legacy.client.plans.all());
      expect(all).toHaveLength(19);
      expect(all.find((p) => p.id === 4)).toMatchObject({ name: 'Cloud L', cpu: 4, memory: 8 * GiB });
      expect(all.find((p) => p.id === 18)).toMatchObject({ cpu: 8, memory: 32 * GiB });
      expect(all.every((p) => typeof p.cpu === 'number' && typeof p.memory === 'number')).toBe(true);
      expect(Object.keys(all[0] ?? {})).not.toContain('vcpus');
    } finally {
      await legacy.close();
    }
  });
});

describe('account', () => {
  it('invoices: first page, most recent first', async () => {
    const page = await rig.client.account.invoices();
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/account/invoices', query: {}, body: undefined });
    expect(page.meta).toEqual({ current_page: 1, last_page: 3, per_page: 15, total: 35 });
    expect(page.data[0]).toEqual({
      id: 9035,
      status: 'paid',
      total: 58.2,
      amount_due: 0,
      amount_paid: 58.2,
      type: 'renewal',
      created_at: new Date(START - DAY).toISOString(),
    });
    expect(page.data[4]).toMatchObject({ id: 9031, type: 'deposit', total: 50 });
    const third = await rig.client.account.invoices({ page: 3 });
    expect(only(1).query).toEqual({ page: '3' });
    expect(third.data.map((i) => i.id)).toEqual([9005, 9004, 9003, 9002, 9001]);
  });

  it('allInvoices: 35 over three page requests', async () => {
    const all = await collect(rig.client.account.allInvoices());
    expect(all.map((i) => i.id)).toEqual(Array.from({ length: 35 }, (_, i) => 9035 - i));
    expect(rig.since(0).map((r) => [r.method, r.rawPath, r.query])).toEqual([
      ['GET', '/v2/account/invoices', { page: '1' }],
      ['GET', '/v2/account/invoices', { page: '2' }],
      ['GET', '/v2/account/invoices', { page: '3' }],
    ]);
  });

  it('usage: sums over the four servers and the IP count', async () => {
    expect(await rig.client.account.usage()).toEqual({
      servers: 4,
      cpu_used: 4 + 2 + 1 + 2, // Cloud L, Memory 16, Cloud S, Cloud M
      cpu_limit: 32,
      ram_used: (8 + 16 + 2 + 4) * GiB,
      ram_limit_gb: 64,
      disk_used: (160 + 100 + 40 + 80) * GiB,
      ip_used: 4,
      ip_limit: 8,
    });
    expect(wire(only(0))).toEqual({ method: 'GET', rawPath: '/v2/account/usage', query: {}, body: undefined });
  });
});
