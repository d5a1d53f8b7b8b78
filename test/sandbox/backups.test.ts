import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Backup, PageMeta } from '../../src/cloud-api/schemas.js';
import { expectError, expectShape, start } from './helpers.js';
import type { Harness } from './helpers.js';

let h: Harness;
beforeEach(async () => {
  h = await start();
});
afterEach(() => h.close());

describe('GET /servers/{server}/backups', () => {
  it('paginates 18 backups newest first: 15 + 3, then empty beyond the last page', async () => {
    const p1 = await h.call('GET', '/servers/101/backups');
    expect(expectShape(PageMeta, p1.json.meta)).toEqual({ current_page: 1, last_page: 2, per_page: 15, total: 18 });
    const b1 = (p1.json.data as unknown[]).map((b) => expectShape(Backup, b));
    expect(b1).toHaveLength(15);
    const created = b1.map((b) => Date.parse(b.created_at ?? ''));
    expect([...created].sort((a, b) => b - a)).toEqual(created);

    const p2 = await h.call('GET', '/servers/101/backups?page=2');
    expect(p2.json.meta).toEqual({ current_page: 2, last_page: 2, per_page: 15, total: 18 });
    expect(p2.json.data).toHaveLength(3);
    expect(p2.json.data[2].is_locked).toBe(true);

    const p9 = await h.call('GET', '/servers/101/backups?page=9');
    expect(p9.status).toBe(200);
    expect(p9.json).toEqual({ data: [], meta: { current_page: 9, last_page: 2, per_page: 15, total: 18 } });
  });

  it('honours perPage and reports last_page 1 for an empty list', async () => {
    const small = await start({ perPage: 5 });
    try {
      expect((await small.call('GET', '/servers/101/backups?page=4')).json.meta).toEqual({ current_page: 4, last_page: 4, per_page: 5, total: 18 });
      expect((await small.call('GET', '/servers/104/backups')).json).toEqual({ data: [], meta: { current_page: 1, last_page: 1, per_page: 5, total: 0 } });
    } finally {
      await small.close();
    }
  });

  it.each(['0', '-1', 'abc', '1.5'])('refuses page=%s with VALIDATION_ERROR', async (page) => {
    const err = expectError(await h.call('GET', `/servers/101/backups?page=${page}`), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details)).toEqual(['page']);
  });

  it('answers 404 for an unknown server', async () => {
    expectError(await h.call('GET', '/servers/999/backups'), 404, 'NOT_FOUND');
  });
});

describe('POST /servers/{server}/backups', () => {
  it('creates (201) an in-progress backup that completes 30 s later', async () => {
    const r = await h.call('POST', '/servers/104/backups', { name: 'before-upgrade', mode: 'kill', compression_type: 'gzip' });
    expect(r.status).toBe(201);
    const b = expectShape(Backup, r.json.data);
    expect(b).toMatchObject({ name: 'before-upgrade', is_successful: false, is_locked: false, completed_at: null, size: 0 });
    await h.clock.advance(29_999);
    expect((await h.call('GET', '/servers/104/backups')).json.data[0]).toMatchObject({ uuid: b.uuid, is_successful: false });
    await h.clock.advance(1);
    const done = (await h.call('GET', '/servers/104/backups')).json.data[0];
    expect(done).toMatchObject({ uuid: b.uuid, is_successful: true, completed_at: new Date(h.clock.now()).toISOString() });
    expect(done.size).toBeGreaterThan(0);
  });

  it('defaults name, mode and compression', async () => {
    const r = await h.call('POST', '/servers/101/backups', {});
    expect(r.status).toBe(201);
    expect(r.json.data.name).toMatch(/^web-1-/);
    const stored = h.sandbox.state.backups[101]?.find((b) => b.uuid === r.json.data.uuid);
    expect(stored).toMatchObject({ mode: 'snapshot', compressionType: 'zstd' });
  });

  it.each([
    [{ name: 'n'.repeat(41) }, 'name'],
    [{ mode: 'hot' }, 'mode'],
    [{ compression_type: 'bzip2' }, 'compression_type'],
  ])('refuses %j with VALIDATION_ERROR', async (body, field) => {
    const err = expectError(await h.call('POST', '/servers/101/backups', body), 422, 'VALIDATION_ERROR');
    expect(Object.keys(err.details)).toEqual([field]);
  });

  it('refuses on a busy server (409) and over the plan backup_limit (RESOURCE_LIMIT_EXCEEDED)', async () => {
    expectError(await h.call('POST', '/servers/103/backups', {}), 409, 'SERVER_STATUS_CONFLICT');
    const err = expectError(await h.call('POST', '/servers/102/backups', {}), 422, 'RESOURCE_LIMIT_EXCEEDED');
    expect(err.details).toEqual({ limit: 3, used: 3 });
  });
});

describe('DELETE /servers/{server}/backups/{uuid}', () => {
  it('deletes (204), refuses a locked one (BACKUP_LOCKED) and 404s an unknown one', async () => {
    const list = h.sandbox.state.backups[101] ?? [];
    const locked = list.find((b) => b.isLocked);
    const plain = list.find((b) => !b.isLocked);
    if (!locked || !plain) throw new Error('seed changed');
    const d = await h.call('DELETE', `/servers/101/backups/${plain.uuid}`);
    expect(d.status).toBe(204);
    expect(d.text).toBe('');
    expect((await h.call('GET', '/servers/101/backups')).json.meta.total).toBe(17);
    expectError(await h.call('DELETE', `/servers/101/backups/${plain.uuid}`), 404, 'NOT_FOUND');
    expectError(await h.call('DELETE', `/servers/101/backups/${locked.uuid}`), 422, 'BACKUP_LOCKED');
    // A backup of another server is not found through this one.
    const other = h.sandbox.state.backups[102]?.[0]?.uuid ?? '';
    expectError(await h.call('DELETE', `/servers/101/backups/${other}`), 404, 'NOT_FOUND');
  });
});
