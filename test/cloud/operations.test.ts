/**
 * Each operation of cloud-client.ts: method, path, query and body on the wire, and the parsed
 * result (nulls where the provider sends them, unknown fields dropped). Which operations there
 * are comes from the sandbox's route table (the spec as code), not from a number kept by hand.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLOUD_OPERATION_COUNT } from '../../src/cloud/cloud-client.js';
import { matchRoute } from '../../src/sandbox/router.js';
import { routes } from '../../src/sandbox/routes/index.js';
import { fail, ok, page, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { BACKUP_UUID, SERVER_UUID, TOKEN, WORKER_UUID, clientFor } from './helpers.js';

let server: FakeServer;
let client: ReturnType<typeof clientFor>;

beforeAll(async () => {
  server = await startFakeServer();
  client = clientFor(server);
});
afterAll(async () => {
  await client.close();
  await server.close();
});
/** `METHOD /route/:pattern` of every spec operation this file made the client send. */
const exercised = new Set<string>();
afterEach(() => {
  for (const r of server.requests) {
    const segments = r.rawUrl.split('?')[0]!.slice('/v2'.length).split('/').filter(Boolean).map(decodeURIComponent);
    const m = matchRoute(routes, r.method, segments);
    if (m.kind === 'route') exercised.add(`${m.route.method} ${m.route.path}`);
  }
  server.requests.length = 0;
});
const specOperations = routes.map((r) => `${r.method} ${r.path}`);

const last = () => server.requests.at(-1)!;

const reservedIp = {
  address: '203.0.113.10',
  type: 'ipv4',
  gateway: '203.0.113.1',
  cidr: 24,
  rdns: null,
  subnet: '203.0.113.0/24',
  location: { id: 3, short_code: 'fra1', description: null },
  server: null,
  reserved_at: '2026-11-22T12:00:00Z',
  future_field: 'ignored',
};

const worker = {
  uuid: WORKER_UUID,
  name: 'site',
  status: 'pending',
  runtime_status: null,
  runtime_status_at: null,
  provisioned: false,
  last_deployment_status: null,
  last_deployment_at: null,
  last_error: null,
  fqdn: 'site.example.net',
  location_id: 2,
  git_source: 'public',
  git_repository: 'https://git.example.com/site.git',
  git_branch: 'main',
  build_pack: 'static',
  is_spa: true,
  limits: { cpu: 1, memory_mb: 512, disk_mb: 1024 },
  usage: { cpu_percent: '0.5', memory_mb: 10, disk_mb: 20 },
  billing_type: 'hourly',
  suspended_at: null,
  suspension_reason: null,
  created_at: '2026-11-22T12:00:00Z',
  updated_at: '2026-11-22T12:00:00Z',
  location: { id: 2, name: 'Frankfurt', short_code: 'fra1', description: 'DE', out_of_stock: false },
};

const serverRecord = {
  id: 123,
  uuid: SERVER_UUID,
  uuid_short: '3f2a9c4e',
  name: 'web-1',
  hostname: 'web-1.example.net',
  status: null,
  cpu: 2,
  memory: 2147483648,
  disk: 42949672960,
  bandwidth_usage: 0,
  bandwidth_limit: 1099511627776,
  node_id: 7,
  created_at: '2026-01-01T00:00:00Z',
  ip_addresses: [{ address: '198.51.100.7', type: 'ipv4', gateway: '198.51.100.1', cidr: 24, rdns: null, reserved: false }],
};

const backup = {
  uuid: BACKUP_UUID,
  name: 'nightly',
  is_successful: true,
  is_locked: false,
  size: 1024,
  completed_at: null,
  created_at: '2026-11-22T12:00:00Z',
};

const rule = {
  id: 9,
  type: 'inbound',
  action: 'ACCEPT',
  protocol: 'tcp',
  source: null,
  destination: null,
  source_port: null,
  destination_port: '22',
  comment: 'ssh',
  priority: 0,
};

describe('every operation', () => {
  it('the interface counts as many operations as the spec has', () => {
    expect(new Set(specOperations).size).toBe(specOperations.length);
    expect(CLOUD_OPERATION_COUNT).toBe(specOperations.length);
  });

  it('sends the bearer token and JSON headers', async () => {
    server.script('GET', '/account/usage', ok({ servers: 1 }));
    await client.account.usage();
    expect(last().headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(last().headers.accept).toBe('application/json');
    expect(last().headers['content-type']).toBeUndefined();
  });

  describe('reserved IPs', () => {
    it('reserve: POST /reserved-ips (201) → data + meta, prices as strings', async () => {
      server.script('POST', '/reserved-ips', {
        status: 201,
        body: { data: [reservedIp], meta: { count: 1, limit: 10, used: 3, hourly_price: '0.0070' } },
      });
      const res = await client.reservedIps.reserve({ location_id: 3, subnet_id: 'sn-1', quantity: 1 });
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/reserved-ips', json: { location_id: 3, subnet_id: 'sn-1', quantity: 1 } });
      expect(last().headers['content-type']).toBe('application/json');
      expect(res.meta).toEqual({ count: 1, limit: 10, used: 3, hourly_price: 0.007 });
      expect(res.data[0]).toMatchObject({ address: '203.0.113.10', server: null, rdns: null });
      expect(res.data[0]).not.toHaveProperty('future_field');
    });

    it('reserve: a missing meta reads as empty', async () => {
      server.script('POST', '/reserved-ips', { status: 201, body: { data: [reservedIp] } });
      const res = await client.reservedIps.reserve({ location_id: 3, subnet_id: 'sn-1' });
      expect(res.meta).toEqual({});
    });

    it('subnets: GET /reserved-ips/subnets, with or without meta', async () => {
      server.script('GET', '/reserved-ips/subnets', ok([{ id: 5, location_id: 3, subnet: '203.0.113.0/24', extra: 1 }]));
      expect(await client.reservedIps.subnets()).toEqual([{ id: '5', location_id: 3, subnet: '203.0.113.0/24' }]);
      server.script('GET', '/reserved-ips/subnets', { body: { data: [{ id: 'a' }], meta: { note: 'not a page' } } });
      expect(await client.reservedIps.subnets()).toEqual([{ id: 'a' }]);
      expect(last()).toMatchObject({ method: 'GET', rawUrl: '/v2/reserved-ips/subnets' });
    });
  });

  describe('workers', () => {
    it('requirements: GET /workers/deploy-requirements, balances as strings', async () => {
      server.script('GET', '/workers/deploy-requirements', ok({
        minimum_credit: '1.50', credit: 20, sufficient: true, workers_used: 1, workers_allowed: 3, limits: null,
      }));
      const r = await client.workers.requirements();
      expect(last()).toMatchObject({ method: 'GET', rawUrl: '/v2/workers/deploy-requirements' });
      expect(r).toEqual({ minimum_credit: 1.5, credit: 20, sufficient: true, workers_used: 1, workers_allowed: 3, limits: null });
    });

    it('deploy: POST /workers with the body → Worker with nulls', async () => {
      server.script('POST', '/workers', ok(worker, 201));
      const body = { location_id: 2, name: 'site', git_source: 'public' as const, git_repository: 'https://git.example.com/site.git' };
      const w = await client.workers.deploy(body);
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/workers', json: body });
      expect(w).toMatchObject({ uuid: WORKER_UUID, status: 'pending', suspended_at: null, last_error: null });
      expect(w.usage?.cpu_percent).toBe(0.5);
    });

    it('locations: GET /workers/locations', async () => {
      server.script('GET', '/workers/locations', ok([{ id: 2, short_code: 'fra1', description: null, out_of_stock: false }]));
      expect(await client.workers.locations()).toEqual([{ id: 2, short_code: 'fra1', description: null, out_of_stock: false }]);
      expect(last().rawUrl).toBe('/v2/workers/locations');
    });

    it('templates: GET /workers/templates', async () => {
      server.script('GET', '/workers/templates', {
        body: { data: [{ id: 17, name: 'WordPress', type: 'template' }], meta: { current_page: 1, last_page: 1 } },
      });
      expect(await client.workers.templates()).toEqual([{ id: '17', name: 'WordPress', type: 'template' }]);
      expect(last().rawUrl).toBe('/v2/workers/templates');
    });

    it('status: GET /workers/{uuid}/status, full Worker or a bare status', async () => {
      server.script('GET', `/workers/${WORKER_UUID}/status`, ok({ ...worker, status: 'active' }), ok({ status: 'active' }));
      expect(await client.workers.status(WORKER_UUID)).toMatchObject({ uuid: WORKER_UUID, status: 'active', fqdn: 'site.example.net' });
      expect(await client.workers.status(WORKER_UUID)).toEqual({ uuid: WORKER_UUID, status: 'active' });
      expect(last()).toMatchObject({ method: 'GET', rawUrl: `/v2/workers/${WORKER_UUID}/status` });
    });
  });

  describe('servers', () => {
    it('reinstall: POST /servers/{server}/reinstall', async () => {
      server.script('POST', '/servers/123/reinstall', ok({ status: 'reinstalling', password: 'p4ssw0rd!' }));
      const body = { template_slug: 'debian-12', ssh_key_ids: [4] };
      expect(await client.servers.reinstall('123', body)).toEqual({ status: 'reinstalling', password: 'p4ssw0rd!' });
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/servers/123/reinstall', json: body });
    });

    it('rename: PATCH /servers/{server}/rename {name} → Server', async () => {
      server.script('PATCH', '/servers/3f2a9c4e/rename', ok({ ...serverRecord, name: 'web-2' }));
      const s = await client.servers.rename('3f2a9c4e', 'web-2');
      expect(last()).toMatchObject({ method: 'PATCH', rawUrl: '/v2/servers/3f2a9c4e/rename', json: { name: 'web-2' } });
      expect(s).toMatchObject({ id: 123, name: 'web-2', status: null });
      expect(s.ip_addresses?.[0]?.rdns).toBeNull();
    });

    it('status: GET /servers/{uuid}/status', async () => {
      const status = {
        state: 'running',
        power_task: { action: 'shutdown', status: 'pending', state: 'shutting_down', upid: null, message: null, updated_at: null },
        server_status: null,
      };
      server.script('GET', `/servers/${SERVER_UUID}/status`, ok(status));
      expect(await client.servers.status(SERVER_UUID)).toEqual(status);
      expect(last()).toMatchObject({ method: 'GET', rawUrl: `/v2/servers/${SERVER_UUID}/status` });
    });

    it('credentials: GET /servers/{server}/credentials while installing', async () => {
      const creds = { username: 'root', root_password: null, password_status: 'generating', ipv4: '198.51.100.7', ipv6: null };
      server.script('GET', '/servers/123/credentials', ok(creds));
      expect(await client.servers.credentials('123')).toEqual(creds);
      expect(last().rawUrl).toBe('/v2/servers/123/credentials');
    });

    it('ips: GET /servers/{server}/ips', async () => {
      server.script('GET', '/servers/123/ips', ok(serverRecord.ip_addresses));
      expect(await client.servers.ips('123')).toEqual(serverRecord.ip_addresses);
      expect(last()).toMatchObject({ method: 'GET', rawUrl: '/v2/servers/123/ips' });
    });

    it('removeIp: DELETE /servers/{server}/ips/{address}, 204 or 200 with a body, IPv6 encoded', async () => {
      server.script('DELETE', '/servers/123/ips/198.51.100.8', { status: 204 });
      await expect(client.servers.removeIp('123', '198.51.100.8')).resolves.toBeUndefined();
      expect(last()).toMatchObject({ method: 'DELETE', rawUrl: '/v2/servers/123/ips/198.51.100.8' });
      server.script('DELETE', '/servers/123/ips/2001%3Adb8%3A%3A5', ok({ message: 'removed' }));
      await expect(client.servers.removeIp('123', '2001:db8::5')).resolves.toBeUndefined();
      expect(last().rawUrl).toBe('/v2/servers/123/ips/2001%3Adb8%3A%3A5');
    });
  });

  describe('backups', () => {
    it('create: POST /servers/{server}/backups', async () => {
      server.script('POST', '/servers/123/backups', ok(backup, 201));
      const body = { name: 'nightly', mode: 'snapshot' as const, compression_type: 'zstd' as const };
      expect(await client.backups.create('123', body)).toEqual(backup);
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/servers/123/backups', json: body });
    });

    it('list: GET /servers/{server}/backups?page=2 → Page', async () => {
      server.script('GET', '/servers/123/backups', page([backup], 2, 3));
      const p = await client.backups.list('123', { page: 2 });
      expect(last().rawUrl).toBe('/v2/servers/123/backups?page=2');
      expect(p.meta).toEqual({ current_page: 2, last_page: 3, per_page: 15, total: 1 });
      expect(p.data).toEqual([backup]);
      await client.backups.list('123');
      expect(last().rawUrl).toBe('/v2/servers/123/backups');
    });

    it('all: follows pages to last_page', async () => {
      const b2 = { ...backup, uuid: 'c1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e' };
      server.script('GET', '/servers/123/backups', page([backup], 1, 2), page([b2], 2, 2));
      const all = [];
      for await (const b of client.backups.all('123')) all.push(b.uuid);
      expect(all).toEqual([BACKUP_UUID, b2.uuid]);
      expect(server.requests.map((r) => r.rawUrl)).toEqual(['/v2/servers/123/backups?page=1', '/v2/servers/123/backups?page=2']);
    });

    it('delete: DELETE /servers/{server}/backups/{uuid} (204)', async () => {
      server.script('DELETE', `/servers/123/backups/${BACKUP_UUID}`, { status: 204 });
      await expect(client.backups.delete('123', BACKUP_UUID)).resolves.toBeUndefined();
      expect(last()).toMatchObject({ method: 'DELETE', rawUrl: `/v2/servers/123/backups/${BACKUP_UUID}` });
    });
  });

  describe('security groups', () => {
    it('get: GET /security-groups/{id}', async () => {
      const group = {
        id: 5, name: 'web', description: null, vm_count: 1, rules_count: 1, created_at: null,
        rules: [rule], servers: [{ uuid: SERVER_UUID, uuid_short: '3f2a9c4e', name: 'web-1' }],
      };
      server.script('GET', '/security-groups/5', ok(group));
      expect(await client.securityGroups.get(5)).toEqual(group);
      expect(last()).toMatchObject({ method: 'GET', rawUrl: '/v2/security-groups/5' });
    });

    it('addRule: POST /security-groups/{id}/rules', async () => {
      server.script('POST', '/security-groups/5/rules', ok(rule, 201));
      const body = { type: 'inbound' as const, action: 'ACCEPT' as const, protocol: 'tcp', destination_port: '22', source: null };
      expect(await client.securityGroups.addRule(5, body)).toEqual(rule);
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/security-groups/5/rules', json: body });
    });

    it('deleteRule: DELETE /security-groups/{id}/rules/{rule_id}', async () => {
      server.script('DELETE', '/security-groups/5/rules/9', { status: 204 });
      await expect(client.securityGroups.deleteRule(5, 9)).resolves.toBeUndefined();
      expect(last()).toMatchObject({ method: 'DELETE', rawUrl: '/v2/security-groups/5/rules/9' });
    });

    it('attachServer: POST /security-groups/{id}/servers/attach {server_uuid}', async () => {
      server.script('POST', '/security-groups/5/servers/attach', ok({ status: 'attached' }));
      expect(await client.securityGroups.attachServer(5, '3f2a9c4e')).toEqual({ status: 'attached' });
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/security-groups/5/servers/attach', json: { server_uuid: '3f2a9c4e' } });
    });

    it('deploy: POST /security-groups/{id}/deploy, with data, data null or no body', async () => {
      server.script('POST', '/security-groups/5/deploy', ok({ status: 'deployed' }), ok(null), { status: 204 });
      expect(await client.securityGroups.deploy(5)).toEqual({ status: 'deployed' });
      expect(await client.securityGroups.deploy(5)).toEqual({});
      expect(await client.securityGroups.deploy(5)).toEqual({});
      expect(last()).toMatchObject({ method: 'POST', rawUrl: '/v2/security-groups/5/deploy', bodyText: '' });
    });
  });

  describe('SSH keys', () => {
    it('list: GET /ssh-keys', async () => {
      const key = { id: 4, name: 'laptop', public_key: 'ssh-ed25519 AAAA', created_at: null, fingerprint: 'x' };
      server.script('GET', '/ssh-keys', ok([key]));
      expect(await client.sshKeys.list()).toEqual([{ id: 4, name: 'laptop', public_key: 'ssh-ed25519 AAAA', created_at: null }]);
      expect(last()).toMatchObject({ method: 'GET', rawUrl: '/v2/ssh-keys' });
    });

    it('list: a paginated answer is followed to its last page', async () => {
      server.script('GET', '/ssh-keys', page([{ id: 4 }], 1, 2), page([{ id: 5 }], 2, 2));
      expect((await client.sshKeys.list()).map((k) => k.id)).toEqual([4, 5]);
      expect(server.requests.map((r) => r.rawUrl)).toEqual(['/v2/ssh-keys', '/v2/ssh-keys?page=2']);
    });

    it('delete: DELETE /ssh-keys/{id}', async () => {
      server.script('DELETE', '/ssh-keys/4', ok(null));
      await expect(client.sshKeys.delete(4)).resolves.toBeUndefined();
      expect(last()).toMatchObject({ method: 'DELETE', rawUrl: '/v2/ssh-keys/4' });
    });
  });

  describe('plans', () => {
    it('list: GET /plans?location_id=&page=, both cpu/memory and vcpus/ram, prices as strings', async () => {
      server.script('GET', '/plans', page([
        { id: 1, name: 'S', cpu: 1, memory: 1073741824, monthly_price: '5.00', hourly_price: 0.007, backup_price: '1', location_id: null, available: true },
        { id: 2, name: 'M', vcpus: 2, ram: 2147483648, monthly_price: 10, hourly_price: '0.014', backup_price: null, location_id: 3 },
      ], 1, 1));
      const p = await client.plans.list({ location_id: 3, page: 1 });
      expect(last().rawUrl).toBe('/v2/plans?location_id=3&page=1');
      expect(p.data[0]).toMatchObject({ id: 1, cpu: 1, memory: 1073741824, monthly_price: 5, backup_price: 1, available: true });
      expect(p.data[1]).toMatchObject({ id: 2, cpu: 2, memory: 2147483648, hourly_price: 0.014 });
      expect(p.data[1]).not.toHaveProperty('vcpus');
    });

    it('all: every page, location kept', async () => {
      server.script('GET', '/plans', page([{ id: 1, name: 'S' }], 1, 2), page([{ id: 2, name: 'M' }], 2, 2));
      const ids = [];
      for await (const plan of client.plans.all({ location_id: 3 })) ids.push(plan.id);
      expect(ids).toEqual([1, 2]);
      expect(server.requests.map((r) => r.rawUrl)).toEqual(['/v2/plans?location_id=3&page=1', '/v2/plans?location_id=3&page=2']);
    });
  });

  describe('account', () => {
    const invoice = { id: 1, status: 'paid', total: '12.50', amount_due: 0, amount_paid: '12.50', type: null, created_at: '2026-11-01T00:00:00Z' };

    it('invoices: GET /account/invoices?page=', async () => {
      server.script('GET', '/account/invoices', page([invoice], 3, 3));
      const p = await client.account.invoices({ page: 3 });
      expect(last().rawUrl).toBe('/v2/account/invoices?page=3');
      expect(p.data[0]).toEqual({ ...invoice, total: 12.5, amount_paid: 12.5 });
    });

    it('allInvoices: every page', async () => {
      server.script('GET', '/account/invoices', page([invoice], 1, 2), page([{ ...invoice, id: 2 }], 2, 2));
      const ids = [];
      for await (const i of client.account.allInvoices()) ids.push(i.id);
      expect(ids).toEqual([1, 2]);
    });

    it('usage: GET /account/usage', async () => {
      const usage = { servers: 2, cpu_used: 4, cpu_limit: 16, ram_used: 4294967296, ram_limit_gb: 32, disk_used: 1, ip_used: 3, ip_limit: 10 };
      server.script('GET', '/account/usage', ok(usage));
      expect(await client.account.usage()).toEqual(usage);
      expect(last()).toMatchObject({ method: 'GET', rawUrl: '/v2/account/usage' });
    });
  });

  it('an error envelope on an operation surfaces as CloudApiError fields', async () => {
    server.script('POST', '/reserved-ips', fail(422, 'RESERVED_IP_LIMIT_REACHED', 'You hold 10 of 10 addresses', {}, { held: 10, available: 0 }));
    await expect(client.reservedIps.reserve({ location_id: 3, subnet_id: 'sn-1' })).rejects.toMatchObject({
      status: 422,
      code: 'RESERVED_IP_LIMIT_REACHED',
      message: 'You hold 10 of 10 addresses',
      details: { held: 10, available: 0 },
      request: 'POST /reserved-ips',
    });
  });
});

// Last in the file: every operation of the spec was sent by some case above, and nothing else.
it('the cases above cover every operation of the spec', () => {
  expect([...exercised].sort()).toEqual([...specOperations].sort());
});
