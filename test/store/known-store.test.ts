/** Known resources (migration 8) on both backends: upsert keeps first_seen, lookups per account and kind. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, T0, tempStores } from './helpers.js';

describe.each(BACKENDS)('%s', (backend) => {
  let t: ReturnType<typeof tempStores>;
  beforeEach(() => {
    t = tempStores(backend);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('upserts: first_seen stays, last_seen moves, a missing name keeps the known one', async () => {
    const path = t.file();
    const store = t.open(path);
    await store.known.remember(null, [{ kind: 'server', id: '101', name: 'web-1.example.net' }], T0);
    await store.known.remember(null, [{ kind: 'server', id: '101', uuid: '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11' }], T0 + 5000);
    const [row, ...more] = await store.known.list(null, 'server', 10);
    expect(more).toEqual([]);
    expect(row).toEqual({
      account: null,
      kind: 'server',
      id: '101',
      uuid: '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11',
      name: 'web-1.example.net',
      firstSeen: T0,
      lastSeen: T0 + 5000,
    });
    // An older answer arriving late does not move last_seen back.
    await store.known.remember(null, [{ kind: 'server', id: '101', name: 'web-renamed' }], T0 + 1000);
    expect((await store.known.list(null, 'server', 10))[0]).toMatchObject({ name: 'web-renamed', firstSeen: T0, lastSeen: T0 + 5000 });
    expect(await t.count(path, 'known_resources')).toBe(1);
  });

  it('finds by exact name ignoring case, only in the same account and kind', async () => {
    const store = t.open(t.file());
    await store.known.remember('acme', [
      { kind: 'server', id: '101', name: 'Web-1' },
      { kind: 'sg', id: '7', name: 'web-1' },
    ], T0);
    await store.known.remember(null, [{ kind: 'server', id: '202', name: 'web-1' }], T0);
    expect((await store.known.find('acme', 'server', 'WEB-1')).map((r) => r.id)).toEqual(['101']);
    expect((await store.known.find('acme', 'sg', 'web-1')).map((r) => r.id)).toEqual(['7']);
    expect((await store.known.find(null, 'server', 'web-1')).map((r) => r.id)).toEqual(['202']);
    expect(await store.known.find('other', 'server', 'web-1')).toEqual([]);
    expect(await store.known.find('acme', 'server', 'web')).toEqual([]); // exact, not a prefix
    expect(await store.known.find('acme', 'worker', 'web-1')).toEqual([]);
  });

  it('lists newest first within the limit, and names for suggestions', async () => {
    const store = t.open(t.file());
    await store.known.remember(null, [{ kind: 'worker', id: 'u-1', name: 'docs-site' }], T0);
    await store.known.remember(null, [{ kind: 'worker', id: 'u-2', name: 'api' }, { kind: 'worker', id: 'u-3' }], T0 + 1);
    expect((await store.known.list(null, 'worker', 2)).map((r) => r.id)).toEqual(['u-2', 'u-3']);
    expect((await store.known.list(null, 'worker', 10)).map((r) => r.id)).toEqual(['u-2', 'u-3', 'u-1']);
    expect(await store.known.names(null, 'worker')).toEqual(['api', 'docs-site']);
    expect(await store.known.names('acme', 'worker')).toEqual([]);
  });

  it('ignores empty ids and blank names, and refuses an unknown kind', async () => {
    const path = t.file();
    const store = t.open(path);
    await store.known.remember(null, [{ kind: 'sg', id: '', name: 'x' }, { kind: 'sg', id: '8', name: '  ' }], T0);
    expect(await store.known.list(null, 'sg', 10)).toMatchObject([{ id: '8', name: null }]);
    await expect(store.known.remember(null, [{ kind: 'disk' as never, id: '1' }], T0)).rejects.toThrow(/unknown resource kind/);
    await expect(store.known.list(null, 'disk' as never, 1)).rejects.toThrow(/unknown resource kind/);
    await store.known.remember(null, [], T0); // nothing to do
    expect(await t.count(path, 'known_resources')).toBe(1);
  });
});
