/**
 * Who may do what, where, on which account — decided at the moment of acting (a command, a
 * click, a form) against the policy in force then (it may be reloaded: policy-source.ts).
 * Secure by default: with no lists configured everyone is a viewer; with CLOUD_VIEWERS set,
 * someone on no list may do nothing at all. User groups are resolved through Slack
 * (usergroups.users.list) and cached briefly; a group that cannot be read grants nothing, and
 * the finding says so (`unread`), so a refusal it causes is not told as the rules' verdict. A
 * group Slack says does not exist is read: it has nobody in it.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { AnyOperation } from '../operations/types.js';
import type { Scope, Tier } from '../domain/tier.js';
import { approvalRule, decide, type Decision } from './decide.js';
import type { Refusal, RuleRef, Role, PolicyExplanation, UnreadGroup } from '../domain/access-verdict.js';
import { channelRule, rolesConfigured, type Policy, type RoleLists } from './policy.js';
import { ROLES } from './roles.js';
import { explainPolicy } from './explain.js';
import { SlackApiError } from '../chat/slack-api.js';

/** usergroups.users.list's answer for a group id Slack does not have (java-slack-sdk's tests pin it since 2018). */
const NO_SUCH_GROUP = 'no_such_subteam';

export type AccessDecision = Decision;
export type AccessRefusal = Refusal;
export type { RuleRef };

/** What an access check needs of an operation. */
export type Guarded = Pick<AnyOperation, 'tier'> & { scope?: Scope };

export interface RoleFinding {
  role: Role | undefined;
  /** The list that granted it (`CLOUD_ADMINS`, `channels.C0PROD.operators`), or why none did. */
  source: string;
  /** User groups on lists above `role` that could not be read: the role may be higher. Absent when none. */
  unread?: UnreadGroup[];
}

export interface Access {
  roleOf(userId: string, channelId?: string): Promise<Role | undefined>;
  /** The role and the list it comes from. */
  findRole(userId: string, channelId?: string): Promise<RoleFinding>;
  /** May this person act on this operation here (on `account`, else the channel's own)? */
  check(userId: string, channelId: string | undefined, op: Guarded, account?: string): Promise<AccessDecision>;
  /**
   * What the channel and the account allow, whoever asks: what the bot posts on its own there
   * (a subscription's alerts, a digest) is bound by the same ceilings and accounts as a read.
   */
  channelAllows(channelId: string, op: Guarded, account: string): AccessDecision;
  /** The operations this person may run here (help shows only these). */
  allowed(userId: string, channelId: string | undefined, ops: readonly AnyOperation[], account?: string): Promise<AnyOperation[]>;
  /** The rule asking for a second admin's approval of this change here, if any. */
  approvalFor(op: Guarded, channelId: string | undefined, account: string): RuleRef | undefined;
  /** How long a confirmed destroy-tier change waits in this channel for an Undo (ms; 0: none). */
  undoDelayFor(op: Guarded, channelId: string | undefined): number;
  /** `/cloud policy`: the effective rules here, and for a person when named. */
  explain(channelId: string | undefined, userId?: string): Promise<PolicyExplanation>;
  /** The account's name where messages should name it (several accounts declared), else undefined. */
  accountLabel(account: string | null | undefined): string | undefined;
  /** The policy in force now. */
  policy(): Policy;
  /** True when no role list is configured (everyone is a viewer). */
  readonly unconfigured: boolean;
}

export interface AccessDeps {
  /** The policy in force (reloads replace it). */
  policy: () => Policy;
  /** Members of a user group (Slack's usergroups.users.list). */
  groupMembers: (groupId: string) => Promise<string[]>;
  clock: Clock;
  logger: Logger;
  /** How long group members are cached (default 60 s). */
  cacheMs?: number;
}

const LIST_NAMES: Record<Role, string> = { admin: 'admins', operator: 'operators', viewer: 'viewers' };
const ENV_NAMES: Record<Role, string> = { admin: 'CLOUD_ADMINS', operator: 'CLOUD_OPERATORS', viewer: 'CLOUD_VIEWERS' };

export function createAccess(deps: AccessDeps): Access {
  const cacheMs = deps.cacheMs ?? 60_000;
  const cache = new Map<string, { at: number; members: Promise<Set<string> | undefined> }>();

  /** A group's members; undefined while it cannot be read (not cached, so the next look reads again). */
  function members(groupId: string): Promise<Set<string> | undefined> {
    const now = deps.clock.now();
    const hit = cache.get(groupId);
    if (hit && now - hit.at < cacheMs) return hit.members;
    const members = deps.groupMembers(groupId).then(
      (ids) => new Set(ids),
      (error: unknown) => {
        // Slack says the group does not exist (deleted, or a typo in the policy): a definite
        // answer, so it grants nothing and leaves no doubt; cached like any other read.
        if (error instanceof SlackApiError && error.failure === 'refused' && error.code === NO_SUCH_GROUP) {
          deps.logger.warn('a user group in the policy does not exist in Slack; it grants nothing', { group: groupId });
          return new Set<string>();
        }
        deps.logger.warn('could not read a user group; it grants nothing until it can be read', { group: groupId, error });
        cache.delete(groupId);
        return undefined;
      },
    );
    cache.set(groupId, { at: now, members });
    return members;
  }

  /** Whether the list names the person, directly or through a group; else the groups that could not be read. */
  async function listed(userId: string, list: readonly string[]): Promise<{ hit: boolean; unread: string[] }> {
    if (list.includes(userId)) return { hit: true, unread: [] };
    const unread: string[] = [];
    for (const id of list) {
      if (!id.startsWith('S')) continue;
      const group = await members(id);
      if (group?.has(userId)) return { hit: true, unread: [] };
      if (!group) unread.push(id);
    }
    return { hit: false, unread };
  }

  /** The highest role the lists give, and the unread groups of the lists above it. */
  async function highestIn(userId: string, lists: RoleLists): Promise<{ role: Role | undefined; unread: UnreadGroup[] }> {
    const unread: UnreadGroup[] = [];
    for (const role of [...ROLES].reverse()) {
      const found = await listed(userId, lists[role]);
      if (found.hit) return { role, unread };
      unread.push(...found.unread.map((group) => ({ group, role })));
    }
    return { role: undefined, unread };
  }

  async function findRole(userId: string, channelId?: string): Promise<RoleFinding> {
    const policy = deps.policy();
    const ch = channelRule(policy, channelId);
    const own = ch !== 'deny' ? await highestIn(userId, ch.roles) : { role: undefined, unread: [] };
    const global = await highestIn(userId, policy.roles);
    const found = pickRole(policy, ch === 'deny' ? undefined : ch.key, own.role, global.role);
    // Only a group that could give more than was found leaves the finding in doubt.
    const unread = [...own.unread, ...global.unread].filter((u) => !found.role || ROLES.indexOf(u.role) > ROLES.indexOf(found.role));
    return unread.length ? { ...found, unread } : found;
  }

  async function check(userId: string, channelId: string | undefined, op: Guarded, account?: string): Promise<AccessDecision> {
    const { role, source, unread } = await findRole(userId, channelId);
    return decide(deps.policy(), { role, roleSource: source, channelId, tier: op.tier, ...(op.scope ? { scope: op.scope } : {}), account, ...(unread ? { unread } : {}) });
  }

  return {
    findRole,
    roleOf: async (userId, channelId) => (await findRole(userId, channelId)).role,
    check,
    // The strongest role: only the channel's and the account's rules can refuse.
    channelAllows: (channelId, op, account) =>
      decide(deps.policy(), { role: 'admin', roleSource: 'channel', channelId, tier: op.tier, scope: op.scope ?? 'cloud', account }),
    async allowed(userId, channelId, ops, account) {
      const { role, source } = await findRole(userId, channelId);
      const policy = deps.policy();
      return ops.filter((op) => decide(policy, { role, roleSource: source, channelId, tier: op.tier, scope: op.scope ?? 'cloud', account }).ok);
    },
    approvalFor: (op, channelId, account) => ((op.scope ?? 'cloud') === 'cloud' ? approvalRule(deps.policy(), channelId, account, op.tier as Tier) : undefined),
    undoDelayFor: (op, channelId) => {
      if ((op.scope ?? 'cloud') !== 'cloud' || op.tier !== 'destroy') return 0;
      const rule = channelRule(deps.policy(), channelId);
      return rule === 'deny' ? 0 : rule.undoDelayMs;
    },
    explain: (channelId, userId) => explainPolicy(deps.policy(), channelId, userId ? { userId, role: findRole(userId, channelId) } : undefined),
    accountLabel: (account) => {
      const policy = deps.policy();
      return policy.namedAccounts ? (account ?? policy.defaultAccount) : undefined;
    },
    policy: () => deps.policy(),
    get unconfigured() {
      return !rolesConfigured(deps.policy());
    },
  };
}

/** The higher of a channel's and the environment's role; a tie is credited to the environment. */
function pickRole(policy: Policy, channelKey: string | undefined, own: Role | undefined, global: Role | undefined): RoleFinding {
  if (global && (!own || ROLES.indexOf(global) >= ROLES.indexOf(own))) return { role: global, source: policy.rolesFrom ?? ENV_NAMES[global] };
  if (own && channelKey !== undefined) return { role: own, source: `${channelKey}.${LIST_NAMES[own]}` };
  // On no list: a viewer, unless CLOUD_VIEWERS names the viewers.
  return policy.viewersListed ? { role: undefined, source: 'CLOUD_VIEWERS' } : { role: 'viewer', source: 'default (CLOUD_VIEWERS unset)' };
}
