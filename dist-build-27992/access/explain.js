import { approvalRule, BUILT_IN, decide, roleRule } from './decide.js';
import { channelRule } from './policy.js';
import { TIERS } from './policy-file.js';
import { ROLES } from './roles.js';
export async function explainPolicy(policy, channelId, person) {
    const env = (key) => ({ key, source: 'environment' });
    const file = (key) => ({ key, source: policy.source });
    const grantsOf = (lists, key) => ROLES.filter((r) => lists[r].length).map((r) => ({ role: r, principals: lists[r], rule: key(r) }));
    const ch = channelRule(policy, channelId);
    const listed = !!channelId && !!policy.channels[channelId];
    const allow = policy.allowlist;
    const channel = allow?.length && (!channelId || !allow.includes(channelId))
        ? { kind: 'not-allowed', channels: allow, rule: env('CLOUD_CHANNELS') }
        : ch === 'deny'
            ? { kind: 'deny', rule: file('default_channel') }
            : {
                kind: 'rule',
                rule: file(ch.key),
                listed,
                label: ch.label,
                account: ch.account,
                accounts: ch.accounts,
                ceiling: ch.ceiling,
                approval: TIERS.flatMap((tier) => {
                    const rule = approvalRule(policy, channelId, ch.account, tier);
                    return rule ? [{ tier, rule }] : [];
                }),
                grants: grantsOf(ch.roles, (r) => file(`${ch.key}.${r}s`)),
            };
    const out = {
        source: policy.source,
        channelId,
        namedAccounts: policy.namedAccounts,
        channel,
        accounts: Object.values(policy.accounts).map((a) => ({
            name: a.name,
            host: hostOf(a.baseUrl),
            ceiling: a.ceiling,
            approval: a.approval,
            isDefault: a.name === policy.defaultAccount,
        })),
        grants: grantsOf(policy.roles, (r) => (policy.rolesFrom ? { key: policy.rolesFrom, source: BUILT_IN } : env(`CLOUD_${r.toUpperCase()}S`))),
        ...(policy.rolesFrom ? { rolesFrom: policy.rolesFrom } : {}),
    };
    if (!person)
        return out;
    const { role, source } = await person.role;
    const tiers = TIERS.map((tier) => {
        const d = decide(policy, { role, roleSource: source, channelId, tier });
        if (d.ok)
            return { tier, ok: true, rule: d.approval, ...(d.approval ? { reason: 'approval' } : {}) };
        return { tier, ok: false, rule: d.rule, reason: d.reason };
    });
    return { ...out, person: { userId: person.userId, role, roleSource: source, roleRule: roleRule(policy, source), tiers } };
}
function hostOf(url) {
    try {
        return new URL(url).host;
    }
    catch {
        return url; // `sandbox` in the local shell
    }
}
//# sourceMappingURL=explain.js.map