/**
 * Known resources in SQLite (migration 8). `remember` is one IMMEDIATE transaction of upserts:
 * first_seen stays, last_seen moves, a uuid or name not seen this time keeps the one known.
 */
import type { Database as Db } from 'better-sqlite3';
import { accountKey, assertKind, clampKnownLimit, cleanEntries, toKnown, type KnownRow } from './known-rows.js';
import type { KnownEntry, KnownResourceStore } from './known-types.js';
import { assertText } from './operation-rows.js';

export function createKnownStore(db: Db): KnownResourceStore {
  const upsert = db.prepare<Record<string, unknown>>(`
    INSERT INTO known_resources (account, kind, id, uuid, name, first_seen, last_seen)
    VALUES (@account, @kind, @id, @uuid, @name, @now, @now)
    ON CONFLICT (account, kind, id) DO UPDATE SET
      uuid = COALESCE(excluded.uuid, uuid),
      name = COALESCE(excluded.name, name),
      last_seen = MAX(last_seen, excluded.last_seen)`);
  const byName = db.prepare<[string, string, string], KnownRow>(`
    SELECT * FROM known_resources WHERE account = ? AND kind = ? AND lower(name) = lower(?)
     ORDER BY last_seen DESC, id`);
  const recent = db.prepare<[string, string, number], KnownRow>(
    'SELECT * FROM known_resources WHERE account = ? AND kind = ? ORDER BY last_seen DESC, id LIMIT ?',
  );
  const names = db.prepare<[string, string], { name: string }>(`
    SELECT name FROM known_resources WHERE account = ? AND kind = ? AND name IS NOT NULL
     ORDER BY last_seen DESC, id LIMIT 500`);
  const rememberTx = db.transaction((account: string, entries: ReturnType<typeof cleanEntries>, now: number) => {
    for (const e of entries) upsert.run({ account, ...e, now });
  });

  return {
    async remember(account, entries: readonly KnownEntry[], now) {
      const clean = cleanEntries(entries, now);
      if (clean.length > 0) rememberTx.immediate(accountKey(account), clean, now);
    },
    async find(account, kind, name) {
      assertKind(kind);
      assertText(name, 'name');
      return byName.all(accountKey(account), kind, name.trim()).map(toKnown);
    },
    async list(account, kind, limit) {
      assertKind(kind);
      return recent.all(accountKey(account), kind, clampKnownLimit(limit)).map(toKnown);
    },
    async names(account, kind) {
      assertKind(kind);
      return [...new Set(names.all(accountKey(account), kind).map((r) => r.name))];
    },
  };
}
