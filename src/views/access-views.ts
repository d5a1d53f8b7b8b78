/** What a person is told when access control says no: which role is needed, and where commands work. */
import type { AccessDecision } from '../access/access.js';
import type { Reply } from './types.js';
import { context, section } from './blocks.js';
import { channelRef, join, md, val, type Mrkdwn } from './mrkdwn.js';
import { words } from './words.js';

const TIER_WORDS: Record<string, Mrkdwn> = {
  read: md`reads the account`,
  change: md`changes the account`,
  billing: md`spends money or shows invoices`,
  destroy: md`can destroy data`,
  secret: md`shows a secret`,
};

type Refusal = Exclude<AccessDecision, { ok: true }>;

/** The refusal without emoji: what the notification text says (and a click is told). */
function reason(d: Refusal, what: string, tier: string): Mrkdwn {
  if (d.reason === 'channel') return md`I take \`/cloud\` commands only in ${join(d.channels.map(channelRef), ', ')}. Nothing was done.`;
  const yours = d.role ? md`Your role here is *${words(d.role)}*.` : md`You have no role here.`;
  return md`${val(what)} ${TIER_WORDS[tier] ?? md`needs more access`}: it needs the *${words(d.needed)}* role. ${yours} Nothing was done.`;
}

/** `what` is the command (`/cloud server reinstall`), shown as code. */
export function refusalText(d: Refusal, what: string, tier: string): Mrkdwn {
  return md`:no_entry: ${reason(d, what, tier)}`;
}

export function buildAccessRefusal(d: Refusal, what: string, tier: string): Reply {
  return {
    text: reason(d, what, tier),
    blocks: [
      section(refusalText(d, what, tier)),
      context(md`Roles are granted by whoever runs the bot (CLOUD_ADMINS, CLOUD_OPERATORS, CLOUD_VIEWERS or ACCESS_POLICY).`),
    ],
  };
}
