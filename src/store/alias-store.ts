/**
 * Aliases (migration 9), one implementation for both databases. The primary key (channel, name)
 * makes `add` one insert with one winner: a second person saving the same name at the same
 * moment gets the first's (INSERT … ON CONFLICT DO NOTHING, then read the winner).
 */
import { bound, type Sql } from './dialect.js';
import { aliasInsertParams, assertAliasName, toAlias, type AliasRow, type AliasStore } from './alias-types.js';
import { assertText } from './operation-rows.js';

export function createAliasStore(sql: Sql): AliasStore {
  const insert = sql.prepare((k, p) =>
    k
      .insertInto('aliases')
      .values(bound(p, ['channel_id', 'name', 'command', 'created_by', 'team_id', 'created_at']))
      .onConflict((oc) => oc.columns(['channel_id', 'name']).doNothing())
      .returningAll(),
  );
  const one = sql.prepare((k, p) => k.selectFrom('aliases').selectAll().where('channel_id', '=', p('c')).where('name', '=', p('n')));
  // Byte order on both (SQLite's default collation; "C" on PostgreSQL).
  const ofChannel = sql.prepare((k, p, f) =>
    k.selectFrom('aliases').selectAll().where('channel_id', '=', p('c')).orderBy(f.binary('name')),
  );
  const removeOne = sql.prepare((k, p) => k.deleteFrom('aliases').where('channel_id', '=', p('c')).where('name', '=', p('n')).returningAll());

  return {
    async add(input) {
      const params = aliasInsertParams(input);
      return sql.exclusive(async (q) => {
        const row = await q.one<AliasRow>(insert, params);
        if (row) return { record: toAlias(row), created: true };
        const existing = await q.one<AliasRow>(one, { c: params.channel_id, n: params.name });
        // Deleted between the two statements (PostgreSQL): rare enough to report rather than loop.
        if (!existing) throw new Error('alias insert returned no row and no existing alias');
        return { record: toAlias(existing), created: false };
      });
    },
    async get(channelId, name) {
      assertText(channelId, 'channelId');
      const row = await sql.one(one, { c: channelId, n: name.toLowerCase() });
      return row ? toAlias(row) : undefined;
    },
    async list(channelId) {
      assertText(channelId, 'channelId');
      return (await sql.all(ofChannel, { c: channelId })).map(toAlias);
    },
    async remove(channelId, name) {
      assertText(channelId, 'channelId');
      assertAliasName(name);
      const row = await sql.one(removeOne, { c: channelId, n: name });
      return row ? toAlias(row) : undefined;
    },
  };
}
