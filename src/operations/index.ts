/**
 * THE CATALOG. Every operation the bot offers is listed here, once; the router, help, access
 * checks, confirmation and audit read it.
 */
import { createCatalog, type ResourceInfo } from './catalog.js';
import { ALIAS_OPS } from './entries/alias-ops.js';
import { SCHEDULE_OPS } from './entries/schedule-ops.js';
import { SCHEDULE_CONFIRM_OPS } from './entries/schedule-confirm.js';
import { AUDIT_OPS } from './entries/audit-ops.js';
import { BACKUP_CHANGES } from './entries/backup-changes.js';
import { IP_RESERVE } from './entries/ip-reserve.js';
import { KNOWN_OPS } from './entries/known-ops.js';
import { OTHER_READS } from './entries/other-reads.js';
import { POLICY_OPS } from './entries/policy-ops.js';
import { SERVER_CHANGES } from './entries/server-changes.js';
import { SERVER_READS } from './entries/server-reads.js';
import { SG_CHANGES } from './entries/sg-changes.js';
import { SSH_KEY_CHANGES } from './entries/ssh-key-changes.js';
import { SUBSCRIPTION_OPS } from './entries/subscription-ops.js';
import { MAINTENANCE_OPS } from './entries/maintenance-ops.js';
import { WATCH_OPS } from './entries/watch-ops.js';
import { WORKER_DEPLOY } from './entries/worker-deploy.js';
import { WORKER_READS } from './entries/worker-reads.js';
import type { AnyOperation } from './types.js';
import { WATCH_KINDS } from './watch-kinds.js';
import { notOfferedFor } from './not-offered.js';

export const RESOURCES: ResourceInfo[] = [
  { name: 'server', title: 'Servers', aliases: ['servers', 'srv', 'vm'], ...notOfferedFor('server') },
  { name: 'backup', title: 'Backups', aliases: ['backups'], ...notOfferedFor('backup') },
  { name: 'ip', title: 'Reserved IPs', aliases: ['ips', 'reserved-ip', 'reserved-ips'], ...notOfferedFor('ip') },
  { name: 'worker', title: 'Workers', aliases: ['workers', 'app', 'apps'], ...notOfferedFor('worker') },
  { name: 'sg', title: 'Security groups and firewall rules', aliases: ['firewall', 'fw', 'security-group', 'security-groups'], ...notOfferedFor('sg') },
  { name: 'ssh-key', title: 'SSH keys', aliases: ['ssh-keys', 'keys', 'key', 'ssh'], ...notOfferedFor('ssh-key') },
  { name: 'plan', title: 'Plans', aliases: ['plans'] },
  { name: 'account', title: 'Account', aliases: ['acct', 'billing'] },
  { name: 'watch', title: 'Watches (builds and reinstalls followed in threads)', aliases: ['watches'] },
  { name: 'audit', title: 'Audit trail', aliases: [], defaultVerb: 'list' },
  { name: 'subscribe', title: 'Alerts in this channel: subscribe to a server, a worker, usage, invoices or a daily digest', aliases: ['sub'] },
  { name: 'subscriptions', title: 'This channel’s subscriptions', aliases: [], defaultVerb: 'list' },
  { name: 'unsubscribe', title: 'Stop a subscription', aliases: ['unsub'], defaultVerb: 'remove' },
  { name: 'mute', title: 'Mute a subscription for a while', aliases: ['snooze'], defaultVerb: 'set' },
  { name: 'maintenance', title: 'Maintenance windows: alerts held back during planned work, then one summary', aliases: ['maint'] },
  { name: 'policy', title: 'Access policy (accounts, channel guardrails, roles)', aliases: ['policies'], defaultVerb: 'show' },
  // `/cloud alias NAME = …` saves one (alias-grammar.ts reads the `=`); bare, it lists them.
  { name: 'alias', title: 'Aliases: commands saved under a word in this channel', aliases: ['aliases'], defaultVerb: 'list' },
  // `/cloud schedule "<command>" <when>` adds one (the quoted command is no verb); `/cloud schedules` lists them.
  { name: 'schedule', title: 'Schedules: a command run later or repeatedly, as you', aliases: [], defaultVerb: 'create' },
  { name: 'schedules', title: 'This channel’s schedules', aliases: [], defaultVerb: 'list' },
];

/**
 * Every entries file exports its operations as one array, listed here once. A resource's
 * commands show in help in this order.
 */
export const OPERATIONS: AnyOperation[] = [
  ...SERVER_READS,
  ...SERVER_CHANGES,
  ...OTHER_READS,
  ...WORKER_READS,
  ...SSH_KEY_CHANGES,
  ...KNOWN_OPS,
  ...BACKUP_CHANGES,
  ...SG_CHANGES,
  ...IP_RESERVE,
  ...WORKER_DEPLOY,
  ...WATCH_OPS,
  ...AUDIT_OPS,
  ...POLICY_OPS,
  ...SUBSCRIPTION_OPS,
  ...MAINTENANCE_OPS,
  ...ALIAS_OPS,
  ...SCHEDULE_OPS,
  ...SCHEDULE_CONFIRM_OPS,
];

export const catalog = createCatalog(RESOURCES, OPERATIONS, WATCH_KINDS);
export type { Catalog } from './catalog.js';
