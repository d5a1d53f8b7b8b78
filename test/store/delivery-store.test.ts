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

  it('refuses a key that is not text or is too long, and a time that is not an integer', async () => {
    const store = t.open(t.file());
    await expect(store.deliveries.claim('', T0, T0 + MIN)).rejects.toThrow(/key/);
    await expect(store.deliveries.claim('x'.repeat(201), T0, T0 + MIN)).rejects.toThrow(/at most 200/);
    await expect(store.deliveries.claim('trigger:a', 1.5, T0 + MIN)).rejects.toThrow(/now/);
  });
});
