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
import type { AnyOperation } from './types.js';
import { WATCH_KINDS } from './watch-kinds.js';

export const RESOURCES: ResourceInfo[] = [
  { name: 'server', title: 'Servers', aliases: ['servers', 'srv', 'vm'] },
  { name: 'backup', title: 'Backups', aliases: ['backups'] },
  { name: 'ip', title: 'Reserved IPs', aliases: ['ips', 'reserved-ip', 'reserved-ips'] },
  { name: 'worker', title: 'Workers', aliases: ['workers', 'app', 'apps'] },
  { name: 'sg', title: 'Security groups and firewall rules', aliases: ['firewall', 'fw', 'security-group', 'security-groups'] },
  { name: 'ssh-key', title: 'SSH keys', aliases: ['ssh-keys', 'keys', 'key', 'ssh'] },
  { name: 'plan', title: 'Plans', aliases: ['plans'] },
  { name: 'account', title: 'Account', aliases: ['acct', 'billing'] },
  { name: 'watch', title: 'Watches (builds and reinstalls followed in threads)', aliases: ['watches'] },
  { name: 'audit', title: 'Audit trail', aliases: [], defaultVerb: 'list' },
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
  ...BACKUP_SG_CHANGES,
  ...IP_WORKER_CHANGES,
  watchList,
  watchCancel,
  auditList,
];

export const catalog = createCatalog(RESOURCES, OPERATIONS, WATCH_KINDS);
export type { Catalog } from './catalog.js';
