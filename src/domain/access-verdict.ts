/**
 * What access decides and explains, as data: the rule that decided, a refusal, and the
 * effective policy `/cloud policy` shows. access/ makes these; the catalog, the audit trail
 * and the views only read them.
 */
import type { Tier } from './tier.js';

export type Role = 'viewer' | 'operator' | 'admin';

/** The rule that decided, as `/cloud policy` and refusals name it: a key and the place it lives. */
export interface RuleRef {
  key: string;
  source: string;
}

export type Refusal =
  | { ok: false; reason: 'channel'; channels: string[]; rule: RuleRef }
  | { ok: false; reason: 'unlisted'; rule: RuleRef }
  | { ok: false; reason: 'account'; account: string; allowed: string[]; rule: RuleRef }
  | { ok: false; reason: 'ceiling'; ceiling: Tier[]; rule: RuleRef }
  | { ok: false; reason: 'account-ceiling'; account: string; ceiling: Tier[]; rule: RuleRef }
  /** `unread`: user groups that could give the needed role but could not be read (Slack did not answer), so the role is only what the bot could see. */
  | { ok: false; reason: 'role'; role: Role | undefined; needed: Role; rule: RuleRef; unread?: string[] };

/** A user group on a role's list that could not be read just now: it may name the person, or not. */
export interface UnreadGroup {
  group: string;
  role: Role;
}

export interface RoleGrant {
  role: Role;
  principals: readonly string[];
  rule: RuleRef;
}

export interface TierVerdict {
  tier: Tier;
  ok: boolean;
  /** The rule that refused, or the one that allowed with approval. */
  rule: RuleRef | undefined;
  reason?: string;
}

export interface PolicyExplanation {
  source: string;
  channelId: string | undefined;
  namedAccounts: boolean;
  channel:
    | { kind: 'not-allowed'; channels: string[]; rule: RuleRef }
    | { kind: 'deny'; rule: RuleRef }
    | {
        kind: 'rule';
        rule: RuleRef;
        /** False: the channel is not listed and default_channel's rule applies. */
        listed: boolean;
        label: string | undefined;
        account: string;
        accounts: string[];
        ceiling: Tier[] | undefined;
        approval: { tier: Tier; rule: RuleRef }[];
        /** How long a confirmed destroy waits here for an Undo (ms; 0: none); absent in older explanations. */
        undoDelayMs?: number;
        grants: RoleGrant[];
      };
  accounts: { name: string; host: string; ceiling: Tier[] | undefined; approval: Tier[]; isDefault: boolean }[];
  grants: RoleGrant[];
  /** Who set the role lists when not the environment (the local shell). */
  rolesFrom?: string;
  person?: { userId: string; role: Role | undefined; roleSource: string; roleRule?: RuleRef; tiers: TierVerdict[] };
}
