/**
 * Absent keys fail closed. In a version-1 policy file, a key whose absence would widen access
 * must be stated, so a file cut short (an editor mid-save, a bad merge) is refused rather than
 * read as "allow": `default_channel` (absent: unlisted channels allowed), `channels` (absent:
 * every channel's rule gone), and in every channel rule and a default_channel rule its
 * `ceiling` (absent: all tiers) and `approval` (absent: no second admin), plus its `account`
 * when the file declares accounts (absent: the default account).
 * They are listed in README › Accounts and channel guardrails
 */
const isObject = (v) => !!v && typeof v === 'object' && !Array.isArray(v);
/** The problems of a parsed YAML document that leaves out a key it must state; [] when none. */
export function absentKeys(data) {
    if (!isObject(data))
        return [];
    if (Object.keys(data).length === 0)
        return ['the file is empty (cut short while being saved?); state at least `version: 1`, `default_channel` and `channels`'];
    if (data.version === undefined)
        return []; // the older form (roles per channel) grants roles only
    const problems = [];
    if (!('default_channel' in data))
        problems.push('default_channel is required (`deny`, or a rule for channels not listed; absent would allow them)');
    if (!('channels' in data))
        problems.push('channels is required (`channels: {}` for none)');
    const accountsDeclared = isObject(data.accounts) && Object.keys(data.accounts).length > 0;
    const rules = Object.entries(isObject(data.channels) ? data.channels : {}).map(([id, c]) => [`channels.${id}`, c]);
    if (isObject(data.default_channel))
        rules.push(['default_channel', data.default_channel]);
    for (const [where, rule] of rules) {
        if (!isObject(rule))
            continue; // the schema names a rule that is not a mapping
        if (!('ceiling' in rule))
            problems.push(`${where}.ceiling is required (list every tier to allow them all)`);
        if (!('approval' in rule))
            problems.push(`${where}.approval is required (\`approval: []\` for none)`);
        if (accountsDeclared && !('account' in rule))
            problems.push(`${where}.account is required in a file that declares accounts`);
    }
    return problems;
}
//# sourceMappingURL=policy-required.js.map