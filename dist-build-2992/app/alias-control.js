import { checkAliasCommand, checkAliasName } from '../operations/alias-grammar.js';
import { ALIASES_PER_CHANNEL } from '../store/alias-types.js';
export function createAliasControl(deps) {
    return {
        async create({ channelId, teamId, userId, name, command }) {
            const badName = checkAliasName(name, deps.catalog);
            if (badName)
                return { kind: 'invalid', problem: badName };
            const checked = checkAliasCommand(command, deps.catalog);
            if (!checked.ok)
                return { kind: 'invalid', problem: checked.problem };
            const existing = await deps.store.get(channelId, name);
            if (existing)
                return { kind: 'taken', existing };
            // Checked before adding, so two at once may reach 51: a bound on clutter, not a quota.
            if ((await deps.store.list(channelId)).length >= ALIASES_PER_CHANNEL)
                return { kind: 'full', max: ALIASES_PER_CHANNEL };
            const { record, created } = await deps.store.add({ channelId, name, command, createdBy: userId, teamId: teamId ?? null, createdAt: deps.clock.now() });
            return created ? { kind: 'created', record, op: checked.op } : { kind: 'taken', existing: record };
        },
        get: (channelId, name) => deps.store.get(channelId, name),
        list: (channelId) => deps.store.list(channelId),
        async remove(name, channelId, userId) {
            const record = await deps.store.get(channelId, name);
            if (!record)
                return { kind: 'none', name };
            if (record.createdBy !== userId && (await deps.access.roleOf(userId, channelId)) !== 'admin')
                return { kind: 'not-yours', record };
            const removed = await deps.store.remove(channelId, name);
            return removed ? { kind: 'removed', record: removed } : { kind: 'none', name };
        },
    };
}
/** The aliases whose command the asker may run here (help lists only those). */
export function runnableAliases(aliases, catalog, allowedIds) {
    return aliases.filter((a) => {
        const checked = checkAliasCommand(a.command, catalog);
        return checked.ok && allowedIds.has(checked.op.id);
    });
}
//# sourceMappingURL=alias-control.js.map