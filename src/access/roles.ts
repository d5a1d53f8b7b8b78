/**
 * Roles and the tiers they may act on (issue: access control). A tier says what an operation
 * can do; a role says what a person may do.
 */
import type { Tier } from '../domain/tier.js';
import type { Role, UnreadGroup } from '../domain/access-verdict.js';

export const ROLES: readonly Role[] = ['viewer', 'operator', 'admin'];

const TIERS: Record<Role, readonly Tier[]> = {
  viewer: ['read'],
  operator: ['read', 'change'],
  admin: ['read', 'change', 'billing', 'destroy', 'secret'],
};

export function covers(role: Role | undefined, tier: Tier): boolean {
  return role !== undefined && TIERS[role].includes(tier);
}

/** The least role that may act on a tier. */
export function roleNeeded(tier: Tier): Role {
  return ROLES.find((r) => TIERS[r].includes(tier))!;
}

/** The user groups, each once, among those that could not be read, that would give a role `enough` says suffices. */
export function groupsThatCouldGive(unread: readonly UnreadGroup[], enough: (role: Role) => boolean): string[] {
  return [...new Set(unread.filter((u) => enough(u.role)).map((u) => u.group))];
}

export function higher(a: Role | undefined, b: Role | undefined): Role | undefined {
  if (!a) return b;
  if (!b) return a;
  return ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b;
}
