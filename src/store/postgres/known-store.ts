/** Known resources in PostgreSQL: the same upserts as the SQLite store (known-store.ts). */
import { accountKey, assertKind, clampKnownLimit, cleanEntries, toKnown, type KnownNameRow, type KnownRow } from '../known-rows.js';
import type { KnownResource, KnownResourceStore } from '../known-types.js';
import { assertText } from '../operation-rows.js';
import { run, type Queryable } from './sql.js';

type Db = () => Promise<Queryable>;

export function createPgKnownStore(db: Db): KnownResourceStore {
  const withNames = async (account: string, kind: string, rows: KnownRow[]): Promise<KnownResource[]> => {
    if (rows.length === 0) return [];
    const nameRows = await run<KnownNameRow>(
      await db(),
      `SELECT id, field, name, via, last_seen FROM known_names
        WHERE account = @a AND kind = @k AND id IN (SELECT jsonb_array_elements_text(@ids::jsonb))`,
      { a: account, k: kind, ids: JSON.stringify(rows.map((r) => r.id)) },
    );
    return rows.map((r) => toKnown(r, nameRows));
  };
  return {
    async remember(account, entries, now) {
      const { resources, names } = cleanEntries(entries, now);
      if (resources.length === 0) return;
      // One statement for the lot (sorted, so two replicas upserting the same rows lock in one order).
      const order = (a: { kind: string; id: string }, b: { kind: string; id: string }) => (a.kind + a.id < b.kind + b.id ? -1 : 1);
      resources.sort(order);
      names.sort((a, b) => order(a, b) || (a.field < b.field ? -1 : 1));
      await run(
        await db(),
        `WITH resources AS (
           INSERT INTO known_resources AS k (account, kind, id, uuid, first_seen, last_seen)
           SELECT @account::text, e.kind, e.id, e.uuid, @now::bigint, @now::bigint
             FROM jsonb_to_recordset(@resources::jsonb) AS e(kind text, id text, uuid text)
           ON CONFLICT (account, kind, id) DO UPDATE SET
             uuid = COALESCE(excluded.uuid, k.uuid),
             last_seen = GREATEST(k.last_seen, excluded.last_seen)
           RETURNING 1)
         INSERT INTO known_names AS n (account, kind, id, field, name, via, last_seen)
         SELECT @account::text, e.kind, e.id, e.field, e.name, e.via, @now::bigint
           FROM jsonb_to_recordset(@names::jsonb) AS e(kind text, id text, field text, name text, via text)
         ON CONFLICT (account, kind, id, field) DO UPDATE SET
           name = excluded.name,
           via = COALESCE(excluded.via, n.via),
           last_seen = GREATEST(n.last_seen, excluded.last_seen)`,
        { account: accountKey(account), now, resources: JSON.stringify(resources), names: JSON.stringify(names) },
      );
    },
    async find(account, kind, name) {
      assertKind(kind);
      assertText(name, 'name');
      const rows = await run<KnownRow>(
        await db(),
        `SELECT * FROM known_resources r WHERE account = @a AND kind = @k AND id IN (
           SELECT id FROM known_names n WHERE n.account = r.account AND n.kind = r.kind AND lower(n.name) = lower(@n::text))
          ORDER BY last_seen DESC, id`,
        { a: accountKey(account), k: kind, n: name.trim() },
      );
      return withNames(accountKey(account), kind, rows);
    },
    async list(account, kind, limit) {
      assertKind(kind);
      const rows = await run<KnownRow>(
        await db(),
        'SELECT * FROM known_resources WHERE account = @a AND kind = @k ORDER BY last_seen DESC, id LIMIT @n::int',
        { a: accountKey(account), k: kind, n: clampKnownLimit(limit) },
      );
      return withNames(accountKey(account), kind, rows);
    },
    async names(account, kind) {
      assertKind(kind);
      const rows = await run<{ name: string }>(
        await db(),
        `SELECT name FROM known_names WHERE account = @a AND kind = @k
          ORDER BY last_seen DESC, id, field LIMIT 500`,
        { a: accountKey(account), k: kind },
      );
      return [...new Set(rows.map((r) => r.name))];
    },
  };
}
