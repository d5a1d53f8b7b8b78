/**
 * The effective policy: the environment's role lists and channel allowlist, combined with the
 * policy file's accounts and per-channel rules, in one immutable value. Access decisions
 * (decide.ts), `/cloud policy` and the reload diff all read this; nothing else interprets the
 * file. Each rule keeps the place it came from, so a refusal can name it.
 */
import type { AccessConfig, CloudConfig } from '../config.js';
import type { Tier } from '../domain/tier.js';
import { inventoryItems, type InventoryItem } from './inventory.js';
import { PolicyFileError, type GuardrailInput, type PolicyFile } from './policy-file.js';
import type { Role } from '../domain/access-verdict.js';

/** The account a lone CLOUD_API_BASE_URL / CLOUD_API_TOKEN pair becomes. */
export const DEFAULT_ACCOUNT = 'default';

export interface AccountRule {
  name: string;
  baseUrl: string;
  /** Where its token comes from (the variable's name, never its value). */
  tokenEnv: string;
  /** Tiers this account allows from any channel; undefined: all. */
  ceiling: Tier[] | undefined;
  approval: Tier[];
  /** Named servers, groups and workers the file declares for it. */
  inventory: InventoryItem[];
}

export type RoleLists = Record<Role, readonly string[]>;

export interface ChannelRule {
  /** `channels.C0PROD` or `default_channel`: how refusals and `/cloud policy` name it. */
  key: string;
  label: string | undefined;
  account: string;
  /** Accounts `--account` may choose here; always includes `account`. */
  accounts: string[];
  /** Tiers anyone may act on here; undefined: no ceiling. */
  ceiling: Tier[] | undefined;
  approval: Tier[];
  /** How long a confirmed destroy waits here for an Undo (ms); 0: sent at once. */
  undoDelayMs: number;
  roles: RoleLists;
}

export interface Policy {
  /** `ACCESS_POLICY (path)` or `environment`: named in refusals and audit entries. */
  source: string;
  /** The file declares accounts: every message names the account it acted on. */
  namedAccounts: boolean;
  accounts: Record<string, AccountRule>;
  defaultAccount: string;
  channels: Record<string, ChannelRule>;
  /** Rules for channels the file does not list; `deny` refuses them. */
  defaultChannel: ChannelRule | 'deny';
  /** From the environment: CLOUD_ADMINS / CLOUD_OPERATORS / CLOUD_VIEWERS. */
  roles: RoleLists;
  /** Who set `roles` when not the environment (AccessConfig.rolesFrom): named instead of CLOUD_ADMINS. */
  rolesFrom?: string;
  /** CLOUD_VIEWERS set: someone on no list has no role at all. */
  viewersListed: boolean;
  /** CLOUD_CHANNELS: commands only in these channels. */
  allowlist: string[] | undefined;
  /** CLOUD_APPROVAL=destroy. */
  approval: Tier[];
}

export interface PolicyInput {
  access: AccessConfig;
  /** The environment's single account (CLOUD_API_BASE_URL / CLOUD_API_TOKEN), when set. */
  cloud: CloudConfig | undefined;
  file?: PolicyFile;
  /** The file's path, for messages. */
  path?: string;
}

const NO_ROLES: RoleLists = { admin: [], operator: [], viewer: [] };

/** Builds the effective policy; throws PolicyFileError when no account is left to use. */
export function buildPolicy(input: PolicyInput): Policy {
  const { access, cloud, file } = input;
  const source = input.path ? `ACCESS_POLICY (${input.path})` : 'environment';
  const declared = Object.entries(file?.accounts ?? {});
  const accounts: Record<string, AccountRule> = {};
  for (const [name, a] of declared) {
    accounts[name] = {
      name,
      baseUrl: a.base_url.trim().replace(/\/+$/, ''),
      tokenEnv: a.token_env,
      ceiling: a.ceiling,
      approval: a.approval ?? [],
      inventory: inventoryItems(a.inventory),
    };
  }
  if (!declared.length) {
    if (!cloud) throw new PolicyFileError(`CLOUD_API_BASE_URL and CLOUD_API_TOKEN are required unless ${source} declares accounts`);
    accounts[DEFAULT_ACCOUNT] = { name: DEFAULT_ACCOUNT, baseUrl: cloud.baseUrl, tokenEnv: 'CLOUD_API_TOKEN', ceiling: undefined, approval: [], inventory: [] };
  }
  const names = Object.keys(accounts);
  const fallback = file?.default_channel && file.default_channel !== 'deny' ? file.default_channel.account : undefined;
  const defaultAccount = file?.default_account ?? fallback ?? names[0]!;
  const rule = (key: string, g: GuardrailInput, extra: { label?: string | undefined; roles?: RoleLists } = {}): ChannelRule => {
    const account = g.account ?? defaultAccount;
    return {
      key,
      label: extra.label,
      account,
      accounts: [...new Set([account, ...(g.accounts ?? [])])],
      ceiling: g.ceiling,
      approval: g.approval ?? [],
      // The channel's own delay, else the file's for the whole bot.
      undoDelayMs: g.undo_delay ?? file?.undo_delay ?? 0,
      roles: extra.roles ?? NO_ROLES,
    };
  };
  const channels = Object.fromEntries(
    Object.entries(file?.channels ?? {}).map(([id, c]) => [
      id,
      rule(`channels.${id}`, c, { label: c.name, roles: { admin: c.admins, operator: c.operators, viewer: c.viewers } }),
    ]),
  );
  return {
    source,
    namedAccounts: declared.length > 0,
    accounts,
    defaultAccount,
    channels,
    defaultChannel: file?.default_channel === 'deny' ? 'deny' : rule('default_channel', file?.default_channel ?? {}),
    roles: { admin: access.admins, operator: access.operators, viewer: access.viewers ?? [] },
    viewersListed: access.viewers !== undefined,
    ...(access.rolesFrom ? { rolesFrom: access.rolesFrom } : {}),
    allowlist: access.channels,
    approval: access.approval === 'destroy' ? ['destroy'] : [],
  };
}

/** The channel's rule: its own, else default_channel's (`deny` when it refuses unlisted channels). */
export function channelRule(policy: Policy, channelId: string | undefined): ChannelRule | 'deny' {
  return (channelId && policy.channels[channelId]) || policy.defaultChannel;
}

/** Whether any role list is configured (else everyone is a viewer, and start-up says so). */
export function rolesConfigured(policy: Policy): boolean {
  const any = (r: RoleLists) => r.admin.length + r.operator.length + r.viewer.length > 0;
  return any(policy.roles) || policy.viewersListed || Object.values(policy.channels).some((c) => any(c.roles));
}

