/**
 * Channel aliases (issue 14, migration 9): `/cloud alias web = server status $1` saves a command
 * under a word, for one channel. The store keeps the text as typed; what it may be (a name that
 * shadows no resource, a command of the catalog) is checked before it gets here.
 */
/** Most aliases one channel may hold (help and the list stay readable, within Block Kit limits). */
export const ALIASES_PER_CHANNEL = 50;
/** Longest command an alias may save (a slash command's text is at most 4000 characters). */
export const ALIAS_COMMAND_MAX = 1000;
export function toAlias(r) {
    return {
        channelId: r.channel_id,
        name: r.name,
        command: r.command,
        createdBy: r.created_by,
        teamId: r.team_id,
        // PostgreSQL returns bigint as a string.
        createdAt: Number(r.created_at),
    };
}
const NAME = /^[a-z][a-z0-9-]{0,29}$/;
export function assertAliasName(name) {
    if (typeof name !== 'string' || !NAME.test(name))
        throw new TypeError(`alias name must be a lower-case word, got ${JSON.stringify(name)}`);
}
export function aliasInsertParams(input) {
    assertAliasName(input.name);
    for (const [k, v] of [['channelId', input.channelId], ['command', input.command], ['createdBy', input.createdBy]]) {
        if (typeof v !== 'string' || v === '')
            throw new TypeError(`${k} must be a non-empty string`);
    }
    if (input.command.length > ALIAS_COMMAND_MAX)
        throw new TypeError(`command is longer than ${ALIAS_COMMAND_MAX} characters`);
    if (!Number.isSafeInteger(input.createdAt))
        throw new TypeError('createdAt must be an integer');
    return {
        channel_id: input.channelId,
        name: input.name,
        command: input.command,
        created_by: input.createdBy,
        team_id: input.teamId ?? null,
        created_at: input.createdAt,
    };
}
//# sourceMappingURL=alias-types.js.map