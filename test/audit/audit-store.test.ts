/** Migration 4 and the audit store, on a real SQLite file. */
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_OUTCOMES, AUDIT_TIERS, MIGRATIONS, migrate, schemaVersion } from '../../src/store/index.js';
import type { AuditEntry } from '../../src/domain/audit-entry.js';
import { BACKENDS, fixedClock, tempStores } from '../store/helpers.js';
import { newEntry, T0 } from './helpers.js';

let t: ReturnType<typeof tempStores>;
beforeEach(() => {
  t = tempStores();
});
afterEach(async () => {
  await t.cleanup();
});

describe('migration 4 (audit)', () => {
  it('is the fourth migration, named audit', () => {
    expect(MIGRATIONS[3]).toMatchObject({ version: 4, name: 'audit' });
  });

  it('applies on top of a database at version 3, keeping what is there', () => {
    const db = new Database(t.file());
    try {
      expect(migrate(db, MIGRATIONS.slice(0, 3))).toEqual([1, 2, 3]);
      db.prepare(
        `INSERT INTO operations (id, op_id, args, status, requested_by, channel_id, created_at, updated_at, expires_at)
         VALUES ('op_1', 'x.y', '{}', 'pending', 'U', 'C', 1, 1, 2)`,
      ).run();

      expect(migrate(db, MIGRATIONS.slice(0, 4))).toEqual([4]);
      expect(schemaVersion(db)).toBe(4);
      expect(db.prepare('SELECT COUNT(*) FROM operations').pluck().get()).toBe(1);

      const sql = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'audit'").pluck().get() as string;
      expect(sql).toMatch(/\)\s*STRICT$/);
      expect(sql).toMatch(/AUTOINCREMENT/);
      const columns = db.prepare("SELECT name FROM pragma_table_info('audit') ORDER BY cid").pluck().all();
      expect(columns).toEqual([
        'id', 'at', 'user_id', 'channel_id', 'op_id', 'tier', 'args', 'outcome',
        'error_code', 'confirmed_by', 'approved_by', 'operation_id', 'duration_ms', 'detail',
      ]);
      const indexCols = (name: string) => db.prepare(`SELECT name FROM pragma_index_info('${name}') ORDER BY seqno`).pluck().all();
      expect(indexCols('audit_at')).toEqual(['at']);
      expect(indexCols('audit_user_at')).toEqual(['user_id', 'at']);
      // Re-running is a no-op.
      expect(migrate(db, MIGRATIONS.slice(0, 4))).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('the table itself refuses an unknown tier or outcome, non-object args, and a negative duration', () => {
    const db = new Database(t.file());
    try {
      migrate(db);
      const insert = (over: Record<string, unknown>) =>
        db
          .prepare(
            `INSERT INTO audit (at, user_id, op_id, tier, args, outcome, duration_ms)
             VALUES (@at, 'U', 'x.y', @tier, @args, @outcome, @duration_ms)`,
          )
          .run({ at: 1, tier: 'read', args: '{}', outcome: 'succeeded', duration_ms: null, ...over });
      expect(() => insert({})).not.toThrow();
      for (const tier of AUDIT_TIERS) expect(() => insert({ tier })).not.toThrow();
      for (const outcome of AUDIT_OUTCOMES) expect(() => insert({ outcome })).not.toThrow();
      expect(() => insert({ tier: 'admin' })).toThrow(/CHECK constraint/);
      expect(() => insert({ outcome: 'ok' })).toThrow(/CHECK constraint/);
      expect(() => insert({ args: '[1]' })).toThrow(/CHECK constraint/);
      expect(() => insert({ args: 'not json' })).toThrow(/CHECK constraint/);
      expect(() => insert({ duration_ms: -1 })).toThrow(/CHECK constraint/);
      expect(() => insert({ at: 'yesterday' })).toThrow(/cannot store TEXT value in INTEGER column/);
    } finally {
      db.close();
    }
  });
});

describe.each(BACKENDS)('audit store (%s)', (backend) => {
  let t: ReturnType<typeof tempStores>;
  beforeEach(() => {
    t = tempStores(backend);
  });
  afterEach(async () => {
    await t.cleanup();
  });

  describe('audit store', () => {
    it('round-trips every field, JSON args included, across a reopen', async () => {
      const path = t.file();
      const store = t.open(path);
      const args = { server: 'srv-1', count: 3, ratio: 0.5, on: true, none: null, tags: ['a', 'ü'], nested: { deep: { x: [1, { y: '<&>' }] } } };
      const full = await store.audit.insert({
        ...newEntry({ args }),
        at: T0 + 7,
        errorCode: 'SERVER_BUSY',
        confirmedBy: 'U_BOB',
        approvedBy: 'U_CAROL',
        operationId: 'op_ABCDEFGHIJKLMNOP',
        durationMs: 1234,
        detail: 'needs role operator',
        account: 'acme-staging',
      });
      const expected: AuditEntry = {
        id: full.id,
        at: T0 + 7,
        userId: 'U_ALICE',
        channelId: 'C_OPS',
        opId: 'server.reinstall',
        tier: 'destroy',
        args,
        outcome: 'succeeded',
        errorCode: 'SERVER_BUSY',
        confirmedBy: 'U_BOB',
        approvedBy: 'U_CAROL',
        operationId: 'op_ABCDEFGHIJKLMNOP',
        durationMs: 1234,
        detail: 'needs role operator',
        account: 'acme-staging',
      };
      expect(full).toEqual(expected);
      expect(Number.isSafeInteger(full.id) && full.id > 0).toBe(true);

      const bare = await store.audit.insert({ ...newEntry({ tier: 'read', opId: 'server.status', args: {} }), at: T0 + 8 });
      expect(bare).toEqual({
        id: bare.id,
        at: T0 + 8,
        userId: 'U_ALICE',
        channelId: 'C_OPS',
        opId: 'server.status',
        tier: 'read',
        args: {},
        outcome: 'succeeded',
        errorCode: null,
        confirmedBy: null,
        approvedBy: null,
        operationId: null,
        durationMs: null,
        detail: null,
        account: null,
      });
      expect(bare.id).toBeGreaterThan(full.id);
      await store.close();

      const again = t.open(path);
      expect(await again.audit.list({ limit: 10 })).toEqual([bare, expected]);
    });

    it('keeps a null channel, and rounds a fractional duration (an integer column)', async () => {
      const store = t.open(t.file());
      const e = await store.audit.insert({ ...newEntry({ channelId: null, durationMs: 12.6 }), at: T0 });
      expect(e.channelId).toBeNull();
      expect(e.durationMs).toBe(13);
    });

    it('rejects what the table would not hold, with a clear error', async () => {
      const store = t.open(t.file());
      const base = { ...newEntry(), at: T0 };
      await expect(store.audit.insert({ ...base, tier: 'admin' as never })).rejects.toThrow(/check constraint/i);
      await expect(store.audit.insert({ ...base, outcome: 'ok' as never })).rejects.toThrow(/check constraint/i);
      await expect(store.audit.insert({ ...base, args: ['x'] as never })).rejects.toThrow(/args must be a plain object/);
      await expect(store.audit.insert({ ...base, userId: '' })).rejects.toThrow(/userId must be a non-empty string/);
      await expect(store.audit.insert({ ...base, at: 1.5 })).rejects.toThrow(/at must be an integer/);
      await expect(store.audit.insert({ ...base, durationMs: -3 })).rejects.toThrow(/durationMs/);
      await expect(store.audit.insert({ ...base, account: '' })).rejects.toThrow(/account must be a non-empty string/);
      expect(await store.audit.list({ limit: 10 })).toEqual([]);
    });

    it('writes a group at once, in the order given, all or none', async () => {
      const store = t.open(t.file());
      const group = [0, 1, 2, 3, 4].map((i) => ({ ...newEntry({ opId: `op.${i}`, args: { i } }), at: T0 + 100 - i }));
      const stored = await store.audit.insertMany(group);
      expect(stored.map((e) => e.opId)).toEqual(['op.0', 'op.1', 'op.2', 'op.3', 'op.4']);
      expect(stored.map((e) => e.args)).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
      const ids = stored.map((e) => e.id);
      expect([...ids].sort((a, b) => a - b)).toEqual(ids);
      expect(await store.audit.list({ limit: 10 })).toEqual(stored);
      // One entry the table refuses: none of the group is written.
      const bad = [{ ...newEntry({ opId: 'ok.1' }), at: T0 }, { ...newEntry({ opId: 'bad' }), tier: 'admin' as never, at: T0 }, { ...newEntry({ opId: 'ok.2' }), at: T0 }];
      await expect(store.audit.insertMany(bad)).rejects.toThrow(/check constraint/i);
      expect(await store.audit.list({ limit: 10 })).toHaveLength(5);
      expect(await store.audit.insertMany([])).toEqual([]);
    });

    it('uses the clock when `at` is left out', async () => {
      const clock = fixedClock(T0 + 99);
      const store = t.open(t.file(), clock);
      const e = await store.audit.insert({ ...newEntry() } as never);
      expect(e.at).toBe(T0 + 99);
    });

    it('lists newest first (ties by insertion), filtered by user', async () => {
      const store = t.open(t.file());
      const put = (at: number, userId: string, opId = 'server.status') =>
        store.audit.insert({ ...newEntry({ userId, opId, tier: 'read' }), at });
      const a = await put(T0 + 10, 'U_A', 'a.one');
      const b = await put(T0 + 30, 'U_B', 'b.one');
      const c = await put(T0 + 20, 'U_A', 'a.two');
      const d = await put(T0 + 30, 'U_A', 'a.three'); // same moment as b, inserted later

      expect((await store.audit.list({ limit: 10 })).map((e) => e.id)).toEqual([d.id, b.id, c.id, a.id]);
      expect((await store.audit.list({ userId: 'U_A', limit: 10 })).map((e) => e.opId)).toEqual(['a.three', 'a.two', 'a.one']);
      expect((await store.audit.list({ userId: 'U_A', limit: 2 })).map((e) => e.opId)).toEqual(['a.three', 'a.two']);
      expect(await store.audit.list({ userId: 'U_NOBODY', limit: 10 })).toEqual([]);
    });

    it('clamps the limit to 1..500', async () => {
      const store = t.open(t.file());
      await Promise.all(Array.from({ length: 510 }, (_, i) => store.audit.insert({ ...newEntry({ tier: 'read' }), at: T0 + i })));
      const count = async (limit: number) => (await store.audit.list({ limit })).length;
      expect(await count(0)).toBe(1);
      expect(await count(-5)).toBe(1);
      expect(await count(Number.NaN)).toBe(1);
      expect(await count(2.9)).toBe(2);
      expect(await count(500)).toBe(500);
      expect(await count(501)).toBe(500);
      expect(await count(Number.POSITIVE_INFINITY)).toBe(500);
      const newest = await store.audit.list({ limit: 1 });
      expect(newest[0]!.at).toBe(T0 + 509);
    });
  });
});
