/**
 * Known resources in SQLite (migrations 8 and 10). `remember` is one IMMEDIATE transaction of
 * upserts: first_seen stays, last_seen moves, a uuid not seen this time keeps the one known, and
 * a name replaces only the name of its own field (known-types.ts NAME_FIELDS).
 */
import type { Database as Db } from 'better-sqlite3';
import { accountKey, assertKind, clampKnownLimit, cleanEntries, toKnown, type KnownNameRow, type KnownRow } from './known-rows.js';
import type { KnownEntry, KnownResource, KnownResourceStore } from './known-types.js';
import { assertText } from './operation-rows.js';

export function createKnownStore(db: Db): KnownResourceStore {
  const upsert = db.prepare<Record<string, unknown>>(`
    INSERT INTO known_resources (account, kind, id, uuid, first_seen, last_seen)
    VALUES (@account, @kind, @id, @uuid, @now, @now)
    ON CONFLICT (account, kind, id) DO UPDATE SET
      uuid = COALESCE(excluded.uuid, uuid),
      last_seen = MAX(last_seen, excluded.last_seen)`);
  const upsertName = db.prepare<Record<string, unknown>>(`
    INSERT INTO known_names (account, kind, id, field, name, via, last_seen)
    VALUES (@account, @kind, @id, @field, @name, @via, @now)
    ON CONFLICT (account, kind, id, field) DO UPDATE SET
      name = excluded.name,
      via = COALESCE(excluded.via, via),
      last_seen = MAX(last_seen, excluded.last_seen)`);
  const byName = db.prepare<[string, string, string], KnownRow>(`
    SELECT * FROM known_resources r WHERE account = ? AND kind = ? AND id IN (
      SELECT id FROM known_names n WHERE n.account = r.account AND n.kind = r.kind AND lower(n.name) = lower(?))
     ORDER BY last_seen DESC, id`);
  const recent = db.prepare<[string, string, number], KnownRow>(
    'SELECT * FROM known_resources WHERE account = ? AND kind = ? ORDER BY last_seen DESC, id LIMIT ?',
  );
  const namesOf = db.prepare<[string, string, string], KnownNameRow>(
    'SELECT id, field, name, via, last_seen FROM known_names WHERE account = ? AND kind = ? AND id IN (SELECT value FROM json_each(?))',
  );
  const names = db.prepare<[string, string], { name: string }>(`
    SELECT name FROM known_names WHERE account = ? AND kind = ? ORDER BY last_seen DESC, id, field LIMIT 500`);
  const rememberTx = db.transaction((account: string, clean: ReturnType<typeof cleanEntries>, now: number) => {
    for (const e of clean.resources) upsert.run({ account, ...e, now });
    for (const n of clean.names) upsertName.run({ account, ...n, now });
  });
  const withNames = (account: string, kind: string, rows: KnownRow[]): KnownResource[] => {
    if (rows.length === 0) return [];
    const nameRows = namesOf.all(account, kind, JSON.stringify(rows.map((r) => r.id)));
    return rows.map((r) => toKnown(r, nameRows));
  };

  return {
    async remember(account, entries: readonly KnownEntry[], now) {
      const clean = cleanEntries(entries, now);
      if (clean.resources.length > 0) rememberTx.immediate(accountKey(account), clean, now);
    },
    async find(account, kind, name) {
      assertKind(kind);
      assertText(name, 'name');
      return withNames(accountKey(account), kind, byName.all(accountKey(account), kind, name.trim()));
    },
    async list(account, kind, limit) {
      assertKind(kind);
      return withNames(accountKey(account), kind, recent.all(accountKey(account), kind, clampKnownLimit(limit)));
    },
    async names(account, kind) {
      assertKind(kind);
      return [...new Set(names.all(accountKey(account), kind).map((r) => r.name))];
    },
  };
}
