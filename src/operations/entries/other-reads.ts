/** Reads of backups, reserved-IP subnets, security groups, SSH keys, plans and the account. */
import { buildInvoices, buildUsage } from '../../views/account-views.js';
import { buildBackupList } from '../../views/backup-views.js';
import { buildSubnets } from '../../views/ip-views.js';
import { buildPager } from '../../views/pager.js';
import { buildPlans } from '../../views/plan-views.js';
import { buildSecurityGroup } from '../../views/sg-views.js';
import { buildSshKey, buildSshKeys } from '../../views/ssh-key-views.js';
import { groupArg, locationFlag, serverArg, sshKeyIdArg } from '../args.js';
import { defineOperation, pageFlag, defineRead, defineListRead, definePagedListRead } from '../define.js';
import { groupSeen, serverSeen } from '../remember.js';

export const backupList = defineRead({
  id: 'backup.list',
  summary: 'Backups of a server with size, state and lock',
  args: { server: serverArg, page: pageFlag },
  pageArg: 'page',
  run: ({ cloud, signal }, { server, page }) => cloud.backups.list(server, { page: page ?? 1, signal }),
  remember: (_r, { server }) => serverSeen(server),
  render: (result, args, view) =>
    buildBackupList(args.server, result, view, buildPager('backup.list', args, 'page', result.meta, 'backups', view.account)),
});

export const ipSubnets = definePagedListRead('ip.subnets', 'Subnets you can reserve IPs from, with free addresses and price', (cloud, o) => cloud.reservedIps.subnets(o), (s, v) =>
  buildSubnets(s, v.pages),
);

export const sgShow = defineRead({
  id: 'sg.show',
  summary: 'A security group: its rules in the order they apply, and attached servers',
  args: { id: groupArg, page: pageFlag },
  pageArg: 'page',
  run: ({ cloud, signal }, { id }) => cloud.securityGroups.get(id, { signal }),
  remember: (group) => groupSeen(group),
  render: (group, _args, view) => buildSecurityGroup(group, view.pages),
});

export const sshKeyList = definePagedListRead('ssh-key.list', 'SSH keys saved in the account', (cloud, o) => cloud.sshKeys.list(o), buildSshKeys);

// The API has no GET /ssh-keys/{id} (spec: DELETE only): one key is read from the list.
export const sshKeyShow = defineRead({
  id: 'ssh-key.show',
  summary: 'One SSH key: its name, full public key and when it was added',
  args: { id: sshKeyIdArg },
  run: async ({ cloud, signal }, { id }) => ({ id, key: (await cloud.sshKeys.list({ signal })).find((k) => k.id === id) }),
  render: (result, _args, view) => buildSshKey(result.id, result.key, view),
});

export const planList = defineRead({
  id: 'plan.list',
  summary: 'Plans by monthly price; with --location, availability there',
  args: { location: locationFlag, page: pageFlag },
  pageArg: 'page',
  run: ({ cloud, signal }, { location, page }) =>
    cloud.plans.list({ page: page ?? 1, signal, ...(location !== undefined ? { location_id: location } : {}) }),
  render: (result, args, view) => buildPlans(result, args.location, buildPager('plan.list', args, 'page', result.meta, 'plans', view.account)),
});

export const accountUsage = defineListRead('account.usage', 'What the account uses against its limits: servers, CPU, memory, disk, IPs', (cloud, o) => cloud.account.usage(o), buildUsage);

export const accountInvoices = defineOperation({
  id: 'account.invoices',
  summary: 'Invoices, most recent first',
  tier: 'billing',
  mutates: false,
  args: { page: pageFlag },
  pageArg: 'page',
  run: ({ cloud, signal }, { page }) => cloud.account.invoices({ page: page ?? 1, signal }),
  render: (result, args, view) => buildInvoices(result, view, buildPager('account.invoices', args, 'page', result.meta, 'invoices', view.account)),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const OTHER_READS = [backupList, ipSubnets, sgShow, sshKeyList, sshKeyShow, planList, accountUsage, accountInvoices];
