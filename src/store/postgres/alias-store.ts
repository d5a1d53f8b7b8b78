/**
 * Aliases in PostgreSQL: the same statements as the SQLite store (alias-store.ts). INSERT … ON
 * CONFLICT DO NOTHING waits for a concurrent inserter of the same (channel, name), so one wins.
 */
import { aliasInsertParams, assertAliasName, toAlias, type AliasRow, type AliasStore } from '../alias-types.js';
import { assertText } from '../operation-rows.js';
import { run, type Queryable } from './sql.js';

type Db = () => Promise<Queryable>;

export function createPgAliasStore(db: Db): AliasStore {
  const get = async (channelId: string, name: string) => {
    const [row] = await run<AliasRow>(await db(), 'SELECT * FROM aliases WHERE channel_id = @channel_id AND name = @name', { channel_id: channelId, name });
    return row ? toAlias(row) : undefined;
  };
  return {
    async add(input) {
      const params = aliasInsertParams(input);
      const [row] = await run<AliasRow>(
        await db(),
        `INSERT INTO aliases (channel_id, name, command, created_by, team_id, created_at)
         VALUES (@channel_id, @name, @command, @created_by, @team_id, @created_at)
         ON CONFLICT (channel_id, name) DO NOTHING
         RETURNING *`,
        params,
      );
      if (row) return { record: toAlias(row), created: true };
      const existing = await get(input.channelId, input.name);
      // Deleted between the two statements: rare enough to report rather than loop.
      if (!existing) throw new Error('alias insert returned no row and no existing alias');
      return { record: existing, created: false };
    },
    async get(channelId, name) {
      assertText(channelId, 'channelId');
      return get(channelId, name.toLowerCase());
    },
    async list(channelId) {
      assertText(channelId, 'channelId');
      const rows = await run<AliasRow>(await db(), 'SELECT * FROM aliases WHERE channel_id = @channel_id ORDER BY name COLLATE "C"', { channel_id: channelId });
      return rows.map(toAlias);
    },
    async remove(channelId, name) {
      assertText(channelId, 'channelId');
      assertAliasName(name);
      const [row] = await run<AliasRow>(await db(), 'DELETE FROM aliases WHERE channel_id = @channel_id AND name = @name RETURNING *', { channel_id: channelId, name });
      return row ? toAlias(row) : undefined;
    },
  };
}
