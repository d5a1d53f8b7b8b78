/** Known resources (migrations 8 and 10) on both backends: upsert keeps first_seen, one name per field, lookups per account and kind. */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';

describeStores((t) => {

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
      names: [{ name: 'web-1.example.net', field: 'name', via: null, lastSeen: T0 }],
      firstSeen: T0,
      lastSeen: T0 + 5000,
    });
    // An older answer arriving late does not move last_seen back.
    await store.known.remember(null, [{ kind: 'server', id: '101', name: 'web-renamed' }], T0 + 1000);
    expect((await store.known.list(null, 'server', 10))[0]).toMatchObject({ name: 'web-renamed', firstSeen: T0, lastSeen: T0 + 5000 });
    expect(await t.count(path, 'known_resources')).toBe(1);
  });

  it('keeps one name per field: another kind of answer adds a name, the same kind replaces its own', async () => {
    const store = t.open(t.file());
    await store.known.remember(null, [{ kind: 'server', id: '102', name: 'billing', via: 'server rename' }], T0);
    await store.known.remember(null, [{ kind: 'server', id: '102', name: 'db-1.example.net', field: 'rdns', via: 'server ips' }], T0 + 1);
    expect((await store.known.find(null, 'server', 'billing')).map((r) => r.id)).toEqual(['102']);
    expect((await store.known.find(null, 'server', 'db-1.example.net'))[0]).toMatchObject({
      name: 'billing',
      names: [
        { name: 'billing', field: 'name', via: 'server rename', lastSeen: T0 },
        { name: 'db-1.example.net', field: 'rdns', via: 'server ips', lastSeen: T0 + 1 },
      ],
    });
    // A rename answer replaces the display name only; the reverse DNS stays.
    await store.known.remember(null, [{ kind: 'server', id: '102', name: 'ledger', via: 'server rename' }], T0 + 2);
    expect(await store.known.find(null, 'server', 'billing')).toEqual([]);
    expect((await store.known.find(null, 'server', 'ledger'))[0]!.names.map((n) => n.name)).toEqual(['ledger', 'db-1.example.net']);
    expect(await store.known.names(null, 'server')).toEqual(['ledger', 'db-1.example.net']);
    await expect(store.known.remember(null, [{ kind: 'server', id: '1', name: 'x', field: 'inventory' as never }], T0)).rejects.toThrow(/unknown name field/);
  });

  it('keeps a server’s addresses (field ip, migration 16): several at once, an answer carrying them replaces the set, other names stay', async () => {
    const store = t.open(t.file());
    const ips = (...a: string[]) => a.map((name) => ({ kind: 'server' as const, id: '101', name, field: 'ip' as const, via: 'server ips' }));
    await store.known.remember(null, [{ kind: 'server', id: '101', name: 'web-1.example.net', field: 'rdns', via: 'server ips' }, ...ips('185.10.20.11', '2a0c:8c0:1::11', '185.10.20.50')], T0);
    const [row] = await store.known.list(null, 'server', 10);
    // An address is not what the server is called.
    expect(row).toMatchObject({ id: '101', name: 'web-1.example.net' });
    expect(row!.names.filter((n) => n.field === 'ip').map((n) => n.name).sort()).toEqual(['185.10.20.11', '185.10.20.50', '2a0c:8c0:1::11']);
    expect((await store.known.find(null, 'server', '185.10.20.50')).map((r) => r.id)).toEqual(['101']);
    // Suggestions are names a command takes: never an address.
    expect(await store.known.names(null, 'server')).toEqual(['web-1.example.net']);
    // The reserved address moved away: the next answer's set replaces the old one; the rdns stays.
    await store.known.remember(null, ips('185.10.20.11', '2a0c:8c0:1::11'), T0 + 1);
    const [after] = await store.known.list(null, 'server', 10);
    expect(after!.names.map((n) => `${n.field} ${n.name}`).sort()).toEqual(['ip 185.10.20.11', 'ip 2a0c:8c0:1::11', 'rdns web-1.example.net']);
    expect(await store.known.find(null, 'server', '185.10.20.50')).toEqual([]);
    // A display name still replaces its own (one per field).
    await store.known.remember(null, [{ kind: 'server', id: '101', name: 'web-1' }], T0 + 2);
    await store.known.remember(null, [{ kind: 'server', id: '101', name: 'web-one' }], T0 + 3);
    expect((await store.known.list(null, 'server', 10))[0]!.names.filter((n) => n.field === 'name').map((n) => n.name)).toEqual(['web-one']);
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
    expect(await store.known.list(null, 'sg', 10)).toMatchObject([{ id: '8', name: null, names: [] }]);
    await expect(store.known.remember(null, [{ kind: 'disk' as never, id: '1' }], T0)).rejects.toThrow(/unknown resource kind/);
    await expect(store.known.list(null, 'disk' as never, 1)).rejects.toThrow(/unknown resource kind/);
    await store.known.remember(null, [], T0); // nothing to do
    expect(await t.count(path, 'known_resources')).toBe(1);
  });
});
