/** Known resources in PostgreSQL: the same upserts as the SQLite store (known-store.ts). */
import { accountKey, assertKind, clampKnownLimit, cleanEntries, toKnown, type KnownRow } from '../known-rows.js';
import type { KnownResourceStore } from '../known-types.js';
import { assertText } from '../operation-rows.js';
import { run, type Queryable } from './sql.js';

type Db = () => Promise<Queryable>;

export function createPgKnownStore(db: Db): KnownResourceStore {
  return {
    async remember(account, entries, now) {
      const clean = cleanEntries(entries, now);
      if (clean.length === 0) return;
      // One statement for the lot (sorted, so two replicas upserting the same rows lock in one order).
      clean.sort((a, b) => (a.kind + a.id < b.kind + b.id ? -1 : 1));
      await run(
        await db(),
        `INSERT INTO known_resources AS k (account, kind, id, uuid, name, first_seen, last_seen)
         SELECT @account::text, e.kind, e.id, e.uuid, e.name, @now::bigint, @now::bigint
           FROM jsonb_to_recordset(@entries::jsonb) AS e(kind text, id text, uuid text, name text)
         ON CONFLICT (account, kind, id) DO UPDATE SET
           uuid = COALESCE(excluded.uuid, k.uuid),
           name = COALESCE(excluded.name, k.name),
           last_seen = GREATEST(k.last_seen, excluded.last_seen)`,
        { account: accountKey(account), now, entries: JSON.stringify(clean) },
      );
    },
    async find(account, kind, name) {
      assertKind(kind);
      assertText(name, 'name');
      const rows = await run<KnownRow>(
        await db(),
        `SELECT * FROM known_resources WHERE account = @a AND kind = @k AND lower(name) = lower(@n::text)
          ORDER BY last_seen DESC, id`,
        { a: accountKey(account), k: kind, n: name.trim() },
      );
      return rows.map(toKnown);
    },
    async list(account, kind, limit) {
      assertKind(kind);
      const rows = await run<KnownRow>(
        await db(),
        'SELECT * FROM known_resources WHERE account = @a AND kind = @k ORDER BY last_seen DESC, id LIMIT @n::int',
        { a: accountKey(account), k: kind, n: clampKnownLimit(limit) },
      );
      return rows.map(toKnown);
    },
    async names(account, kind) {
      assertKind(kind);
      const rows = await run<{ name: string }>(
        await db(),
        `SELECT name FROM known_resources WHERE account = @a AND kind = @k AND name IS NOT NULL
          ORDER BY last_seen DESC, id LIMIT 500`,
        { a: accountKey(account), k: kind },
      );
      return [...new Set(rows.map((r) => r.name))];
    },
  };
}
