/** Deliveries taken (migration 11) on both backends: one replica takes a key, the others see it taken. */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';

describeStores((t) => {

  const MIN = 60_000;

  it('takes a key once: a second claim, from this store or another replica’s, finds it taken', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path); // a second replica on the same database
    expect(await a.deliveries.claim('trigger:1.2.abc', T0, T0 + 10 * MIN)).toBe(true);
    expect(await a.deliveries.claim('trigger:1.2.abc', T0 + 1, T0 + 10 * MIN)).toBe(false);
    expect(await b.deliveries.claim('trigger:1.2.abc', T0 + 2, T0 + 10 * MIN)).toBe(false);
    expect(await b.deliveries.claim('event:Ev1', T0, T0 + 10 * MIN)).toBe(true);
    expect(await t.count(path, 'deliveries')).toBe(2);
  });

  it('has one winner when two replicas claim the same key at once', async () => {
    const path = t.file();
    const stores = [t.open(path), t.open(path)];
    const won = await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.deliveries.claim('trigger:same', T0, T0 + MIN)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('a key whose time is up may be taken again; prune forgets only expired keys', async () => {
    const path = t.file();
    const store = t.open(path);
    await store.deliveries.claim('trigger:old', T0, T0 + MIN);
    await store.deliveries.claim('trigger:new', T0 + MIN, T0 + 2 * MIN);
    expect(await store.deliveries.claim('trigger:old', T0 + MIN, T0 + 2 * MIN)).toBe(true); // expired at T0 + MIN
    expect(await store.deliveries.claim('trigger:old', T0 + MIN, T0 + 2 * MIN)).toBe(false);
    await store.deliveries.claim('trigger:gone', T0, T0 + MIN);
    expect(await store.deliveries.prune(T0 + MIN)).toBe(1); // only 'gone'
    expect(await t.count(path, 'deliveries')).toBe(2);
    expect(await store.deliveries.prune(T0 + 2 * MIN)).toBe(2);
    expect(await t.count(path, 'deliveries')).toBe(0);
  });

  it('claims many keys in one statement: the new and the expired are taken, the live are not; one winner per key across replicas', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    expect(await a.deliveries.claim('trigger:live', T0, T0 + 10 * MIN)).toBe(true);
    expect(await a.deliveries.claim('trigger:old', T0, T0 + MIN)).toBe(true);
    const won = await b.deliveries.claimMany(['trigger:new', 'trigger:live', 'trigger:old'], T0 + MIN, T0 + 11 * MIN);
    expect([...won].sort()).toEqual(['trigger:new', 'trigger:old']);
    expect(await a.deliveries.claim('trigger:old', T0 + MIN + 1, T0 + 12 * MIN)).toBe(false); // b holds it now
    // Overlapping batches from two replicas at once, in opposite orders: each key has one winner.
    const keys = Array.from({ length: 20 }, (_, i) => `event:E${i}`);
    const [x, y] = await Promise.all([a.deliveries.claimMany(keys, T0, T0 + MIN), b.deliveries.claimMany([...keys].reverse(), T0, T0 + MIN)]);
    for (const k of keys) expect(Number(x.has(k)) + Number(y.has(k))).toBe(1);
    expect(await a.deliveries.claimMany([], T0, T0 + MIN)).toEqual(new Set());
    await expect(a.deliveries.claimMany(['trigger:a', 'trigger:a'], T0, T0 + MIN)).rejects.toThrow(/distinct/);
    await expect(a.deliveries.claimMany(['trigger:b', 'x'.repeat(201)], T0, T0 + MIN)).rejects.toThrow(/at most 200/);
    expect(await a.deliveries.claim('trigger:b', T0, T0 + MIN)).toBe(true); // the refused lot wrote nothing
  });

  it('refuses a key that is not text or is too long, and a time that is not an integer', async () => {
    const store = t.open(t.file());
    await expect(store.deliveries.claim('', T0, T0 + MIN)).rejects.toThrow(/key/);
    await expect(store.deliveries.claim('x'.repeat(201), T0, T0 + MIN)).rejects.toThrow(/at most 200/);
    await expect(store.deliveries.claim('trigger:a', 1.5, T0 + MIN)).rejects.toThrow(/now/);
  });
});
