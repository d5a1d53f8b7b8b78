import { join, md, val } from './mrkdwn.js';
import { words } from './words.js';
/** What a command of each tier does, after the command: "`/cloud server delete` can destroy data". */
export const TIER_DOES = {
    read: md `reads the account`,
    change: md `changes the account`,
    billing: md `spends money or shows invoices`,
    destroy: md `can destroy data`,
    secret: md `shows a secret`,
};
/** A tier as a plural noun, for what a ceiling allows ("only reads", "reads and changes"). */
const TIER_NOUN = {
    read: md `reads`,
    change: md `changes`,
    billing: md `billing`,
    destroy: md `destroying data`,
    secret: md `secrets`,
};
const noun = (t) => TIER_NOUN[t] ?? words(t);
/** "only reads", "reads and changes", "reads, changes and billing"; none: "nothing". */
export function ceilingWords(tiers) {
    if (tiers.length === 0)
        return md `nothing`;
    if (tiers.length === 1)
        return md `only ${noun(tiers[0])}`;
    return md `${join(tiers.slice(0, -1).map(noun), ', ')} and ${noun(tiers[tiers.length - 1])}`;
}
/** A list of values ("`a`, `b` and `c`"); none: `none`. */
export function valueList(items, none = md `none`) {
    if (items.length === 0)
        return none;
    const vals = items.map((i) => val(i, 60));
    if (vals.length === 1)
        return vals[0];
    return md `${join(vals.slice(0, -1), ', ')} and ${vals[vals.length - 1]}`;
}
/** `channels.C0PROD.ceiling` in `ACCESS_POLICY (policy.yml)`; a rule of the environment is its variable alone. */
export function ruleName(rule) {
    // A rule the program sets itself is said in words (the local shell's admin), not as a setting.
    if (rule.source === 'built-in')
        return words(rule.key); // decide.ts BUILT_IN (views import no values from access/)
    return rule.source === 'environment' ? val(rule.key, 120) : md `${val(rule.key, 120)} in ${val(rule.source, 200)}`;
}
//# sourceMappingURL=tier-words.js.map