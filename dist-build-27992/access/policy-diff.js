const show = (v) => v === undefined ? '(none)' : Array.isArray(v) ? (v.length ? v.join(', ') : '(empty)') : String(v);
function field(out, key, before, after) {
    if (show(before) !== show(after))
        out.push(`${key}: ${show(before)} → ${show(after)}`);
}
function channelFields(out, key, a, b) {
    field(out, `${key}.account`, a.account, b.account);
    field(out, `${key}.accounts`, a.accounts, b.accounts);
    field(out, `${key}.ceiling`, a.ceiling, b.ceiling);
    field(out, `${key}.approval`, a.approval, b.approval);
    for (const role of ['admin', 'operator', 'viewer'])
        field(out, `${key}.${role}s`, a.roles[role], b.roles[role]);
}
/** `accounts.prod.inventory: + server 101 web-1; − sg 8 db-firewall`: entries added and removed. */
function inventory(out, key, before, after) {
    const line = (e) => `${e.kind} ${e.id} ${e.name}${e.home ? ` (home ${e.home})` : ''}`;
    const [a, b] = [new Set(before.map(line)), new Set(after.map(line))];
    const changed = [...[...b].filter((l) => !a.has(l)).map((l) => `+ ${l}`), ...[...a].filter((l) => !b.has(l)).map((l) => `− ${l}`)];
    if (changed.length)
        out.push(`${key}: ${changed.slice(0, 10).join('; ')}${changed.length > 10 ? `; and ${changed.length - 10} more` : ''}`);
}
export function describePolicyChanges(before, after) {
    const out = [];
    const names = new Set([...Object.keys(before.accounts), ...Object.keys(after.accounts)]);
    for (const name of names) {
        const a = before.accounts[name];
        const b = after.accounts[name];
        if (!a)
            out.push(`accounts.${name}: added (${b.baseUrl}, token from ${b.tokenEnv})`);
        else if (!b)
            out.push(`accounts.${name}: removed`);
        else {
            field(out, `accounts.${name}.base_url`, a.baseUrl, b.baseUrl);
            field(out, `accounts.${name}.token_env`, a.tokenEnv, b.tokenEnv);
            field(out, `accounts.${name}.ceiling`, a.ceiling, b.ceiling);
            field(out, `accounts.${name}.approval`, a.approval, b.approval);
            inventory(out, `accounts.${name}.inventory`, a.inventory, b.inventory);
        }
    }
    field(out, 'default_account', before.defaultAccount, after.defaultAccount);
    const [da, db] = [before.defaultChannel, after.defaultChannel];
    if (da === 'deny' || db === 'deny')
        field(out, 'default_channel', da === 'deny' ? 'deny' : 'allow', db === 'deny' ? 'deny' : 'allow');
    else
        channelFields(out, 'default_channel', da, db);
    const ids = new Set([...Object.keys(before.channels), ...Object.keys(after.channels)]);
    for (const id of ids) {
        const a = before.channels[id];
        const b = after.channels[id];
        if (!a)
            out.push(`channels.${id}: added (account ${b.account}, ceiling ${show(b.ceiling ?? 'all tiers')})`);
        else if (!b)
            out.push(`channels.${id}: removed`);
        else
            channelFields(out, `channels.${id}`, a, b);
    }
    return out;
}
const ALL = 'all tiers';
/** What `after` lets through that `before` did not (tiers; undefined is every tier). */
const gained = (before, after) => {
    if (!after)
        return before ? ALL : undefined;
    const more = after.filter((t) => before && !before.includes(t));
    return more.length ? more : undefined;
};
const lost = (before, after) => before.filter((t) => !after.includes(t));
/**
 * The changes that widen access, one line each, judged per channel on the rule that decides
 * it (its own, else default_channel's): a denied channel allowed, a ceiling raised, an approval
 * dropped, another account reachable, a role granted; and an account's ceiling raised or
 * approval dropped. A reload with any of these is logged and audited as `policy.widened`.
 */
export function describeWidenings(before, after) {
    const out = [];
    const ids = [...new Set([...Object.keys(before.channels), ...Object.keys(after.channels)])];
    const ruleOf = (p, id) => (id && p.channels[id]) || p.defaultChannel;
    for (const id of [...ids, undefined]) {
        const where = id ? `channels.${id}` : 'unlisted channels';
        const [a, b] = [ruleOf(before, id), ruleOf(after, id)];
        if (b === 'deny')
            continue;
        const by = `(now ${b.key})`;
        if (a === 'deny') {
            out.push(`${where}: denied → allowed on account ${b.account}, ceiling ${show(b.ceiling ?? ALL)} ${by}`);
            continue;
        }
        const ceiling = gained(a.ceiling, b.ceiling);
        if (ceiling)
            out.push(`${where}.ceiling: + ${show(ceiling)} ${by}`);
        const approval = lost(a.approval, b.approval);
        if (approval.length)
            out.push(`${where}.approval: − ${show(approval)} ${by}`);
        if (a.account !== b.account)
            out.push(`${where}.account: ${a.account} → ${b.account} ${by}`);
        const accounts = b.accounts.filter((n) => !a.accounts.includes(n) && n !== b.account);
        if (accounts.length)
            out.push(`${where}.accounts: + ${show(accounts)} ${by}`);
        for (const role of ['admin', 'operator', 'viewer']) {
            const added = b.roles[role].filter((p) => !a.roles[role].includes(p));
            if (added.length)
                out.push(`${where}.${role}s: + ${show(added)} ${by}`);
        }
    }
    for (const [name, b] of Object.entries(after.accounts)) {
        const a = before.accounts[name];
        if (!a)
            continue; // reachable only through a channel's account(s), judged above
        const ceiling = gained(a.ceiling, b.ceiling);
        if (ceiling)
            out.push(`accounts.${name}.ceiling: + ${show(ceiling)}`);
        const approval = lost(a.approval, b.approval);
        if (approval.length)
            out.push(`accounts.${name}.approval: − ${show(approval)}`);
    }
    return out;
}
//# sourceMappingURL=policy-diff.js.map