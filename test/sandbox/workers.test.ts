import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeployRequirements, Worker, WorkerLocation, WorkerTemplate } from '../../src/cloud-api/schemas.js';
import { SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import { expectError, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start({ buildMs: 100_000 });
});
afterEach(() => h.close());

const deployBody = { name: 'Shop Front', location_id: 1, git_source: 'public', git_repository: 'https://github.com/acme/shop.git' };

describe('worker catalog', () => {
  it('GET /workers/deploy-requirements reflects the account', async () => {
    const r = await h.call('GET', '/workers/deploy-requirements');
    expect(expectShape(DeployRequirements, r.json.data)).toEqual({
      minimum_credit: 5,
      credit: 42.5,
      sufficient: true,
      workers_used: 1,
      workers_allowed: 3,
      limits: { cpu: 1, memory_mb: 1024, disk_mb: 10_240 },
    });
    h.sandbox.state.account.balance = 1;
    expect((await h.call('GET', '/workers/deploy-requirements')).json.data.sufficient).toBe(false);
  });

  it('GET /workers/locations lists locations, one out of stock', async () => {
    const r = await h.call('GET', '/workers/locations');
    const locs = (r.json.data as unknown[]).map((l) => expectShape(WorkerLocation, l));
    expect(locs.map((l) => [l.id, l.short_code, l.out_of_stock])).toEqual([
      [1, 'AMS', false],
      [2, 'FRA', false],
      [3, 'NYC', true],
    ]);
  });

  it('GET /workers/templates lists templates and databases', async () => {
    const r = await h.call('GET', '/workers/templates');
    const tpls = (r.json.data as unknown[]).map((t) => expectShape(WorkerTemplate, t));
    expect(new Set(tpls.map((t) => t.type))).toEqual(new Set(['template', 'database']));
    expect(tpls.map((t) => t.id)).toContain('db-postgresql-16');
  });

  it('GET /workers/{uuid}/status returns the seeded active worker and 404 for unknown', async () => {
    const r = await h.call('GET', `/workers/${SEED_WORKER_UUID}/status`);
    expect(expectShape(Worker, r.json.data)).toMatchObject({ status: 'active', runtime_status: 'running', last_deployment_status: 'finished' });
    expectError(await h.call('GET', '/workers/00000000-0000-4000-8000-000000000000/status'), 404, 'NOT_FOUND');
  });
});

describe('POST /workers', () => {
  it('deploys (201) a pending, queued worker of the full shape', async () => {
    const r = await h.call('POST', '/workers', deployBody);
    expect(r.status).toBe(201);
    const w = expectShape(Worker, r.json.data);
    expect(w).toMatchObject({
      name: 'Shop Front',
      status: 'pending',
      last_deployment_status: 'queued',
      runtime_status: null,
      provisioned: false,
      suspended_at: null,
      suspension_reason: null,
      last_error: null,
      location_id: 1,
      git_branch: 'main',
      build_pack: 'auto_detect',
      billing_type: 'hourly',
      location: { id: 1, short_code: 'AMS', out_of_stock: false },
    });
    expect(w.fqdn).toBe(`shop-front-${w.uuid.slice(0, 8)}.workers.example.net`);
  });

  it('moves queued → in_progress → active on the clock', async () => {
    const { uuid } = (await h.call('POST', '/workers', deployBody)).json.data;
    const poll = async () => (await h.call('GET', `/workers/${uuid}/status`)).json.data;
    await h.clock.advance(19_999);
    expect(await poll()).toMatchObject({ status: 'pending', last_deployment_status: 'queued' });
    await h.clock.advance(1);
    expect(await poll()).toMatchObject({ status: 'pending', last_deployment_status: 'in_progress' });
    await h.clock.advance(79_999);
    expect((await poll()).status).toBe('pending');
    await h.clock.advance(1);
    const done = await poll();
    expect(done).toMatchObject({ status: 'active', last_deployment_status: 'finished', runtime_status: 'running', provisioned: true });
    expect(done.runtime_status_at).toBe(new Date(h.clock.now()).toISOString());
  });

  it('ends in failed for a repository whose URL contains "fail"', async () => {
    const { uuid } = (await h.call('POST', '/workers', { ...deployBody, git_repository: 'git@github.com:acme/will-fail.git' })).json.data;
    await h.clock.advance(100_000);
    const w = (await h.call('GET', `/workers/${uuid}/status`)).json.data;
    expect(w).toMatchObject({ status: 'failed', last_deployment_status: 'failed', provisioned: false });
    expect(w.last_error).toMatch(/^Build failed: /);
  });

  it('deploys from a template or database id', async () => {
    const t = await h.call('POST', '/workers', { name: 'blog', location_id: 2, git_source: 'template', git_repository: 'tpl-astro' });
    expect(t.status).toBe(201);
    const d = await h.call('POST', '/workers', { name: 'pg', location_id: 2, git_source: 'database', git_repository: 'db-postgresql-16' });
    expect(d.status).toBe(201);
  });

  it.each([
    [{ ...deployBody, name: undefined }, 'name'],
    [{ ...deployBody, name: '   ' }, 'name'],
    [{ ...deployBody, name: 'x'.repeat(192) }, 'name'],
    [{ ...deployBody, location_id: 0 }, 'location_id'],
    [{ ...deployBody, location_id: 4 }, 'location_id'],
    [{ ...deployBody, location_id: undefined }, 'location_id'],
    [{ ...deployBody, git_source: 'gitlab' }, 'git_source'],
    [{ ...deployBody, build_pack: 'nixpacks' }, 'build_pack'],
    [{ ...deployBody, git_repository: `https://x.example/${'a'.repeat(490)}` }, 'git_repository'],
    [{ ...deployBody, git_repository: 'ftp://example.com/repo' }, 'git_repository'],
    [{ ...deployBody, git_repository: undefined }, 'git_repository'],
    [{ ...deployBody, git_source: 'template', git_repository: 'db-redis-7' }, 'git_repository'],
    [{ ...deployBody, git_source: 'database', git_repository: 'https://github.com/a/b' }, 'git_repository'],
    [{ ...deployBody, git_branch: 'b'.repeat(192) }, 'git_branch'],
    [{ ...deployBody, ports_exposes: '1'.repeat(65) }, 'ports_exposes'],
    [{ ...deployBody, base_directory: 'd'.repeat(256) }, 'base_directory'],
    [{ ...deployBody, publish_directory: 'd'.repeat(256) }, 'publish_directory'],
    [{ ...deployBody, install_command: 'c'.repeat(1001) }, 'install_command'],
    [{ ...deployBody, build_command: 'c'.repeat(1001) }, 'build_command'],
    [{ ...deployBody, start_command: 'c'.repeat(1001) }, 'start_command'],
    [{ ...deployBody, is_spa: 'yes' }, 'is_spa'],
  ])('refuses invalid input with VALIDATION_ERROR (%#: %s)', async (body, field) => {
    const err = expectError(await h.call('POST', '/workers', body), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details)).toEqual([field]);
  });

  it('accepts the maximum lengths exactly', async () => {
    const r = await h.call('POST', '/workers', {
      ...deployBody,
      name: 'n'.repeat(191),
      git_branch: 'b'.repeat(191),
      ports_exposes: '8'.repeat(64),
      base_directory: 'd'.repeat(255),
      publish_directory: 'p'.repeat(255),
      install_command: 'i'.repeat(1000),
      build_command: 'b'.repeat(1000),
      start_command: 's'.repeat(1000),
    });
    expect(r.status).toBe(201);
  });

  it('checks refusals in order: disabled, limit, balance, location, git host', async () => {
    const acc = h.sandbox.state.account;
    acc.workersEnabled = false;
    acc.workersAllowed = 1;
    acc.balance = 0;
    const hosted = { ...deployBody, location_id: 3, git_source: 'hosted_git' };
    expectError(await h.call('POST', '/workers', hosted), 422, 'WORKERS_DISABLED');
    acc.workersEnabled = true;
    const limit = expectError(await h.call('POST', '/workers', hosted), 422, 'WORKER_LIMIT_REACHED');
    expect(limit.details).toEqual({ workers_used: 1, workers_allowed: 1 });
    acc.workersAllowed = 5;
    const bal = expectError(await h.call('POST', '/workers', hosted), 422, 'INSUFFICIENT_BALANCE');
    expect(bal.details).toEqual({ credit: 0, minimum_credit: 5 });
    acc.balance = 10;
    expectError(await h.call('POST', '/workers', hosted), 422, 'LOCATION_UNAVAILABLE');
    expectError(await h.call('POST', '/workers', { ...hosted, location_id: 1 }), 422, 'GIT_HOST_NOT_CONNECTED');
    acc.gitHostConnected = true;
    expect((await h.call('POST', '/workers', { ...hosted, location_id: 1 })).status).toBe(201);
  });
});
