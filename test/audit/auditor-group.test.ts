/**
 * Group commit (src/audit/auditor.ts): entries recorded in the same turn of the loop are written
 * together, and those recorded while a write is in flight together in the next one, in order; a refusal inside a group does not take the others with
 * it; a group the store cannot take is kept whole for later. Real SQLite store underneath, with
 * its first write held open by hand.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAuditor } from '../../src/audit/auditor.js';
import { createManualClock } from '../../src/clock.js';
import { StoreUnavailableError } from '../../src/store/errors.js';
import type { AuditStore, Store } from '../../src/store/index.js';
import { tempStores } from '../store/helpers.js';
import { capturedLogger, newEntry, T0 } from './helpers.js';

let t: ReturnType<typeof tempStores>;
let store: Store;
beforeEach(() => {
  t = tempStores();
  store = t.open(t.file());
});
afterEach(async () => {
  await t.cleanup();
});

/** The real audit store, its first insert held until `release()`, every call counted. */
function heldStore(over: Partial<Pick<AuditStore, 'insertMany'>> = {}) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const calls: string[] = [];
  let first = true;
  const audit: AuditStore = {
    list: (q) => store.audit.list(q),
    async insert(e) {
      calls.push(`insert ${e.opId}`);
      if (first) {
        first = false;
        await held;
      }
      return store.audit.insert(e);
    },
    async insertMany(es) {
      calls.push(`insertMany ${es.map((e) => e.opId).join(',')}`);
      return over.insertMany ? over.insertMany(es) : store.audit.insertMany(es);
    },
  };
  return { audit, calls, release };
}

const settle = () => new Promise((r) => setTimeout(r, 5));

describe('group commit', () => {
  it('writes what arrived during a write as one group, in order, and each entry gets its id', async () => {
    const s = heldStore();
    const log = capturedLogger();
    const a = createAuditor({ store: s.audit, logger: log.logger, clock: createManualClock(T0) });
    const first = a.record(newEntry({ opId: 'a', tier: 'read' }));
    await settle(); // a's write is under way (held)
    const done = [first, ...['b', 'c', 'd'].map((op) => a.record(newEntry({ opId: op, tier: 'read' })))];
    await settle();
    expect(s.calls).toEqual(['insert a']); // b, c and d wait for the write in flight
    s.release();
    await Promise.all(done);
    expect(s.calls).toEqual(['insert a', 'insertMany b,c,d']);
    const rows = await store.audit.list({ limit: 10 });
    expect(rows.map((r) => r.opId).sort()).toEqual(['a', 'b', 'c', 'd']);
    // Each log line carries the id its row got.
    const lines = log.lines.filter((l) => l.msg === 'audit');
    expect(lines.map((l) => (l.audit as { opId: string }).opId)).toEqual(['a', 'b', 'c', 'd']);
    for (const l of lines) {
      const e = l.audit as { id: number; opId: string };
      expect(rows.find((r) => r.opId === e.opId)!.id).toBe(e.id);
    }
  });

  it('entries recorded in the same turn of the loop go in one write (SQLite writes synchronously: nothing is in flight to gather behind)', async () => {
    const s = heldStore();
    const a = createAuditor({ store: s.audit, logger: capturedLogger().logger, clock: createManualClock(T0) });
    await Promise.all(['a', 'b', 'c'].map((op) => a.record(newEntry({ opId: op, tier: 'read' }))));
    expect(s.calls).toEqual(['insertMany a,b,c']);
    expect((await store.audit.list({ limit: 10 })).map((r) => r.opId).sort()).toEqual(['a', 'b', 'c']);
  });

  it('a refusal inside a group: the others are written one by one, the refused one is only logged', async () => {
    const s = heldStore();
    const log = capturedLogger();
    const a = createAuditor({ store: s.audit, logger: log.logger, clock: createManualClock(T0) });
    const first = a.record(newEntry({ opId: 'a' }));
    await settle(); // a's write is under way (held)
    const done = [first, a.record(newEntry({ opId: 'b' })), a.record({ ...newEntry({ opId: 'bad' }), tier: 'admin' as never }), a.record(newEntry({ opId: 'c' }))];
    await settle();
    s.release();
    await Promise.all(done);
    expect(s.calls).toEqual(['insert a', 'insertMany b,bad,c', 'insert b', 'insert bad', 'insert c']);
    expect((await store.audit.list({ limit: 10 })).map((r) => r.opId).sort()).toEqual(['a', 'b', 'c']);
    expect(log.lines.filter((l) => /refused the entry/.test(l.msg))).toHaveLength(1);
  });

  it('a group the store cannot take is kept whole, in order, and written when it answers', async () => {
    let down = true;
    const s = heldStore({
      insertMany: async (es) => {
        if (down) throw new StoreUnavailableError('locked', 'sqlite', 'the database is locked');
        return store.audit.insertMany(es);
      },
    });
    const log = capturedLogger();
    const sleeps: (() => void)[] = [];
    const a = createAuditor({ store: s.audit, logger: log.logger, clock: createManualClock(T0), storeRetry: { sleep: () => new Promise<void>((r) => sleeps.push(r)) } });
    const first = a.record(newEntry({ opId: 'a' }));
    await settle(); // a's write is under way (held)
    const done = [first, ...['b', 'c'].map((op) => a.record(newEntry({ opId: op })))];
    await settle();
    s.release();
    await Promise.all(done);
    expect(a.pendingWrites()).toBe(2);
    expect((await store.audit.list({ limit: 10 })).map((r) => r.opId)).toEqual(['a']);
    down = false;
    sleeps.shift()!();
    await a.flush();
    expect(a.pendingWrites()).toBe(0);
    const rows = await store.audit.list({ limit: 10 });
    expect(rows.map((r) => r.opId).sort()).toEqual(['a', 'b', 'c']);
    // Kept in order: b was written before c.
    expect(rows.find((r) => r.opId === 'b')!.id).toBeLessThan(rows.find((r) => r.opId === 'c')!.id);
  });
});
