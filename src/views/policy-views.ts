/**
 * `/cloud policy`: the rules in force in this channel and where each one lives, so an admin
 * can tell which setting to change instead of guessing. Ephemeral, but still built to ping
 * nobody: people appear as mentions in the blocks only (never in the text fallback), groups
 * as values, and every key, source, account and host as an inert value.
 */
import type { PolicyExplanation, RoleGrant, TierVerdict, RuleRef } from '../domain/access-verdict.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections } from './blocks.js';
import { channelRef, join, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { accountValue } from './account-label.js';
import { ceilingWords, ruleName, valueList } from './tier-words.js';
import { words } from './words.js';
import { elapsed } from './format.js';

/** Principals shown per grant, and channels per allowlist, before "+N more". */
const LIST_MAX = 25;

const more = <T>(items: readonly T[], show: (t: T) => Mrkdwn): Mrkdwn => {
  const shown = items.slice(0, LIST_MAX).map(show);
  if (items.length > LIST_MAX) shown.push(md`+${items.length - LIST_MAX} more`);
  return join(shown, ', ');
};

/** A user id as a mention (blocks only), a user group (`S…`) as a value: a group mention would ping it. */
const principal = (id: string): Mrkdwn => (/^S/.test(id) ? md`${val(id, 40)} (group)` : mention(id.length > 40 ? id.slice(0, 40) : id));

const tierList = (tiers: readonly string[]): Mrkdwn => (tiers.length ? join(tiers.map((t) => md`*${words(t)}*`), ', ') : md`none`);

function grantLine(g: RoleGrant): Mrkdwn {
  return md`• *${words(g.role)}*: ${more(g.principals, principal)} — ${ruleName(g.rule)}`;
}

function channelLines(e: PolicyExplanation): Mrkdwn[] {
  const c = e.channel;
  if (c.kind === 'not-allowed') {
    return [md`:no_entry: Commands are not taken in this channel: ${ruleName(c.rule)} allows only ${more(c.channels, channelRef)}.`];
  }
  if (c.kind === 'deny') return [md`:no_entry: This channel is not in the policy, and unlisted channels are refused (${ruleName(c.rule)}: deny).`];
  const label = c.label !== undefined ? md` (${val(c.label, 80)})` : md``;
  const which = c.listed ? md`*Channel rule:* ${ruleName(c.rule)}${label}` : md`*Channel rule:* this channel is not listed, so ${ruleName(c.rule)} applies`;
  const ceilingRule: RuleRef = { key: `${c.rule.key}.ceiling`, source: c.rule.source };
  const approval = c.approval.length ? join(c.approval.map((a) => md`*${words(a.tier)}* (${ruleName(a.rule)})`), ', ') : md`none`;
  return [
    which,
    md`• Account: ${accountValue(c.account)}`,
    md`• ${val('--account')} may choose: ${valueList(c.accounts)}`,
    md`• Ceiling: ${c.ceiling ? md`${ceilingWords(c.ceiling)} (${ruleName(ceilingRule)})` : md`all tiers`}`,
    md`• Needs a second admin's approval: ${approval}`,
    ...(c.undoDelayMs ? [md`• A confirmed destroy waits ${words(elapsed(0, c.undoDelayMs))} for an Undo before it is sent (${val('undo_delay')})`] : []),
    ...(c.grants.length ? [md`• Roles granted by this channel's rule:`, ...c.grants.map(grantLine)] : []),
  ];
}

function accountLine(a: PolicyExplanation['accounts'][number]): Mrkdwn {
  const isDefault = a.isDefault ? md` _(default)_` : md``;
  const ceiling = a.ceiling ? ceilingWords(a.ceiling) : md`all tiers`;
  return md`• ${accountValue(a.name)}${isDefault} — ${val(a.host, 120)} · ceiling: ${ceiling} · approval: ${tierList(a.approval)}`;
}

const VERDICT_REASON: Record<string, Mrkdwn> = {
  channel: md`commands are not taken here`,
  unlisted: md`unlisted channels are refused`,
  account: md`this channel may not use the account`,
  ceiling: md`above this channel's ceiling`,
  'account-ceiling': md`above the account's ceiling`,
  role: md`the role is too low`,
};

function verdictLine(v: TierVerdict): Mrkdwn {
  const rule = v.rule ? md` — ${ruleName(v.rule)}` : md``;
  if (v.ok) return md`• *${words(v.tier)}*: ${v.rule ? md`allowed with a second admin's approval` : md`allowed`}${rule}`;
  const why = v.reason !== undefined ? (VERDICT_REASON[v.reason] ?? val(v.reason, 40)) : md`refused`;
  return md`• *${words(v.tier)}*: :no_entry: refused (${why})${rule}`;
}

function personLines(p: NonNullable<PolicyExplanation['person']>, source: string): Mrkdwn[] {
  // Same reading as decide.ts roleRule: a dotted list name lives in the policy file.
  const from = ruleName(p.roleRule ?? { key: p.roleSource, source: p.roleSource.includes('.') ? source : 'environment' });
  const role = p.role ? md`role *${words(p.role)}*, from ${from}` : md`no role (${from})`;
  return [md`*For ${mention(p.userId)}:* ${role}`, ...p.tiers.map(verdictLine)];
}

export function buildPolicyView(e: PolicyExplanation): Reply {
  const grants = e.grants.length ? e.grants.map(grantLine) : [md`• none: everyone is a viewer unless ${val('CLOUD_VIEWERS')} is set`];
  const lines: Mrkdwn[] = [
    ...channelLines(e),
    md``,
    e.rolesFrom ? md`*Roles:*` : md`*Roles from the environment:*`,
    ...grants,
    md``,
    md`*Accounts${e.namedAccounts ? md`` : md` (one, from the environment)`}:*`,
    ...e.accounts.map(accountLine),
    ...(e.person ? [md``, ...personLines(e.person, e.source)] : []),
  ];
  const from = e.source === 'environment' ? md`the environment` : md`the environment and ${val(e.source, 200)}`;
  const blocks: Block[] = [
    header('Access policy here'),
    ...lineSections(lines, 47),
    context(md`Rules come from ${from}. Only you see this; it changed nothing.`),
  ];
  // The fallback names no one (a notification must not ping the person asked about).
  return { text: md`Access policy for this channel${e.person ? md`, and what one person may do here` : md``}`, blocks };
}
