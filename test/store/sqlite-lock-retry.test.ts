/**
 * A write lock held by another connection does not stall the event loop: the store waits for
 * it asynchronously and, past its budget, rejects with StoreUnavailableError. Real SQLite file,
 * a second better-sqlite3 connection holding BEGIN IMMEDIATE. The store's pauses are injected
 * (each a real turn of the event loop, counted on a time of their own), so nothing here depends
 * on how fast the machine is.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLockRetry, createSqliteStore, retryingMethods, StoreUnavailableError, type Store } from '../../src/store/index.js';
import { toStoreError } from '../../src/store/postgres/pg-errors.js';

let dir: string;
let path: string;
let store: Store;
let other: Database.Database;
/** The store's pauses, in order; the time they add up to; a hook run at each (its number). */
let pauses: number[];
let pausedMs: number;
let onPause: ((n: number) => void) | undefined;
const sleep = async (ms: number) => {
  pauses.push(ms);
  pausedMs += ms;
  onPause?.(pauses.length);
  await new Promise((resolve) => setTimeout(resolve, 0)); // a real turn of the loop, not a timed wait
};

const newOp = (key: string) => ({ opId: 'server.rename', args: { name: key }, requestedBy: 'U1', channelId: 'C1', dedupeKey: key, expiresAt: Date.now() + 60_000 });

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudbot-lock-'));
  path = join(dir, 'db.sqlite');
  [pauses, pausedMs, onPause] = [[], 0, undefined];
  store = createSqliteStore({ path, lockRetry: { budgetMs: 300, sleep, now: () => pausedMs } });
  other = new Database(path);
});
afterEach(async () => {
  if (other.inTransaction) other.prepare('ROLLBACK').run();
  other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const holdWriteLock = () => other.prepare('BEGIN IMMEDIATE').run();
const release = () => other.prepare('COMMIT').run();

describe('a write lock held by another connection', () => {
  it('is waited for without blocking the event loop, then StoreUnavailableError after the budget', async () => {
    holdWriteLock();
    const order: string[] = [];
    setTimeout(() => order.push('other work'), 0);
    const error = await store.operations.create(newOp('k1')).catch((e: unknown) => e);
    order.push('store answered');

    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', reason: 'locked', backend: 'sqlite', waitedMs: 150 });
    expect((error as StoreUnavailableError).message).toMatch(/SQLITE_BUSY/);
    // It waited in async pauses, 10 ms doubling, none past the 300 ms budget…
    expect(pauses).toEqual([10, 20, 40, 80]);
    // …and the loop kept turning meanwhile: work queued before the write ran before its answer.
    expect(order).toEqual(['other work', 'store answered']);

    release();
    expect(await store.operations.listRecent({ limit: 10 })).toEqual([]); // nothing half-written
  });

  it('a write goes through once the lock is released within the budget', async () => {
    holdWriteLock();
    onPause = (n) => n === 3 && release(); // the other connection commits during the third pause
    const { record, created: isNew } = await store.operations.create(newOp('k2'));
    expect(isNew).toBe(true);
    expect(pauses).toEqual([10, 20, 40]);
    expect((await store.operations.get(record.id))?.dedupeKey).toBe('k2');
  });

  it('reads are answered at once while the lock is held (WAL)', async () => {
    const { record } = await store.operations.create(newOp('k3'));
    holdWriteLock();
    expect((await store.operations.get(record.id))?.id).toBe(record.id);
    expect(await store.watches.listOpen()).toEqual([]);
    expect(await store.audit.list({ limit: 5 })).toEqual([]);
    expect(pauses).toEqual([]); // not one wait for the lock
  });

  it('every store (operations, watches, audit) waits the same way', async () => {
    holdWriteLock();
    const now = Date.now();
    const results = await Promise.allSettled([
      store.watches.create({ kind: 'server', resource: 'srv-1', channelId: 'C1', requestedBy: 'U1', intervalMs: 1000, startedAt: now, deadlineAt: now + 60_000, nextPollAt: now }),
      store.audit.insert({ at: now, userId: 'U1', opId: 'server.rename', tier: 'change', args: {}, outcome: 'succeeded' }),
      store.operations.transition('op_missing', { from: ['pending'], to: 'cancelled', now }),
    ]);
    for (const r of results) expect(r).toMatchObject({ status: 'rejected', reason: { name: 'StoreUnavailableError', reason: 'locked' } });
  });
});

describe('createLockRetry', () => {
  /** A clock the pauses move: no real waiting. */
  function fakeTime() {
    let t = 0;
    const pauses: number[] = [];
    return { pauses, now: () => t, sleep: async (ms: number) => void (pauses.push(ms), (t += ms)) };
  }
  const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

  it('backs off 10 ms doubling to 200 ms, within a 2 s budget, then gives up', async () => {
    const time = fakeTime();
    const run = createLockRetry({ sleep: time.sleep, now: time.now });
    let attempts = 0;
    const error = await run(() => {
      attempts++;
      throw busy();
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'StoreUnavailableError', reason: 'locked', waitedMs: time.now() });
    expect(time.pauses.slice(0, 7)).toEqual([10, 20, 40, 80, 160, 200, 200]);
    expect(time.now()).toBeLessThanOrEqual(2000);
    expect(time.now()).toBeGreaterThan(1800);
    expect(attempts).toBe(time.pauses.length + 1);
  });

  it('returns as soon as the work succeeds; SQLITE_LOCKED counts as busy', async () => {
    const time = fakeTime();
    const run = createLockRetry({ sleep: time.sleep, now: time.now });
    let attempts = 0;
    const value = await run(() => {
      if (++attempts < 3) throw Object.assign(new Error('locked'), { code: attempts === 1 ? 'SQLITE_LOCKED' : 'SQLITE_BUSY_SNAPSHOT' });
      return 'done';
    });
    expect(value).toBe('done');
    expect(time.pauses).toEqual([10, 20]);
  });

  it('an unusable file is unavailable at once; other errors pass through untouched', async () => {
    const time = fakeTime();
    const run = createLockRetry({ sleep: time.sleep, now: time.now });
    await expect(run(() => Promise.reject(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' })))).rejects.toMatchObject({
      name: 'StoreUnavailableError',
      reason: 'failed',
    });
    const constraint = Object.assign(new Error('UNIQUE constraint failed'), { code: 'SQLITE_CONSTRAINT_UNIQUE' });
    await expect(run(() => Promise.reject(constraint))).rejects.toBe(constraint);
    const bug = new TypeError('opId must be a non-empty string');
    await expect(run(() => Promise.reject(bug))).rejects.toBe(bug);
    expect(time.pauses).toEqual([]);
  });

  it('retryingMethods runs every method through the runner, keeping its arguments and result', async () => {
    const seen: string[] = [];
    const run = createLockRetry({ sleep: async () => {}, now: () => 0 });
    const target = {
      calls: 0,
      async add(a: number, b: number) {
        seen.push('add');
        if (this.calls++ === 0) throw busy();
        return a + b;
      },
    };
    const wrapped = retryingMethods(target, run);
    expect(await wrapped.add(2, 3)).toBe(5);
    expect(seen).toEqual(['add', 'add']);
  });
});

describe('PostgreSQL errors at the store boundary', () => {
  it('lock and statement timeouts, shutdowns and lost connections become StoreUnavailableError', () => {
    const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(toStoreError(pgError('55P03', 'canceling statement due to lock timeout'))).toMatchObject({ name: 'StoreUnavailableError', reason: 'locked', backend: 'postgres' });
    expect(toStoreError(pgError('57014', 'canceling statement due to statement timeout'))).toMatchObject({ reason: 'timeout' });
    expect(toStoreError(pgError('57P01'))).toMatchObject({ reason: 'unreachable' });
    expect(toStoreError(pgError('08006'))).toMatchObject({ reason: 'unreachable' });
    expect(toStoreError(pgError('ECONNREFUSED'))).toMatchObject({ reason: 'unreachable' });
    expect(toStoreError(new Error('timeout exceeded when trying to connect'))).toMatchObject({ reason: 'unreachable' });
    expect(toStoreError(new Error('Connection terminated unexpectedly'))).toMatchObject({ reason: 'unreachable' });
  });

  it('anything else passes through as it is', () => {
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(toStoreError(unique)).toBe(unique);
    const bug = new TypeError('bad');
    expect(toStoreError(bug)).toBe(bug);
  });
});
