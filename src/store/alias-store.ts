/**
 * Aliases in SQLite (migration 9). The primary key (channel, name) makes `add` one statement
 * with one winner: a second person saving the same name at the same moment gets the first's.
 */
import type { Database as Db } from 'better-sqlite3';
import { aliasInsertParams, assertAliasName, toAlias, type AliasRow, type AliasStore } from './alias-types.js';
import { assertText } from './operation-rows.js';

export function createAliasStore(db: Db): AliasStore {
  const insert = db.prepare<Record<string, unknown>, AliasRow>(`
    INSERT INTO aliases (channel_id, name, command, created_by, team_id, created_at)
    VALUES (@channel_id, @name, @command, @created_by, @team_id, @created_at)
    ON CONFLICT (channel_id, name) DO NOTHING
    RETURNING *`);
  const one = db.prepare<[string, string], AliasRow>('SELECT * FROM aliases WHERE channel_id = ? AND name = ?');
  const ofChannel = db.prepare<[string], AliasRow>('SELECT * FROM aliases WHERE channel_id = ? ORDER BY name');
  const removeOne = db.prepare<[string, string], AliasRow>('DELETE FROM aliases WHERE channel_id = ? AND name = ? RETURNING *');
  const addTx = db.transaction((params: Record<string, unknown>) => {
    const row = insert.get(params);
    if (row) return { record: toAlias(row), created: true };
    const existing = one.get(params.channel_id as string, params.name as string);
    if (!existing) throw new Error('alias insert returned no row and no existing alias');
    return { record: toAlias(existing), created: false };
  });

  return {
    async add(input) {
      return addTx.immediate(aliasInsertParams(input));
    },
    async get(channelId, name) {
      assertText(channelId, 'channelId');
      const row = one.get(channelId, name.toLowerCase());
      return row ? toAlias(row) : undefined;
    },
    async list(channelId) {
      assertText(channelId, 'channelId');
      return ofChannel.all(channelId).map(toAlias);
    },
    async remove(channelId, name) {
      assertText(channelId, 'channelId');
      assertAliasName(name);
      const row = removeOne.get(channelId, name);
      return row ? toAlias(row) : undefined;
    },
  };
}
