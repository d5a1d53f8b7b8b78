/**
 * An audit entry the store cannot take is kept and written once the store is back: never
 * dropped. Real SQLite file whose write lock another connection holds; the auditor's pauses
 * run on a manual clock, the store's lock budget on fake time (no real waiting).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditor } from '../../src/audit/auditor.js';
import { createManualClock, type ManualClock } from '../../src/clock.js';
import { createSqliteStore, type Store } from '../../src/store/index.js';
import { capturedLogger, newEntry, T0 } from './helpers.js';

let dir: string;
let store: Store;
let other: Database.Database;
let clock: ManualClock;
let log: ReturnType<typeof capturedLogger>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cloudbot-audit-outage-'));
  const path = join(dir, 'db.sqlite');
  // The store's lock budget passes on fake time: each pause moves it, nothing waits for real.
  let t = 0;
  store = createSqliteStore({ path, lockRetry: { now: () => t, sleep: async (ms) => void (t += ms) } });
  other = new Database(path);
  clock = createManualClock(T0);
  log = capturedLogger('debug');
});
afterEach(async () => {
  if (other.inTransaction) other.prepare('ROLLBACK').run();
  other.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const auditor = () =>
  createAuditor({ store: store.audit, logger: log.logger, clock, storeRetry: { sleep: (ms) => clock.sleep(ms), firstDelayMs: 200, maxDelayMs: 1000 } });
const errors = () => log.lines.filter((l) => l.level === 'error');
/** Lets the drain loop run after a clock step (its store calls resolve in microtasks). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

describe('the store is locked while entries come in', () => {
  it('keeps them, logs each in full once, and writes them in order once the lock is gone', async () => {
    const a = auditor();
    other.prepare('BEGIN IMMEDIATE').run();
    await expect(a.record(newEntry({ opId: 'server.rename', args: { server: 'srv-1', name: 'web-2' } }))).resolves.toBeUndefined();
    await clock.advance(5);
    await a.record(newEntry({ opId: 'server.reboot' }));
    expect(a.pendingWrites()).toBe(2);

    // Each entry is in the log whole, at error level, once: a crash now loses nothing from the log.
    expect(errors()).toHaveLength(2);
    expect(errors()[0]).toMatchObject({
      msg: 'audit store write failed: the entry is kept and written again when the store answers',
      error: { name: 'StoreUnavailableError' },
      audit: { id: null, at: T0, opId: 'server.rename', args: { server: 'srv-1', name: 'web-2' }, userId: 'U_ALICE' },
    });
    expect(errors()[1]).toMatchObject({ msg: 'audit entry kept for the store (it is still unavailable)', audit: { opId: 'server.reboot', at: T0 + 5 } });

    // Still locked at the first retry: still kept, nothing more at error level.
    await clock.advance(200);
    await settle();
    expect(a.pendingWrites()).toBe(2);
    expect(errors()).toHaveLength(2);

    other.prepare('COMMIT').run();
    await clock.advance(400); // the next pause (doubled)
    await settle();
    expect(a.pendingWrites()).toBe(0);
    const stored = await store.audit.list({ limit: 10 });
    expect(stored.map((e) => [e.opId, e.at])).toEqual([
      ['server.reboot', T0 + 5],
      ['server.rename', T0],
    ]);
    expect(stored[1]!.args).toEqual({ server: 'srv-1', name: 'web-2' });
    expect(log.lines.filter((l) => l.msg === 'audit entry written after the store came back').map((l) => l.opId)).toEqual(['server.rename', 'server.reboot']);
    expect(errors()).toHaveLength(2);
  });

  it('flush (at stop) writes kept entries at once when the store is back, and says so when it is not', async () => {
    const a = auditor();
    other.prepare('BEGIN IMMEDIATE').run();
    await a.record(newEntry({ opId: 'server.rename' }));
    await a.flush();
    expect(a.pendingWrites()).toBe(1);
    expect(log.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['audit entries still not stored: kept, and each is in the log above in full']);

    other.prepare('COMMIT').run();
    await a.flush(); // no clock step: flush does not wait for the backoff
    expect(a.pendingWrites()).toBe(0);
    expect((await store.audit.list({ limit: 5 })).map((e) => e.opId)).toEqual(['server.rename']);
  });

  it('an entry recorded after the store is back goes straight in', async () => {
    const a = auditor();
    await a.record(newEntry({ opId: 'server.status', tier: 'read' }));
    expect(a.pendingWrites()).toBe(0);
    expect(errors()).toEqual([]);
    expect((await store.audit.list({ limit: 5 })).map((e) => e.opId)).toEqual(['server.status']);
  });
});
