/**
 * What a person is told when access control says no: what refused (where commands are taken,
 * the account, the channel's or the account's ceiling, or the role) and the rule that did, so
 * nobody has to guess which setting to ask an admin about.
 */
import type { Refusal } from '../domain/access-verdict.js';
import type { Reply } from './types.js';
import { context, section } from './blocks.js';
import { channelRef, join, md, val, type Mrkdwn } from './mrkdwn.js';
import { ceilingWords, ruleName, TIER_DOES, valueList } from './tier-words.js';
import { words } from './words.js';

const does = (tier: string): Mrkdwn => TIER_DOES[tier] ?? md`needs more access`;

/** Why a role could not be told: the user groups Slack did not let the bot read (ids, as `/cloud policy` shows them). */
export function groupsUnread(groups: readonly string[]): Mrkdwn {
  return md`Slack did not let the bot read user group${groups.length > 1 ? md`s` : md``} ${valueList(groups)}`;
}

/** The refusal without emoji: what the notification text says (and a click is told). */
function reason(d: Refusal, what: string, tier: string): Mrkdwn {
  const rule = md`rule ${ruleName(d.rule)}`;
  switch (d.reason) {
    case 'channel':
      return md`I take \`/cloud\` commands only in ${join(d.channels.map(channelRef), ', ')}. Nothing was done.`;
    case 'unlisted':
      return md`This channel is not in the access policy, and unlisted channels are refused (${rule}: deny). Nothing was done.`;
    case 'account':
      // Allowed yet refused: the account is not declared at all.
      if (d.allowed.includes(d.account)) return md`There is no account ${val(d.account, 60)} (${rule}). Nothing was done.`;
      return md`This channel may not use account ${val(d.account, 60)} (${rule}). It may use ${valueList(d.allowed, md`no account`)}. Nothing was done.`;
    case 'ceiling':
      return md`${val(what)} ${does(tier)}, and this channel allows ${ceilingWords(d.ceiling)} (${rule}): no role can do it here. Nothing was done.`;
    case 'account-ceiling':
      return md`${val(what)} ${does(tier)}, and account ${val(d.account, 60)} allows ${ceilingWords(d.ceiling)} from any channel (${rule}). Nothing was done.`;
    case 'role': {
      // Not the rules' verdict: a group that may give the role could not be read just now.
      if (d.unread?.length) {
        return md`${val(what)} ${does(tier)}: it needs the *${words(d.needed)}* role. ${groupsUnread(d.unread)}, which may give it to you, so it cannot tell whether you have it. Nothing was done; try again in a moment.`;
      }
      const yours = d.role ? md`Your role here is *${words(d.role)}*. It comes from ${ruleName(d.rule)}.` : md`You have no role here. No role list names you (${rule}).`;
      return md`${val(what)} ${does(tier)}: it needs the *${words(d.needed)}* role. ${yours} Nothing was done.`;
    }
  }
}

/** `what` is the command (`/cloud server reinstall`), shown as code. */
export function refusalText(d: Refusal, what: string, tier: string): Mrkdwn {
  return md`:no_entry: ${reason(d, what, tier)}`;
}

export function buildAccessRefusal(d: Refusal, what: string, tier: string): Reply {
  const where =
    d.reason === 'channel'
      ? md`The channels are set by whoever runs the bot (CLOUD_CHANNELS).`
      : md`Roles and rules are set by whoever runs the bot (CLOUD_ADMINS, CLOUD_OPERATORS, CLOUD_VIEWERS, CLOUD_CHANNELS or ACCESS_POLICY); an admin sees them with \`/cloud policy\`.`;
  return { text: reason(d, what, tier), blocks: [section(refusalText(d, what, tier)), context(where)] };
}
