/** Control API for changes "from the panel": power a server off/on, move a worker's build. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_STATUS_BEYOND_SPEC, ServerStatus, Worker } from '../../src/cloud-api/schemas.js';
import { SEED_SERVERS, SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import { TOKEN, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start({ buildMs: 100_000 });
});
afterEach(() => h.close());

const control = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${h.server.baseUrl.replace(/\/v2$/, '')}/__sandbox${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, text, json: text ? JSON.parse(text) : undefined };
};
const serverStatus = async (id: string | number) => expectShape(ServerStatus, (await h.call('GET', `/servers/${id}/status`)).json.data, SERVER_STATUS_BEYOND_SPEC);
const workerStatus = async (uuid: string) => expectShape(Worker, (await h.call('GET', `/workers/${uuid}/status`)).json.data);

describe('server power control', () => {
  it('powers a server off and on; GET /servers/:id/status shows it', async () => {
    expect(await serverStatus(101)).toMatchObject({ state: 'running' });
    const off = await control('POST', '/servers/101/power', { state: 'off' });
    expect(off.status).toBe(200);
    expect(expectShape(ServerStatus, off.json.data, SERVER_STATUS_BEYOND_SPEC)).toMatchObject({ state: 'stopped' });
    // As the seeded stopped server (staging-1) reports it: a finished shutdown task.
    const seen = await serverStatus(101);
    expect(seen).toMatchObject({ state: 'stopped', power_task: { action: 'shutdown', state: 'stopped', status: 'OK' }, server_status: null });
    expect(seen.power_task!.updated_at).toBe(new Date(h.clock.now()).toISOString());
    await h.clock.advance(60_000);
    expect((await control('POST', `/servers/${SEED_SERVERS.web.uuid}/power`, { state: 'on' })).status).toBe(200);
    expect(await serverStatus(101)).toMatchObject({ state: 'running', power_task: { action: 'start', state: 'running' } });
    // The stopped seed server can be started too; control calls are not recorded as API traffic.
    await control('POST', `/servers/${SEED_SERVERS.stopped.id}/power`, { state: 'on' });
    expect((await serverStatus(SEED_SERVERS.stopped.id)).state).toBe('running');
    expect(h.sandbox.requests.every((r) => !r.path.includes('power'))).toBe(true);
  });

  it('refuses a bad state, an unknown server, the wrong method, and a server that is installing', async () => {
    const bad = await control('POST', '/servers/101/power', { state: 'reboot' });
    expect(bad.status).toBe(422);
    expect(bad.json.error.code).toBe('VALIDATION_ERROR');
    expect(Object.keys(bad.json.error.details)).toEqual(['state']);
    expect((await control('POST', '/servers/101/power', {})).json.error.details.state[0]).toMatch(/required/);
    expect((await control('POST', '/servers/999/power', { state: 'off' })).status).toBe(404);
    expect((await control('GET', '/servers/101/power')).status).toBe(405);
    const busy = await control('POST', `/servers/${SEED_SERVERS.installing.id}/power`, { state: 'off' });
    expect(busy.status).toBe(409);
    expect(busy.json.error.code).toBe('SERVER_STATUS_CONFLICT');
    expect((await serverStatus(101)).state).toBe('running');
  });

  it('is also a method of the sandbox object', async () => {
    expect(h.sandbox.powerServer(102, 'off')).toMatchObject({ state: 'stopped' });
    expect((await serverStatus(102)).state).toBe('stopped');
    expect(h.sandbox.powerServer(SEED_SERVERS.db.uuid, 'on')).toMatchObject({ state: 'running' });
    expect(() => h.sandbox.powerServer(999, 'off')).toThrow(/not found/i);
  });
});

describe('worker status control', () => {
  it('fails a worker now, with the error it reports', async () => {
    expect(await workerStatus(SEED_WORKER_UUID)).toMatchObject({ status: 'active' });
    const r = await control('PATCH', `/workers/${SEED_WORKER_UUID}`, { status: 'failed', error: 'OOM killed' });
    expect(r.status).toBe(200);
    expect(expectShape(Worker, r.json.data)).toMatchObject({ status: 'failed', last_deployment_status: 'failed', last_error: 'OOM killed' });
    expect(await workerStatus(SEED_WORKER_UUID)).toMatchObject({ status: 'failed', last_deployment_status: 'failed', runtime_status: null });
  });

  it('starts a build outside the bot: queued, in progress, then active (or failed) on the clock', async () => {
    const r = await control('PATCH', `/workers/${SEED_WORKER_UUID}`, { status: 'building', build_ms: 50_000 });
    expect(r.json.data).toMatchObject({ status: 'pending', last_deployment_status: 'queued' });
    await h.clock.advance(10_000); // 20 % of the build
    expect(await workerStatus(SEED_WORKER_UUID)).toMatchObject({ status: 'pending', last_deployment_status: 'in_progress' });
    await h.clock.advance(40_000);
    expect(await workerStatus(SEED_WORKER_UUID)).toMatchObject({ status: 'active', last_deployment_status: 'finished', last_error: null });
    // The default build time is the sandbox's; `fails` makes it end failed.
    await control('PATCH', `/workers/${SEED_WORKER_UUID}`, { status: 'building', fails: true });
    await h.clock.advance(99_999);
    expect((await workerStatus(SEED_WORKER_UUID)).status).toBe('pending');
    await h.clock.advance(1);
    expect(await workerStatus(SEED_WORKER_UUID)).toMatchObject({ status: 'failed', last_deployment_status: 'failed' });
  });

  it('a change overrides a build already under way, and `active` ends one now', async () => {
    const w = await h.call('POST', '/workers', { name: 'api', location_id: 1, git_source: 'public', git_repository: 'https://github.com/acme/api.git' });
    const uuid = w.json.data.uuid as string;
    await h.clock.advance(30_000);
    expect(h.sandbox.changeWorker(uuid, { status: 'failed' })).toMatchObject({ status: 'failed' });
    await h.clock.advance(200_000); // the old build's end must not bring it back
    expect((await workerStatus(uuid)).status).toBe('failed');
    h.sandbox.changeWorker(uuid, { status: 'building' });
    expect(h.sandbox.changeWorker(uuid, { status: 'active' })).toMatchObject({ status: 'active', runtime_status: 'running' });
    await h.clock.advance(200_000);
    expect((await workerStatus(uuid)).status).toBe('active');
  });

  it('refuses a bad status or field, an unknown worker and the wrong method', async () => {
    const bad = await control('PATCH', `/workers/${SEED_WORKER_UUID}`, { status: 'exploded', build_ms: -1 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.json.error.details).sort()).toEqual(['build_ms', 'status']);
    expect((await control('PATCH', '/workers/00000000-0000-4000-8000-000000000000', { status: 'failed' })).status).toBe(404);
    expect((await control('POST', `/workers/${SEED_WORKER_UUID}`, { status: 'failed' })).status).toBe(405);
    expect((await workerStatus(SEED_WORKER_UUID)).status).toBe('active');
    expect(() => h.sandbox.changeWorker('00000000-0000-4000-8000-000000000000', { status: 'failed' })).toThrow(/not found/i);
  });
});
