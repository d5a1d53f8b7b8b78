import { describe, expect, it } from 'vitest';
import { createDeliveryMemory, deliveryKey, PRUNE_EVERY, REMEMBER_MS, skipRetriedDeliveries } from '../../src/slack/retried-deliveries.js';
import { createSqliteStore } from '../../src/store/index.js';
import { waitFor } from '../rig/wait-for.js';

describe('delivery memory', () => {
  it('knows a delivery again until its time is up', () => {
    let now = 1_000;
    const memory = createDeliveryMemory({ now: () => now }, 60_000, 100);
    expect(memory.seen('trigger:a')).toBe(false);
    expect(memory.seen('trigger:a')).toBe(true);
    now += 60_001;
    expect(memory.seen('trigger:b')).toBe(false); // a's time is up: forgotten as b comes in
    expect(memory.size()).toBe(1);
    expect(memory.seen('trigger:a')).toBe(false);
  });

  it('holds at most `max` keys, forgetting the oldest first', () => {
    const memory = createDeliveryMemory({ now: () => 0 }, 60_000, 3);
    for (const k of ['a', 'b', 'c', 'd', 'e']) memory.seen(k);
    expect(memory.size()).toBe(3);
    expect(memory.seen('e')).toBe(true);
    expect(memory.seen('a')).toBe(false);
  });

  it('keys a delivery by its event id, else its trigger id', () => {
    expect(deliveryKey({ event_id: 'Ev1', trigger_id: 't' })).toBe('event:Ev1');
    expect(deliveryKey({ trigger_id: '1.2.abc' })).toBe('trigger:1.2.abc');
    expect(deliveryKey({ type: 'block_suggestion' })).toBeUndefined();
    expect(deliveryKey(undefined)).toBeUndefined();
  });
});

describe('the middleware over a real store', () => {
  const logger = { info: () => {}, warn: () => {} };
  /** One delivery through the middleware: whether it went on to the listeners, and whether it was acked here. */
  async function deliver(mw: ReturnType<typeof skipRetriedDeliveries>, triggerId: string, retryNum?: number) {
    let answered = false;
    let acked = false;
    await mw({
      body: { trigger_id: triggerId },
      context: retryNum === undefined ? {} : { retryNum, retryReason: 'http_timeout' },
      next: async () => {
        answered = true;
      },
      ack: async () => {
        acked = true;
      },
    } as unknown as Parameters<typeof mw>[0]);
    return { answered, acked };
  }

  it('a retry of a delivery another replica took is acked, not answered; expired keys are pruned as claims go by', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    try {
      let now = 1_000;
      const clock = { now: () => now, sleep: () => new Promise<void>(() => {}) };
      const a = skipRetriedDeliveries({ clock, logger, deliveries: store.deliveries });
      const b = skipRetriedDeliveries({ clock, logger, deliveries: store.deliveries });
      expect(await deliver(a, 't1')).toEqual({ answered: true, acked: false });
      expect(await deliver(b, 't1', 1)).toEqual({ answered: false, acked: true }); // a took it
      expect(await deliver(b, 't2', 1)).toEqual({ answered: true, acked: false }); // no one took it
      const t1Kept = async () => !(await store.deliveries.claim('trigger:t1', 1_000, 2_000)); // as of when it was taken
      expect(await t1Kept()).toBe(true);
      now += REMEMBER_MS; // t1 has expired
      for (let i = 2; i < PRUNE_EVERY; i++) await deliver(a, `x${i}`);
      expect(await t1Kept()).toBe(true); // a's claims so far: PRUNE_EVERY - 1
      await deliver(a, 'x-last'); // its PRUNE_EVERY-th deletes t1
      await waitFor(async () => !(await t1Kept()), { timeoutMs: 2000 });
    } finally {
      await store.close();
    }
  });

  it('deliveries arriving together are claimed in one statement, each key taken once', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    try {
      const batches: string[][] = [];
      const deliveries = { ...store.deliveries, claimMany: (keys: readonly string[], now: number, expiresAt: number) => (batches.push([...keys]), store.deliveries.claimMany(keys, now, expiresAt)) };
      const clock = { now: () => 1_000, sleep: () => new Promise<void>(() => {}) };
      const mw = skipRetriedDeliveries({ clock, logger, deliveries });
      const firsts = await Promise.all(Array.from({ length: 10 }, (_, i) => deliver(mw, `t${i}`)));
      expect(firsts.every((d) => d.answered)).toBe(true);
      await waitFor(() => batches.length > 0, { timeoutMs: 2000 });
      expect(batches).toEqual([Array.from({ length: 10 }, (_, i) => `trigger:t${i}`)]);
      for (let i = 0; i < 10; i++) expect(await store.deliveries.claim(`trigger:t${i}`, 1_000, 2_000)).toBe(false);
    } finally {
      await store.close();
    }
  });

  it('a retry whose check fails is acked and not answered; a first delivery is answered anyway', async () => {
    const store = createSqliteStore({ path: ':memory:' });
    await store.close(); // every claim now fails
    const warned: string[] = [];
    const clock = { now: () => 1_000, sleep: () => new Promise<void>(() => {}) };
    const mw = skipRetriedDeliveries({ clock, logger: { info: () => {}, warn: (m: string) => void warned.push(m) }, deliveries: store.deliveries });
    expect(await deliver(mw, 'first')).toEqual({ answered: true, acked: false });
    expect(await deliver(mw, 'other', 1)).toEqual({ answered: false, acked: true });
    expect(warned).toContain('retried delivery not answered: the store could not say whether it was taken');
  });
});
