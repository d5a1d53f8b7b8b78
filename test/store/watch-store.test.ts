/** The watch store's contract, on both backends. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewWatch, WatchRecord } from '../../src/store/index.js';
import { WATCH_ID_PATTERN } from '../../src/store/index.js';
import { BACKENDS, T0, fixedClock, tempStores } from './helpers.js';

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

describe.each(BACKENDS)('%s', (backend) => {
  let t: ReturnType<typeof tempStores>;
  beforeEach(() => {
    t = tempStores(backend);
  });
  afterEach(async () => {
    await t.cleanup();
  });

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
    } satisfies WatchRecord);
    await store.close();
    expect(await t.open(path).watches.get(w.id)).toEqual(w);
    expect(await t.open(path).watches.get('waaaaaaaa')).toBeUndefined();
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
