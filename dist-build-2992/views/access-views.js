import { context, section } from './blocks.js';
import { channelRef, join, md, val } from './mrkdwn.js';
import { ceilingWords, ruleName, TIER_DOES, valueList } from './tier-words.js';
import { words } from './words.js';
const does = (tier) => TIER_DOES[tier] ?? md `needs more access`;
/** The refusal without emoji: what the notification text says (and a click is told). */
function reason(d, what, tier) {
    const rule = md `rule ${ruleName(d.rule)}`;
    switch (d.reason) {
        case 'channel':
            return md `I take \`/cloud\` commands only in ${join(d.channels.map(channelRef), ', ')}. Nothing was done.`;
        case 'unlisted':
            return md `This channel is not in the access policy, and unlisted channels are refused (${rule}: deny). Nothing was done.`;
        case 'account':
            // Allowed yet refused: the account is not declared at all.
            if (d.allowed.includes(d.account))
                return md `There is no account ${val(d.account, 60)} (${rule}). Nothing was done.`;
            return md `This channel may not use account ${val(d.account, 60)} (${rule}). It may use ${valueList(d.allowed, md `no account`)}. Nothing was done.`;
        case 'ceiling':
            return md `${val(what)} ${does(tier)}, and this channel allows ${ceilingWords(d.ceiling)} (${rule}): no role can do it here. Nothing was done.`;
        case 'account-ceiling':
            return md `${val(what)} ${does(tier)}, and account ${val(d.account, 60)} allows ${ceilingWords(d.ceiling)} from any channel (${rule}). Nothing was done.`;
        case 'role': {
            const yours = d.role ? md `Your role here is *${words(d.role)}*. It comes from ${ruleName(d.rule)}.` : md `You have no role here. No role list names you (${rule}).`;
            return md `${val(what)} ${does(tier)}: it needs the *${words(d.needed)}* role. ${yours} Nothing was done.`;
        }
    }
}
/** `what` is the command (`/cloud server reinstall`), shown as code. */
export function refusalText(d, what, tier) {
    return md `:no_entry: ${reason(d, what, tier)}`;
}
export function buildAccessRefusal(d, what, tier) {
    const where = d.reason === 'channel'
        ? md `The channels are set by whoever runs the bot (CLOUD_CHANNELS).`
        : md `Roles and rules are set by whoever runs the bot (CLOUD_ADMINS, CLOUD_OPERATORS, CLOUD_VIEWERS, CLOUD_CHANNELS or ACCESS_POLICY); an admin sees them with \`/cloud policy\`.`;
    return { text: reason(d, what, tier), blocks: [section(refusalText(d, what, tier)), context(where)] };
}
//# sourceMappingURL=access-views.js.map