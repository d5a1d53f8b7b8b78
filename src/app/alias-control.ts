/**
 * The channel's aliases as the `alias` commands and the slash command use them: names and
 * commands checked against the catalog before saving, deletion by the creator or an admin.
 *
 * Aliases are per channel, not per workspace: roles and accounts are set per channel (a policy
 * may make someone an operator in #dev and a viewer in #prod), so a word typed in a channel
 * should mean what someone with a role in that channel made it mean. A workspace-wide fallback
 * would let an operator of one channel define the words of every other.
 */
import type { Access } from '../access/access.js';
import type { Clock } from '../clock.js';
import { checkAliasCommand, checkAliasName } from '../operations/alias-grammar.js';
import type { Catalog } from '../operations/catalog.js';
import type { AliasControl } from '../operations/types.js';
import { ALIASES_PER_CHANNEL, type AliasRecord, type AliasStore } from '../store/alias-types.js';

export interface AliasControlDeps {
  store: AliasStore;
  catalog: Catalog;
  access: Pick<Access, 'roleOf'>;
  clock: Pick<Clock, 'now'>;
}

export function createAliasControl(deps: AliasControlDeps): AliasControl {
  return {
    async create({ channelId, teamId, userId, name, command }) {
      const badName = checkAliasName(name, deps.catalog);
      if (badName) return { kind: 'invalid', problem: badName };
      const checked = checkAliasCommand(command, deps.catalog);
      if (!checked.ok) return { kind: 'invalid', problem: checked.problem };
      const existing = await deps.store.get(channelId, name);
      if (existing) return { kind: 'taken', existing };
      // Checked before adding, so two at once may reach 51: a bound on clutter, not a quota.
      if ((await deps.store.list(channelId)).length >= ALIASES_PER_CHANNEL) return { kind: 'full', max: ALIASES_PER_CHANNEL };
      const { record, created } = await deps.store.add({ channelId, name, command, createdBy: userId, teamId: teamId ?? null, createdAt: deps.clock.now() });
      return created ? { kind: 'created', record, op: checked.op } : { kind: 'taken', existing: record };
    },
    get: (channelId, name) => deps.store.get(channelId, name),
    list: (channelId) => deps.store.list(channelId),
    async remove(name, channelId, userId) {
      const record = await deps.store.get(channelId, name);
      if (!record) return { kind: 'none', name };
      if (record.createdBy !== userId && (await deps.access.roleOf(userId, channelId)) !== 'admin') return { kind: 'not-yours', record };
      const removed = await deps.store.remove(channelId, name);
      return removed ? { kind: 'removed', record: removed } : { kind: 'none', name };
    },
  };
}

/** The aliases whose command the asker may run here (help lists only those). */
export function runnableAliases(aliases: readonly AliasRecord[], catalog: Catalog, allowedIds: ReadonlySet<string>): AliasRecord[] {
  return aliases.filter((a) => {
    const checked = checkAliasCommand(a.command, catalog);
    return checked.ok && allowedIds.has(checked.op.id);
  });
}
