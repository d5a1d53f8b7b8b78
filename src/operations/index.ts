/**
 * THE CATALOG. Every operation the bot offers is listed here, once; the router, help, access
 * checks, confirmation and audit read it.
 */
import { createCatalog, type ResourceInfo } from './catalog.js';
import {
  accountInvoices,
  accountUsage,
  backupList,
  ipSubnets,
  planList,
  sgShow,
  sshKeyList,
} from './entries/other-reads.js';
import { serverReinstall, serverRemoveIp, serverRename } from './entries/server-changes.js';
import { serverCredentials, serverIps, serverStatus } from './entries/server-reads.js';
import { sshKeyDelete } from './entries/ssh-key-changes.js';
import { workerLocations, workerRequirements, workerStatus, workerTemplates } from './entries/worker-reads.js';
import { ENTRIES as BACKUP_SG_CHANGES } from './entries/backup-sg-changes.js';
import { ENTRIES as IP_WORKER_CHANGES } from './entries/ip-worker-changes.js';
import { watchCancel, watchList } from './entries/watch-ops.js';
import { auditList } from './entries/audit-ops.js';
import { policyShow } from './entries/policy-ops.js';
import { SUBSCRIPTION_OPS } from './entries/subscription-ops.js';
import { ALIAS_OPS } from './entries/alias-ops.js';
import { KNOWN_OPS } from './entries/known-ops.js';
import type { AnyOperation } from './types.js';
import { WATCH_KINDS } from './watch-kinds.js';

export const RESOURCES: ResourceInfo[] = [
  {
    name: 'server',
    title: 'Servers',
    aliases: ['servers', 'srv', 'vm'],
    notOffered: [{ verbs: ['list', 'ls'], what: 'list servers', instead: 'The provider’s panel lists them; `/cloud server known` shows those the bot has seen on this account.' }],
  },
  { name: 'backup', title: 'Backups', aliases: ['backups'] },
  {
    name: 'ip',
    title: 'Reserved IPs',
    aliases: ['ips', 'reserved-ip', 'reserved-ips'],
    notOffered: [{ verbs: ['release', 'unreserve', 'delete'], what: 'release a reserved IP', instead: 'Release it in the provider’s panel.' }],
  },
  { name: 'worker', title: 'Workers', aliases: ['workers', 'app', 'apps'] },
  { name: 'sg', title: 'Security groups and firewall rules', aliases: ['firewall', 'fw', 'security-group', 'security-groups'] },
  {
    name: 'ssh-key',
    title: 'SSH keys',
    aliases: ['ssh-keys', 'keys', 'key', 'ssh'],
    notOffered: [{ verbs: ['create', 'add', 'new', 'import', 'upload'], what: 'create SSH keys', instead: 'Add the key in the provider’s panel; `/cloud ssh-key list` then shows it.' }],
  },
  { name: 'plan', title: 'Plans', aliases: ['plans'] },
  { name: 'account', title: 'Account', aliases: ['acct', 'billing'] },
  { name: 'watch', title: 'Watches (builds and reinstalls followed in threads)', aliases: ['watches'] },
  { name: 'audit', title: 'Audit trail', aliases: [], defaultVerb: 'list' },
  { name: 'subscribe', title: 'Alerts in this channel: subscribe to a server, a worker, usage, invoices or a daily digest', aliases: ['sub'] },
  { name: 'subscriptions', title: 'This channel’s subscriptions', aliases: [], defaultVerb: 'list' },
  { name: 'unsubscribe', title: 'Stop a subscription', aliases: ['unsub'], defaultVerb: 'remove' },
  { name: 'mute', title: 'Mute a subscription for a while', aliases: ['snooze'], defaultVerb: 'set' },
  { name: 'policy', title: 'Access policy (accounts, channel guardrails, roles)', aliases: ['policies'], defaultVerb: 'show' },
  // `/cloud alias NAME = …` saves one (alias-grammar.ts reads the `=`); bare, it lists them.
  { name: 'alias', title: 'Aliases: commands saved under a word in this channel', aliases: ['aliases'], defaultVerb: 'list' },
];

export const OPERATIONS: AnyOperation[] = [
  serverStatus,
  serverCredentials,
  serverIps,
  serverRename,
  serverReinstall,
  serverRemoveIp,
  backupList,
  ipSubnets,
  workerRequirements,
  workerLocations,
  workerTemplates,
  workerStatus,
  sgShow,
  sshKeyList,
  sshKeyDelete,
  planList,
  accountUsage,
  accountInvoices,
  ...KNOWN_OPS,
  ...BACKUP_SG_CHANGES,
  ...IP_WORKER_CHANGES,
  watchList,
  watchCancel,
  auditList,
  policyShow,
  ...SUBSCRIPTION_OPS,
  ...ALIAS_OPS,
];

export const catalog = createCatalog(RESOURCES, OPERATIONS, WATCH_KINDS);
export type { Catalog } from './catalog.js';
