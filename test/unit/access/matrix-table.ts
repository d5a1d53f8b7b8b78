/**
 * The table of the role × tier × channel matrix (decide.test.ts, surfaces-matrix.test.ts):
 * two accounts, channels of each kind, and per kind the answer for every role and tier,
 * written out by hand.
 */
import type { PolicyFile } from '../../../src/access/policy-file.js';
import { buildPolicy, type Policy } from '../../../src/access/policy.js';
import type { Role } from '../../../src/domain/access-verdict.js';
import type { AccessConfig } from '../../../src/config.js';
import type { Tier } from '../../../src/domain/tier.js';

export const SOURCE = 'ACCESS_POLICY (policy.yaml)';
/** Role lists for the surfaces (which find a person's role as the bot does); decide() is given the role. */
export const PEOPLE = { none: 'U0NOBODY1', viewer: 'U0VIEWER1', operator: 'U0OPERAT1', admin: 'U0ADMIN01' } as const;
export const ACCESS: AccessConfig = { admins: [PEOPLE.admin], operators: [PEOPLE.operator], viewers: [PEOPLE.viewer], channels: undefined, policyFile: undefined, approval: undefined };
export const ACCOUNTS = {
  prod: { base_url: 'https://prod.example.com/v2', token_env: 'CLOUD_PROD_TOKEN' },
  staging: { base_url: 'https://staging.example.com/v2', token_env: 'CLOUD_STAGING_TOKEN' },
};
export const NO_ROLES = { admins: [], operators: [], viewers: [] };
export const CHANNELS: PolicyFile['channels'] = {
  C0OPEN001: { account: 'prod', ...NO_ROLES },
  C0READ001: { account: 'prod', ceiling: ['read'], ...NO_ROLES },
  C0RDCH001: { account: 'prod', ceiling: ['read', 'change'], ...NO_ROLES },
};
export const UNLISTED = 'C0UNLIST1';

export function policy(file: Partial<PolicyFile> = {}, access: Partial<AccessConfig> = {}): Policy {
  return buildPolicy({
    access: { ...ACCESS, ...access },
    cloud: undefined,
    file: { version: 1, default_account: 'prod', accounts: ACCOUNTS, channels: CHANNELS, ...file },
    path: 'policy.yaml',
  });
}

export const TIERS: Tier[] = ['read', 'change', 'billing', 'destroy', 'secret'];
export type Who = Role | 'none';
export const WHO: Who[] = ['none', 'viewer', 'operator', 'admin'];
export const ROLE_SOURCE: Record<Who, string> = { none: 'CLOUD_VIEWERS', viewer: 'CLOUD_VIEWERS', operator: 'CLOUD_OPERATORS', admin: 'CLOUD_ADMINS' };
export const NEEDED: Record<Tier, Role> = { read: 'viewer', change: 'operator', billing: 'admin', destroy: 'admin', secret: 'admin' };

export interface Kind {
  policy: Policy;
  channel: string;
  /** The rule key a ceiling refusal names. */
  ceilingKey?: string;
  /**
   * Per role, one letter per tier (read, change, billing, destroy, secret):
   * Y allowed · R refused by role · C refused by the channel's ceiling · U unlisted and denied ·
   * L not in CLOUD_CHANNELS.
   */
  grid: Record<Who, string>;
}

export const BY_ROLE_ONLY: Record<Who, string> = { none: 'RRRRR', viewer: 'YRRRR', operator: 'YYRRR', admin: 'YYYYY' };

export const KINDS: Record<string, Kind> = {
  'unlisted, no default_channel': { policy: policy(), channel: UNLISTED, grid: BY_ROLE_ONLY },
  'unlisted, default_channel deny': {
    policy: policy({ default_channel: 'deny' }),
    channel: UNLISTED,
    grid: { none: 'UUUUU', viewer: 'UUUUU', operator: 'UUUUU', admin: 'UUUUU' },
  },
  'listed, no ceiling': { policy: policy({ default_channel: 'deny' }), channel: 'C0OPEN001', grid: BY_ROLE_ONLY },
  'listed, ceiling [read]': {
    policy: policy(),
    channel: 'C0READ001',
    ceilingKey: 'channels.C0READ001.ceiling',
    grid: { none: 'RCCCC', viewer: 'YCCCC', operator: 'YCCCC', admin: 'YCCCC' },
  },
  'listed, ceiling [read, change]': {
    policy: policy(),
    channel: 'C0RDCH001',
    ceilingKey: 'channels.C0RDCH001.ceiling',
    grid: { none: 'RRCCC', viewer: 'YRCCC', operator: 'YYCCC', admin: 'YYCCC' },
  },
  'listed, but CLOUD_CHANNELS excludes it': {
    policy: policy({}, { channels: ['C0READ001'] }),
    channel: 'C0OPEN001',
    grid: { none: 'LLLLL', viewer: 'LLLLL', operator: 'LLLLL', admin: 'LLLLL' },
  },
};
