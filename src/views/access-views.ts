/** What a person is told when access control says no: which role is needed, and where commands work. */
import type { AccessDecision } from '../access/access.js';
import type { Reply } from '../operations/types.js';
import { context, section } from './blocks.js';

const TIER_WORDS: Record<string, string> = {
  read: 'reads the account',
  change: 'changes the account',
  billing: 'spends money or shows invoices',
  destroy: 'can destroy data',
  secret: 'shows a secret',
};

export function refusalText(d: Exclude<AccessDecision, { ok: true }>, what: string, tier: string): string {
  if (d.reason === 'channel') {
    return `:no_entry: I take \`/cloud\` commands only in ${d.channels.map((c) => `<#${c}>`).join(', ')}. Nothing was done.`;
  }
  const yours = d.role ? `Your role here is *${d.role}*.` : 'You have no role here.';
  return `:no_entry: \`${what}\` ${TIER_WORDS[tier] ?? 'needs more access'}: it needs the *${d.needed}* role. ${yours} Nothing was done.`;
}

export function buildAccessRefusal(d: Exclude<AccessDecision, { ok: true }>, what: string, tier: string): Reply {
  const text = refusalText(d, what, tier);
  return {
    text: text.replace(/[:*`]|no_entry/g, '').trim(),
    blocks: [section(text), context('Roles are granted by whoever runs the bot (CLOUD_ADMINS, CLOUD_OPERATORS, CLOUD_VIEWERS or ACCESS_POLICY).')],
  };
}
