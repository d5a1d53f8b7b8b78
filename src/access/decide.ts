/**
 * One access decision, pure: what a person may do here is their role ∩ the channel's ceiling
 * ∩ the account's ceiling (issue 12). Checked in the order that tells the most: where commands
 * are taken at all, which account, what the channel and the account allow, and only then the
 * person's role — so an operator refused a destroy in a read-only channel hears that no role
 * would do, and an admin refused there hears which rule said no.
 */
import type { Scope, Tier } from '../domain/tier.js';
import type { Refusal, Role, RuleRef, UnreadGroup } from '../domain/access-verdict.js';
import { channelRule, type Policy } from './policy.js';
import { covers, groupsThatCouldGive, roleNeeded } from './roles.js';

export interface DecisionInput {
  role: Role | undefined;
  /** Where the role came from (`CLOUD_ADMINS`, `channels.C0PROD.operators`, …). */
  roleSource: string;
  channelId: string | undefined;
  tier: Tier;
  scope?: Scope;
  /** `--account NAME`; else the channel's own. */
  account?: string | undefined;
  /** User groups on lists above `role` that could not be read: a role refusal names those that could give the tier. */
  unread?: readonly UnreadGroup[];
}

/** `source` of a rule the program sets itself (the local shell's admin): its key is words, not a setting. */
export const BUILT_IN = 'built-in';

/** Where a role's list lives: a dotted key in the policy file, the program itself, else the environment. */
export function roleRule(policy: Pick<Policy, 'source' | 'rolesFrom'>, roleSource: string): RuleRef {
  if (policy.rolesFrom !== undefined && roleSource === policy.rolesFrom) return { key: roleSource, source: BUILT_IN };
  return { key: roleSource, source: roleSource.includes('.') ? policy.source : 'environment' };
}

export type Decision =
  | {
      ok: true;
      role: Role;
      /** The account the request goes to. */
      account: string;
      /** The rule that asks for a second admin's approval of this tier here, if any. */
      approval: RuleRef | undefined;
    }
  | Refusal;

export function decide(policy: Policy, input: DecisionInput): Decision {
  const scope = input.scope ?? 'cloud';
  const env = (key: string): RuleRef => ({ key, source: 'environment' });
  const file = (key: string): RuleRef => ({ key, source: policy.source });
  const ch = channelRule(policy, input.channelId);

  // CLOUD_CHANNELS is where the bot takes commands at all; default_channel: deny is policy,
  // which `/cloud policy` (scope everywhere) may still explain.
  const list = policy.allowlist;
  if (list?.length && (!input.channelId || !list.includes(input.channelId))) return { ok: false, reason: 'channel', channels: list, rule: env('CLOUD_CHANNELS') };
  if (ch === 'deny' && scope !== 'everywhere') return { ok: false, reason: 'unlisted', rule: file('default_channel') };
  const rule = ch === 'deny' ? undefined : ch;
  const account = input.account ?? rule?.account ?? policy.defaultAccount;
  // The bot's own operations are tied to an account too (a subscription polls it), so the
  // accounts a channel may use bind them; ceilings bind only what acts on the cloud.
  if (scope !== 'everywhere') {
    const allowed = rule?.accounts ?? [policy.defaultAccount];
    if (!allowed.includes(account) || !policy.accounts[account]) {
      return { ok: false, reason: 'account', account, allowed, rule: file(rule ? `${rule.key}.accounts` : 'accounts') };
    }
  }
  if (scope === 'cloud') {
    if (rule?.ceiling && !rule.ceiling.includes(input.tier)) return { ok: false, reason: 'ceiling', ceiling: rule.ceiling, rule: file(`${rule.key}.ceiling`) };
    const acc = policy.accounts[account]!;
    if (acc.ceiling && !acc.ceiling.includes(input.tier)) {
      return { ok: false, reason: 'account-ceiling', account, ceiling: acc.ceiling, rule: file(`accounts.${account}.ceiling`) };
    }
  }
  if (!covers(input.role, input.tier)) {
    const unread = groupsThatCouldGive(input.unread ?? [], (r) => covers(r, input.tier));
    const refusal = { ok: false, reason: 'role', role: input.role, needed: roleNeeded(input.tier), rule: roleRule(policy, input.roleSource) } as const;
    return unread.length ? { ...refusal, unread } : refusal;
  }
  return { ok: true, role: input.role!, account, approval: scope === 'cloud' ? approvalRule(policy, input.channelId, account, input.tier) : undefined };
}

/** The first rule asking for approval of this tier: the environment's, the channel's, the account's. */
export function approvalRule(policy: Policy, channelId: string | undefined, account: string, tier: Tier): RuleRef | undefined {
  if (policy.approval.includes(tier)) return { key: 'CLOUD_APPROVAL', source: 'environment' };
  const ch = channelRule(policy, channelId);
  if (ch !== 'deny' && ch.approval.includes(tier)) return { key: `${ch.key}.approval`, source: policy.source };
  if (policy.accounts[account]?.approval.includes(tier)) return { key: `accounts.${account}.approval`, source: policy.source };
  return undefined;
}
