/** The watch store's contract, on both backends. */
import { expect, it } from 'vitest';
import type { NewWatch, WatchRecord } from '../../src/store/index.js';
import { WATCH_ID_PATTERN } from '../../src/store/index.js';
import { T0, fixedClock, describeStores } from './helpers.js';

const newWatch = (over: Partial<NewWatch> = {}): NewWatch => ({
  kind: 'server',
  resource: 'srv-123',
  channelId: 'C_OPS',
  threadTs: '111.222',
  requestedBy: 'U_ALICE',
  intervalMs: 10_000,
  startedAt: T0,
  deadlineAt: T0 + 3_600_000,
  nextPollAt: T0 + 10_000,
  ...over,
});

describeStores((t) => {

  it('creates an active watch and reads it back, across a reopen', async () => {
    const path = t.file();
    const store = t.open(path, fixedClock(T0 + 5));
    const { record: op } = await store.operations.create({ opId: 'server.reinstall', args: {}, requestedBy: 'U', channelId: 'C', expiresAt: T0 + 1 });
    const w = await store.watches.create(newWatch({ operationId: op.id }));
    expect(w.id).toMatch(WATCH_ID_PATTERN);
    expect(w).toEqual({
      id: w.id,
      kind: 'server',
      resource: 'srv-123',
      operationId: op.id,
      channelId: 'C_OPS',
      threadTs: '111.222',
      requestedBy: 'U_ALICE',
      status: 'active',
      state: null,
      outcome: null,
      polls: 0,
      intervalMs: 10_000,
      startedAt: T0,
      deadlineAt: T0 + 3_600_000,
      nextPollAt: T0 + 10_000,
      updatedAt: T0 + 5,
      finalTs: null,
      leaseOwner: null,
      leaseUntil: null,
      account: null,
      unread: null,
    } satisfies WatchRecord);
    await store.close();
    expect(await t.open(path).watches.get(w.id)).toEqual(w);
    expect(await t.open(path).watches.get('waaaaaaaa')).toBeUndefined();
  });

  it('remembers the account of the resource, through claims, moves and a reopen', async () => {
    const path = t.file();
    const store = t.open(path);
    const w = await store.watches.create(newWatch({ account: 'acme-staging', nextPollAt: T0 }));
    const bare = await store.watches.create(newWatch({ account: null, startedAt: T0 + 1 }));
    expect(w.account).toBe('acme-staging');
    expect(bare.account).toBeNull(); // the default account
    expect((await store.watches.create(newWatch({ startedAt: T0 + 2 }))).account).toBeNull();
    await expect(store.watches.create(newWatch({ account: '' }))).rejects.toThrow(/account must be a non-empty string/);
    expect((await store.watches.claimDue('replica-a', T0, 30_000, 10)).map((x) => x.account)).toEqual(['acme-staging']);
    expect(await store.watches.update(w.id, ['active'], T0 + 1, { polled: true }, 'replica-a')).toMatchObject({ account: 'acme-staging' });
    expect(await store.watches.move(w.id, ['active'], 'finalizing', T0 + 2, {}, 'replica-a')).toMatchObject({ account: 'acme-staging' });
    await store.close();

    const again = t.open(path);
    expect(await again.watches.get(w.id)).toMatchObject({ account: 'acme-staging', status: 'finalizing' });
    expect((await again.watches.listOpen()).map((x) => x.account)).toEqual(['acme-staging', null, null]);
    expect((await again.watches.listRecent(10)).map((x) => x.account)).toEqual([null, null, 'acme-staging']);
  });

  it('update patches only while in the given statuses; null clears, absent keeps; polls count', async () => {
    const { watches } = t.open(t.file());
    const w = await watches.create(newWatch());
    const a = await watches.update(w.id, ['active'], T0 + 100, { polled: true, state: { status: 'building', ready: false }, nextPollAt: T0 + 200 });
    expect(a).toMatchObject({ status: 'active', polls: 1, state: { status: 'building', ready: false }, nextPollAt: T0 + 200, updatedAt: T0 + 100, threadTs: '111.222' });
    const b = await watches.update(w.id, ['active'], T0 + 300, { polled: true, threadTs: null, intervalMs: 20_000 });
    expect(b).toMatchObject({ polls: 2, threadTs: null, intervalMs: 20_000, state: { status: 'building', ready: false } });
    expect(await watches.update(w.id, ['finalizing'], T0 + 400, { polled: true })).toBeUndefined();
    expect(await watches.get(w.id)).toEqual(b);
  });

  it('move claims the final post once: of concurrent claims on two connections exactly one wins', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    const w = await a.watches.create(newWatch());
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).watches.move(w.id, ['active'], 'finalizing', T0 + 1000, { outcome: `o${i}` })),
    );
    const won = claims.filter((c) => c !== undefined);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ status: 'finalizing', updatedAt: T0 + 1000 });
    const done = await b.watches.move(w.id, ['finalizing'], 'done', T0 + 2000, { finalTs: '333.444' });
    expect(done).toMatchObject({ status: 'done', finalTs: '333.444', outcome: won[0]!.outcome });
    expect(await a.watches.move(w.id, ['active', 'finalizing'], 'cancelled', T0 + 3000)).toBeUndefined();
  });

  it('claimDue leases due watches to one replica until expiry; then another takes them over', async () => {
    const path = t.file();
    const a = t.open(path).watches;
    const b = t.open(path).watches;
    const due1 = await a.create(newWatch({ nextPollAt: T0 }));
    const due2 = await a.create(newWatch({ nextPollAt: T0 - 5, startedAt: T0 + 1 }));
    const later = await a.create(newWatch({ nextPollAt: T0 + 60_000, startedAt: T0 + 2 }));
    const fin = await a.create(newWatch({ nextPollAt: T0, startedAt: T0 + 3 }));
    await a.move(fin.id, ['active'], 'finalizing', T0, { outcome: 'succeeded' });
    const ended = await a.create(newWatch({ nextPollAt: T0 }));
    await a.move(ended.id, ['active'], 'done', T0);

    const mine = await a.claimDue('replica-a', T0, 30_000, 10);
    expect(mine.map((w) => w.id)).toEqual([due1.id, due2.id, fin.id]); // oldest first; not the future one, not the done one
    expect(mine.every((w) => w.leaseOwner === 'replica-a' && w.leaseUntil === T0 + 30_000)).toBe(true);
    expect(await b.claimDue('replica-b', T0 + 1000, 30_000, 10)).toEqual([]); // all held by A
    // A holds them: its own claim renews; its writes go through, B's do not.
    expect((await a.claimDue('replica-a', T0 + 1000, 30_000, 10)).map((w) => w.leaseUntil)).toEqual([T0 + 31_000, T0 + 31_000, T0 + 31_000]);
    expect(await b.update(due1.id, ['active'], T0 + 1000, { polled: true }, 'replica-b')).toBeUndefined();
    expect(await b.move(fin.id, ['finalizing'], 'done', T0 + 1000, { finalTs: '1.2' }, 'replica-b')).toBeUndefined();
    expect(await a.update(due1.id, ['active'], T0 + 1000, { nextPollAt: T0 + 40_000 }, 'replica-a')).toMatchObject({ nextPollAt: T0 + 40_000 });

    // A dies: once its lease ends, B takes over what is due (due1 is not due again until its next poll).
    expect(await b.claimDue('replica-b', T0 + 30_999, 30_000, 10)).toEqual([]);
    const taken = await b.claimDue('replica-b', T0 + 31_000, 30_000, 10);
    expect(taken.map((w) => w.id)).toEqual([due2.id, fin.id]);
    expect(taken[1]).toMatchObject({ status: 'finalizing', leaseOwner: 'replica-b', leaseUntil: T0 + 61_000 });
    // A comes back from a stall: its lease is gone, so its writes are refused and change nothing.
    expect(await a.move(fin.id, ['finalizing'], 'done', T0 + 31_001, { finalTs: '9.9' }, 'replica-a')).toBeUndefined();
    expect(await a.update(due2.id, ['active'], T0 + 31_001, { polled: true }, 'replica-a')).toBeUndefined();
    expect(await a.get(fin.id)).toMatchObject({ status: 'finalizing', finalTs: null, leaseOwner: 'replica-b' });
    expect(await b.move(fin.id, ['finalizing'], 'done', T0 + 31_002, { finalTs: '1.2' }, 'replica-b')).toMatchObject({ status: 'done', finalTs: '1.2' });
    // A limit caps a pass (the longest-due first); the rest stay for the next one.
    expect((await b.claimDue('replica-b', T0 + 120_000, 30_000, 1)).map((w) => w.id)).toEqual([due2.id]);
    expect((await a.claimDue('replica-a', T0 + 120_000, 30_000, 10)).map((w) => w.id).sort()).toEqual([due1.id, later.id].sort());
  });

  it('release hands a stopping replica’s leases over at once, and only its own', async () => {
    const path = t.file();
    const a = t.open(path).watches;
    const b = t.open(path).watches;
    const w1 = await a.create(newWatch({ nextPollAt: T0 }));
    const w2 = await a.create(newWatch({ nextPollAt: T0, startedAt: T0 + 1 }));
    expect((await a.claimDue('replica-a', T0, 30_000, 1)).map((w) => w.id)).toEqual([w1.id]);
    expect((await b.claimDue('replica-b', T0, 30_000, 10)).map((w) => w.id)).toEqual([w2.id]);
    expect(await a.release('replica-a')).toBe(1);
    expect(await a.get(w1.id)).toMatchObject({ leaseOwner: null, leaseUntil: null });
    expect(await a.get(w2.id)).toMatchObject({ leaseOwner: 'replica-b' }); // not A's to give away
    // Well inside A's old lease, B takes the released watch.
    expect((await b.claimDue('replica-b', T0 + 1, 30_000, 10)).map((w) => w.id).sort()).toEqual([w1.id, w2.id].sort());
  });

  it('claimDue from many connections at once: every due watch goes to exactly one replica', async () => {
    const path = t.file();
    const replicas = Array.from({ length: 4 }, () => t.open(path).watches);
    const created = [];
    for (let i = 0; i < 40; i++) created.push(await replicas[0]!.create(newWatch({ nextPollAt: T0, resource: `srv-${i}` })));
    // Eight claimers (two per connection), each its own replica, all at once.
    const claims = Array.from({ length: 8 }, (_, i) =>
      replicas[i % 4]!.claimDue(`r${i}`, T0, 30_000, 7).then((ws) => ws.map((w) => [w.id, `r${i}`] as const)),
    );
    const owners = new Map<string, Set<string>>();
    for (const [id, owner] of (await Promise.all(claims)).flat()) owners.set(id, (owners.get(id) ?? new Set()).add(owner));
    expect([...owners.values()].every((o) => o.size === 1)).toBe(true); // never two replicas
    expect(owners.size).toBeGreaterThan(0);
    // A latecomer gets exactly what nobody got (a claimer may skip rows another was locking).
    const rest = await replicas[1]!.claimDue('late', T0, 30_000, 100);
    expect(rest.filter((w) => owners.has(w.id))).toEqual([]);
    expect(owners.size + rest.length).toBe(40);
    for (const w of rest) owners.set(w.id, new Set(['late']));
    for (const w of created) expect((await replicas[0]!.get(w.id))!.leaseOwner).toBe([...owners.get(w.id)!][0]);
  });

  it('listOpen: active and finalizing, oldest first (ties by insertion); listRecent: newest first, limited', async () => {
    const { watches } = t.open(t.file());
    const w1 = await watches.create(newWatch({ startedAt: T0 + 10 }));
    const w2 = await watches.create(newWatch({ startedAt: T0 }));
    const w3 = await watches.create(newWatch({ startedAt: T0 + 10 }));
    const w4 = await watches.create(newWatch({ startedAt: T0 + 20 }));
    await watches.move(w2.id, ['active'], 'finalizing', T0 + 1);
    await watches.move(w4.id, ['active'], 'gone', T0 + 1);
    expect((await watches.listOpen()).map((w) => w.id)).toEqual([w2.id, w1.id, w3.id]);
    expect((await watches.listRecent(3)).map((w) => w.id)).toEqual([w4.id, w3.id, w1.id]);
    expect((await watches.listRecent(0)).map((w) => w.id)).toEqual([w4.id]);
  });
});
