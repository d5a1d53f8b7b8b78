import { inventoryItems } from './inventory.js';
import { PolicyFileError } from './policy-file.js';
/** The account a lone CLOUD_API_BASE_URL / CLOUD_API_TOKEN pair becomes. */
export const DEFAULT_ACCOUNT = 'default';
const NO_ROLES = { admin: [], operator: [], viewer: [] };
/** Builds the effective policy; throws PolicyFileError when no account is left to use. */
export function buildPolicy(input) {
    const { access, cloud, file } = input;
    const source = input.path ? `ACCESS_POLICY (${input.path})` : 'environment';
    const declared = Object.entries(file?.accounts ?? {});
    const accounts = {};
    for (const [name, a] of declared) {
        accounts[name] = {
            name,
            baseUrl: a.base_url.trim().replace(/\/+$/, ''),
            tokenEnv: a.token_env,
            ceiling: a.ceiling,
            approval: a.approval ?? [],
            inventory: inventoryItems(a.inventory),
        };
    }
    if (!declared.length) {
        if (!cloud)
            throw new PolicyFileError(`CLOUD_API_BASE_URL and CLOUD_API_TOKEN are required unless ${source} declares accounts`);
        accounts[DEFAULT_ACCOUNT] = { name: DEFAULT_ACCOUNT, baseUrl: cloud.baseUrl, tokenEnv: 'CLOUD_API_TOKEN', ceiling: undefined, approval: [], inventory: [] };
    }
    const names = Object.keys(accounts);
    const fallback = file?.default_channel && file.default_channel !== 'deny' ? file.default_channel.account : undefined;
    const defaultAccount = file?.default_account ?? fallback ?? names[0];
    const rule = (key, g, extra = {}) => {
        const account = g.account ?? defaultAccount;
        return {
            key,
            label: extra.label,
            account,
            accounts: [...new Set([account, ...(g.accounts ?? [])])],
            ceiling: g.ceiling,
            approval: g.approval ?? [],
            roles: extra.roles ?? NO_ROLES,
        };
    };
    const channels = Object.fromEntries(Object.entries(file?.channels ?? {}).map(([id, c]) => [
        id,
        rule(`channels.${id}`, c, { label: c.name, roles: { admin: c.admins, operator: c.operators, viewer: c.viewers } }),
    ]));
    return {
        source,
        namedAccounts: declared.length > 0,
        accounts,
        defaultAccount,
        channels,
        defaultChannel: file?.default_channel === 'deny' ? 'deny' : rule('default_channel', file?.default_channel ?? {}),
        roles: { admin: access.admins, operator: access.operators, viewer: access.viewers ?? [] },
        viewersListed: access.viewers !== undefined,
        ...(access.rolesFrom ? { rolesFrom: access.rolesFrom } : {}),
        allowlist: access.channels,
        approval: access.approval === 'destroy' ? ['destroy'] : [],
    };
}
/** The channel's rule: its own, else default_channel's (`deny` when it refuses unlisted channels). */
export function channelRule(policy, channelId) {
    return (channelId && policy.channels[channelId]) || policy.defaultChannel;
}
/** Whether any role list is configured (else everyone is a viewer, and start-up says so). */
export function rolesConfigured(policy) {
    const any = (r) => r.admin.length + r.operator.length + r.viewer.length > 0;
    return any(policy.roles) || policy.viewersListed || Object.values(policy.channels).some((c) => any(c.roles));
}
//# sourceMappingURL=policy.js.map