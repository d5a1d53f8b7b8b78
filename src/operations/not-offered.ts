/**
 * What the Cloud API v2 has no endpoint for (cloud-api-v2.md's endpoint list), by the verbs a
 * person would try: `/cloud server delete 101` is answered that the provider's API cannot, and
 * where it is done instead, rather than "server has no delete" or a guess at a near verb.
 * One table, read by the catalog's resources (index.ts) and through them by help.
 */
import type { NotOffered } from './catalog.js';

const TABLE: readonly (NotOffered & { resource: string })[] = [
  { resource: 'server', verbs: ['list', 'ls'], what: 'list servers', instead: 'The provider’s panel lists them; `/cloud server known` shows those the bot has seen on this account.' },
  { resource: 'server', verbs: ['create', 'new', 'order'], what: 'create servers', instead: 'Order one in the provider’s panel.' },
  { resource: 'server', verbs: ['delete', 'destroy', 'remove', 'terminate', 'cancel'], what: 'delete servers', instead: 'Cancel it in the provider’s panel.' },
  { resource: 'server', verbs: ['reboot', 'restart', 'start', 'stop', 'shutdown', 'power', 'power-on', 'power-off'], what: 'power a server on or off', instead: 'Use the provider’s panel; `/cloud server status` shows its power state.' },
  { resource: 'server', verbs: ['resize', 'upgrade', 'downgrade'], what: 'resize servers', instead: 'Change the plan in the provider’s panel.' },
  { resource: 'backup', verbs: ['restore'], what: 'restore backups', instead: 'Restore it in the provider’s panel; `/cloud backup list` shows its uuid.' },
  { resource: 'ip', verbs: ['release', 'unreserve', 'delete'], what: 'release a reserved IP', instead: 'Release it in the provider’s panel.' },
  { resource: 'ip', verbs: ['list', 'ls'], what: 'list reserved IPs', instead: 'The provider’s panel lists them; `/cloud server ips` shows a server’s addresses.' },
  { resource: 'worker', verbs: ['list', 'ls'], what: 'list workers', instead: 'The provider’s panel lists them; `/cloud worker known` shows those the bot has seen on this account.' },
  { resource: 'worker', verbs: ['delete', 'destroy', 'remove'], what: 'delete workers', instead: 'Delete it in the provider’s panel.' },
  { resource: 'sg', verbs: ['list', 'ls'], what: 'list security groups', instead: 'The provider’s panel lists them; `/cloud sg known` shows those the bot has seen on this account.' },
  { resource: 'sg', verbs: ['create', 'new'], what: 'create security groups', instead: 'Create it in the provider’s panel; `/cloud sg add-rule` then adds its rules.' },
  { resource: 'sg', verbs: ['delete', 'destroy', 'remove'], what: 'delete security groups', instead: 'Delete it in the provider’s panel; `/cloud sg delete-rule` removes one rule.' },
  { resource: 'sg', verbs: ['detach'], what: 'detach a server from a security group', instead: 'Detach it in the provider’s panel.' },
  { resource: 'ssh-key', verbs: ['create', 'add', 'new', 'import', 'upload'], what: 'create SSH keys', instead: 'Add the key in the provider’s panel; `/cloud ssh-key list` then shows it.' },
];

/** A resource's `notOffered` from the table, to spread into its ResourceInfo (nothing when none). */
export function notOfferedFor(resource: string): { notOffered?: NotOffered[] } {
  const rows = TABLE.filter((r) => r.resource === resource).map(({ verbs, what, instead }) => ({ verbs, what, instead }));
  return rows.length ? { notOffered: rows } : {};
}
