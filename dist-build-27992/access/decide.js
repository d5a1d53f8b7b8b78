import { channelRule } from './policy.js';
import { covers, roleNeeded } from './roles.js';
/** `source` of a rule the program sets itself (the local shell's admin): its key is words, not a setting. */
export const BUILT_IN = 'built-in';
/** Where a role's list lives: a dotted key in the policy file, the program itself, else the environment. */
export function roleRule(policy, roleSource) {
    if (policy.rolesFrom !== undefined && roleSource === policy.rolesFrom)
        return { key: roleSource, source: BUILT_IN };
    return { key: roleSource, source: roleSource.includes('.') ? policy.source : 'environment' };
}
export function decide(policy, input) {
    const scope = input.scope ?? 'cloud';
    const env = (key) => ({ key, source: 'environment' });
    const file = (key) => ({ key, source: policy.source });
    const ch = channelRule(policy, input.channelId);
    // CLOUD_CHANNELS is where the bot takes commands at all; default_channel: deny is policy,
    // which `/cloud policy` (scope everywhere) may still explain.
    const list = policy.allowlist;
    if (list?.length && (!input.channelId || !list.includes(input.channelId)))
        return { ok: false, reason: 'channel', channels: list, rule: env('CLOUD_CHANNELS') };
    if (ch === 'deny' && scope !== 'everywhere')
        return { ok: false, reason: 'unlisted', rule: file('default_channel') };
    const rule = ch === 'deny' ? undefined : ch;
    const account = input.account ?? rule?.account ?? policy.defaultAccount;
    // The bot's own operations are tied to an account too (a subscription polls it), so the
    // accounts a channel may use bind them; ceilings bind only what acts on the cloud.
    if (scope !== 'everywhere') {
        const allowed = rule?.accounts ?? [policy.defaultAccount];
        if (!allowed.includes(account) || !policy.accounts[account]) {
            return { ok: false, reason: 'account', account, allowed, rule: file(rule ? `${rule.key}.accounts` : 'accounts') };
        }
    }
    if (scope === 'cloud') {
        if (rule?.ceiling && !rule.ceiling.includes(input.tier))
            return { ok: false, reason: 'ceiling', ceiling: rule.ceiling, rule: file(`${rule.key}.ceiling`) };
        const acc = policy.accounts[account];
        if (acc.ceiling && !acc.ceiling.includes(input.tier)) {
            return { ok: false, reason: 'account-ceiling', account, ceiling: acc.ceiling, rule: file(`accounts.${account}.ceiling`) };
        }
    }
    if (!covers(input.role, input.tier)) {
        return { ok: false, reason: 'role', role: input.role, needed: roleNeeded(input.tier), rule: roleRule(policy, input.roleSource) };
    }
    return { ok: true, role: input.role, account, approval: scope === 'cloud' ? approvalRule(policy, input.channelId, account, input.tier) : undefined };
}
/** The first rule asking for approval of this tier: the environment's, the channel's, the account's. */
export function approvalRule(policy, channelId, account, tier) {
    if (policy.approval.includes(tier))
        return { key: 'CLOUD_APPROVAL', source: 'environment' };
    const ch = channelRule(policy, channelId);
    if (ch !== 'deny' && ch.approval.includes(tier))
        return { key: `${ch.key}.approval`, source: policy.source };
    if (policy.accounts[account]?.approval.includes(tier))
        return { key: `accounts.${account}.approval`, source: policy.source };
    return undefined;
}
//# sourceMappingURL=decide.js.map