/**
 * Who may do what, where — decided at the moment of acting (a command, a click, a form).
 * Secure by default: with no lists configured everyone is a viewer; with CLOUD_VIEWERS set,
 * someone on no list may do nothing at all. User groups are resolved through Slack
 * (usergroups.users.list) and cached briefly; a group that cannot be read grants nothing.
 */
import type { AccessConfig } from '../config.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { AnyOperation, Tier } from '../operations/types.js';
import type { PolicyFile } from './policy-file.js';
import { covers, higher, roleNeeded, ROLES, type Role } from './roles.js';

export type AccessDecision =
  | { ok: true; role: Role }
  | { ok: false; reason: 'channel'; channels: string[] }
  | { ok: false; reason: 'role'; role: Role | undefined; needed: Role };

export interface Access {
  roleOf(userId: string, channelId?: string): Promise<Role | undefined>;
  check(userId: string, channelId: string | undefined, tier: Tier): Promise<AccessDecision>;
  /** The operations this person may run here (help shows only these). */
  allowed(userId: string, channelId: string | undefined, ops: readonly AnyOperation[]): Promise<AnyOperation[]>;
  /** Whether this operation needs a second admin's approval (CLOUD_APPROVAL=destroy). */
  needsApproval(op: AnyOperation): boolean;
  /** True when no role list is configured (everyone is a viewer). */
  unconfigured: boolean;
}

export interface AccessDeps {
  config: AccessConfig;
  policy?: PolicyFile;
  /** Members of a user group (Slack's usergroups.users.list). */
  groupMembers: (groupId: string) => Promise<string[]>;
  clock: Clock;
  logger: Logger;
  /** How long group members are cached (default 60 s). */
  cacheMs?: number;
}

type Lists = Record<Role, readonly string[]>;

export function createAccess(deps: AccessDeps): Access {
  const cacheMs = deps.cacheMs ?? 60_000;
  const cache = new Map<string, { at: number; members: Promise<Set<string>> }>();
  const global: Lists = { admin: deps.config.admins, operator: deps.config.operators, viewer: deps.config.viewers ?? [] };
  const perChannel = new Map<string, Lists>(
    Object.entries(deps.policy?.channels ?? {}).map(([id, r]) => [id, { admin: r.admins, operator: r.operators, viewer: r.viewers }]),
  );
  const unconfigured =
    !deps.config.admins.length && !deps.config.operators.length && deps.config.viewers === undefined && perChannel.size === 0;

  function members(groupId: string): Promise<Set<string>> {
    const now = deps.clock.now();
    const hit = cache.get(groupId);
    if (hit && now - hit.at < cacheMs) return hit.members;
    const members = deps.groupMembers(groupId).then(
      (ids) => new Set(ids),
      (error: unknown) => {
        deps.logger.warn('could not read a user group; it grants nothing until it can be read', { group: groupId, error });
        cache.delete(groupId);
        return new Set<string>();
      },
    );
    cache.set(groupId, { at: now, members });
    return members;
  }

  async function listed(userId: string, list: readonly string[]): Promise<boolean> {
    if (list.includes(userId)) return true;
    for (const id of list) if (id.startsWith('S') && (await members(id)).has(userId)) return true;
    return false;
  }

  async function highestIn(userId: string, lists: Lists): Promise<Role | undefined> {
    for (const role of [...ROLES].reverse()) if (await listed(userId, lists[role])) return role;
    return undefined;
  }

  async function roleOf(userId: string, channelId?: string): Promise<Role | undefined> {
    const channelLists = channelId ? perChannel.get(channelId) : undefined;
    const found = higher(await highestIn(userId, global), channelLists ? await highestIn(userId, channelLists) : undefined);
    if (found) return found;
    // On no list: a viewer, unless CLOUD_VIEWERS names the viewers.
    return deps.config.viewers === undefined ? 'viewer' : undefined;
  }

  async function check(userId: string, channelId: string | undefined, tier: Tier): Promise<AccessDecision> {
    const channels = deps.config.channels;
    if (channels?.length && (!channelId || !channels.includes(channelId))) return { ok: false, reason: 'channel', channels };
    const role = await roleOf(userId, channelId);
    if (covers(role, tier)) return { ok: true, role: role! };
    return { ok: false, reason: 'role', role, needed: roleNeeded(tier) };
  }

  return {
    roleOf,
    check,
    unconfigured,
    async allowed(userId, channelId, ops) {
      const channels = deps.config.channels;
      if (channels?.length && (!channelId || !channels.includes(channelId))) return [];
      const role = await roleOf(userId, channelId);
      return ops.filter((op) => covers(role, op.tier));
    },
    needsApproval: (op) => deps.config.approval === 'destroy' && op.tier === 'destroy',
  };
}
