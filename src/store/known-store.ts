/**
 * Known resources (migrations 8 and 10), one implementation for both databases. `remember` is
 * one transaction of two multi-row upserts: first_seen stays, last_seen moves, a uuid not seen
 * this time keeps the one known, and the names an answer carries replace only the names of
 * their own fields (known-types.ts NAME_FIELDS; `ip` has several, the others one). Rows go in sorted, so two replicas upserting the same rows
 * lock them in one order.
 */
import { sql as raw } from 'kysely';
import type { Sql } from './dialect.js';
import { accountKey, assertKind, clampKnownLimit, cleanEntries, toKnown, type KnownNameRow, type KnownRow } from './known-rows.js';
import type { KnownEntry, KnownResource, KnownResourceStore } from './known-types.js';
import { assertText } from './operation-rows.js';

export function createKnownStore(sql: Sql): KnownResourceStore {
  const { f } = sql;
  const byName = sql.prepare((k, p) =>
    k
      .selectFrom('known_resources as r')
      .selectAll()
      .where('account', '=', p('a'))
      .where('kind', '=', p('k'))
      .where('id', 'in', (sub) =>
        sub
          .selectFrom('known_names as n')
          .select('n.id')
          .whereRef('n.account', '=', 'r.account')
          .whereRef('n.kind', '=', 'r.kind')
          .where(raw<boolean>`lower(n.name) = lower(${f.typed(p('n'), 'text')})`),
      )
      .orderBy('last_seen', 'desc')
      .orderBy('id'),
  );
  const recent = sql.prepare((k, p) =>
    k
      .selectFrom('known_resources')
      .selectAll()
      .where('account', '=', p('a'))
      .where('kind', '=', p('k'))
      .orderBy('last_seen', 'desc')
      .orderBy('id')
      .limit(f.typed<number>(p('n'), 'int')),
  );
  const namesOf = sql.prepare((k, p) =>
    k
      .selectFrom('known_names')
      .select(['id', 'field', 'name', 'via', 'last_seen'])
      .where('account', '=', p('a'))
      .where('kind', '=', p('k'))
      .where(f.inList('id', p('ids'))),
  );
  const names = sql.prepare((k, p) =>
    k
      .selectFrom('known_names')
      .select('name')
      .where('account', '=', p('a'))
      .where('kind', '=', p('k'))
      .where('field', '<>', 'ip') // suggestions are names a command takes; an address is not one
      .orderBy('last_seen', 'desc')
      .orderBy('id')
      .orderBy('field')
      .limit(500),
  );
  const withNames = async (account: string, kind: string, rows: KnownRow[]): Promise<KnownResource[]> => {
    if (rows.length === 0) return [];
    const nameRows = await sql.all<KnownNameRow>(namesOf, { a: account, k: kind, ids: f.list(rows.map((r) => r.id)) });
    return rows.map((r) => toKnown(r, nameRows));
  };

  return {
    async remember(account, entries: readonly KnownEntry[], now) {
      const { resources, names: nameList } = cleanEntries(entries, now);
      if (resources.length === 0) return;
      const a = accountKey(account);
      const order = (x: { kind: string; id: string }, y: { kind: string; id: string }) => (x.kind + x.id < y.kind + y.id ? -1 : 1);
      resources.sort(order);
      nameList.sort((x, y) => order(x, y) || (x.field < y.field ? -1 : x.field > y.field ? 1 : x.name < y.name ? -1 : 1));
      // Each (resource, field) the answer carries: its other names go (the answer replaces them).
      const carried = new Map<string, { kind: string; id: string; field: string; keep: string[] }>();
      for (const n of nameList) {
        const key = `${n.kind}|${n.id}|${n.field}`;
        const group = carried.get(key) ?? { kind: n.kind, id: n.id, field: n.field, keep: [] };
        group.keep.push(n.name);
        carried.set(key, group);
      }
      const upsertResources = sql.k
        .insertInto('known_resources')
        .values(resources.map((e) => ({ account: a, kind: e.kind, id: e.id, uuid: e.uuid, first_seen: now, last_seen: now })))
        .onConflict((oc) =>
          oc.columns(['account', 'kind', 'id']).doUpdateSet({
            uuid: raw`COALESCE(excluded.uuid, known_resources.uuid)`,
            last_seen: f.greatest(raw`known_resources.last_seen`, raw`excluded.last_seen`),
          }),
        );
      const upsertNames = sql.k
        .insertInto('known_names')
        .values(nameList.map((e) => ({ account: a, kind: e.kind, id: e.id, field: e.field, name: e.name, via: e.via, last_seen: now })))
        .onConflict((oc) =>
          oc.columns(['account', 'kind', 'id', 'field', 'name']).doUpdateSet({
            via: raw`COALESCE(excluded.via, known_names.via)`,
            last_seen: f.greatest(raw`known_names.last_seen`, raw`excluded.last_seen`),
          }),
        );
      const replaced = [...carried.values()].map((g) =>
        sql.k
          .deleteFrom('known_names')
          .where('account', '=', a)
          .where('kind', '=', g.kind)
          .where('id', '=', g.id)
          .where('field', '=', g.field)
          .where('name', 'not in', g.keep),
      );
      await sql.tx(async (q) => {
        await q.run(upsertResources);
        for (const d of replaced) await q.run(d);
        if (nameList.length > 0) await q.run(upsertNames);
      });
    },
    async find(account, kind, name) {
      assertKind(kind);
      assertText(name, 'name');
      const a = accountKey(account);
      return withNames(a, kind, await sql.all<KnownRow>(byName, { a, k: kind, n: name.trim() }));
    },
    async list(account, kind, limit) {
      assertKind(kind);
      const a = accountKey(account);
      return withNames(a, kind, await sql.all<KnownRow>(recent, { a, k: kind, n: clampKnownLimit(limit) }));
    },
    async names(account, kind) {
      assertKind(kind);
      const rows = await sql.all<{ name: string }>(names, { a: accountKey(account), k: kind });
      return [...new Set(rows.map((r) => r.name))];
    },
  };
}
