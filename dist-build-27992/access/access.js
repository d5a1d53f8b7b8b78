import { approvalRule, decide } from './decide.js';
import { channelRule, rolesConfigured } from './policy.js';
import { ROLES } from './roles.js';
import { explainPolicy } from './explain.js';
const LIST_NAMES = { admin: 'admins', operator: 'operators', viewer: 'viewers' };
const ENV_NAMES = { admin: 'CLOUD_ADMINS', operator: 'CLOUD_OPERATORS', viewer: 'CLOUD_VIEWERS' };
export function createAccess(deps) {
    const cacheMs = deps.cacheMs ?? 60_000;
    const cache = new Map();
    function members(groupId) {
        const now = deps.clock.now();
        const hit = cache.get(groupId);
        if (hit && now - hit.at < cacheMs)
            return hit.members;
        const members = deps.groupMembers(groupId).then((ids) => new Set(ids), (error) => {
            deps.logger.warn('could not read a user group; it grants nothing until it can be read', { group: groupId, error });
            cache.delete(groupId);
            return new Set();
        });
        cache.set(groupId, { at: now, members });
        return members;
    }
    async function listed(userId, list) {
        if (list.includes(userId))
            return true;
        for (const id of list)
            if (id.startsWith('S') && (await members(id)).has(userId))
                return true;
        return false;
    }
    async function highestIn(userId, lists) {
        for (const role of [...ROLES].reverse())
            if (await listed(userId, lists[role]))
                return role;
        return undefined;
    }
    async function findRole(userId, channelId) {
        const policy = deps.policy();
        const ch = channelRule(policy, channelId);
        const own = ch !== 'deny' ? await highestIn(userId, ch.roles) : undefined;
        const global = await highestIn(userId, policy.roles);
        // The higher of the two; a tie is credited to the environment.
        if (global && (!own || ROLES.indexOf(global) >= ROLES.indexOf(own)))
            return { role: global, source: policy.rolesFrom ?? ENV_NAMES[global] };
        if (own && ch !== 'deny')
            return { role: own, source: `${ch.key}.${LIST_NAMES[own]}` };
        // On no list: a viewer, unless CLOUD_VIEWERS names the viewers.
        return policy.viewersListed ? { role: undefined, source: 'CLOUD_VIEWERS' } : { role: 'viewer', source: 'default (CLOUD_VIEWERS unset)' };
    }
    async function check(userId, channelId, op, account) {
        const { role, source } = await findRole(userId, channelId);
        return decide(deps.policy(), { role, roleSource: source, channelId, tier: op.tier, ...(op.scope ? { scope: op.scope } : {}), account });
    }
    return {
        findRole,
        roleOf: async (userId, channelId) => (await findRole(userId, channelId)).role,
        check,
        // The strongest role: only the channel's and the account's rules can refuse.
        channelAllows: (channelId, op, account) => decide(deps.policy(), { role: 'admin', roleSource: 'channel', channelId, tier: op.tier, scope: op.scope ?? 'cloud', account }),
        async allowed(userId, channelId, ops) {
            const { role, source } = await findRole(userId, channelId);
            const policy = deps.policy();
            return ops.filter((op) => decide(policy, { role, roleSource: source, channelId, tier: op.tier, scope: op.scope ?? 'cloud' }).ok);
        },
        approvalFor: (op, channelId, account) => ((op.scope ?? 'cloud') === 'cloud' ? approvalRule(deps.policy(), channelId, account, op.tier) : undefined),
        explain: (channelId, userId) => explainPolicy(deps.policy(), channelId, userId ? { userId, role: findRole(userId, channelId) } : undefined),
        accountLabel: (account) => {
            const policy = deps.policy();
            return policy.namedAccounts ? (account ?? policy.defaultAccount) : undefined;
        },
        policy: () => deps.policy(),
        get unconfigured() {
            return !rolesConfigured(deps.policy());
        },
    };
}
//# sourceMappingURL=access.js.map