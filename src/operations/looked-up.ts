/**
 * What an operation looked up by id, so a NOT_FOUND can name it and the command that lists such
 * things (views/cloud-error-text.ts): read from the operation's own arguments.
 */
import type { LookedUp } from '../views/cloud-error-text.js';
import type { AnyOperation, ArgSpec } from './types.js';

const SEEN = (kind: string, plural: string): Omit<LookedUp, 'value'> => ({
  what: kind === 'sg' ? 'security group' : kind,
  listedBy: `/cloud ${kind} known`,
  lists: `lists the ${plural} the bot has seen`,
});

export function lookedUp(op: AnyOperation, args: Record<string, unknown>): LookedUp[] {
  const out: LookedUp[] = [];
  const given = (name: string) => (args[name] === undefined || args[name] === null ? undefined : String(args[name]));
  for (const [name, spec] of Object.entries(op.args) as [string, ArgSpec][]) {
    const value = given(name);
    if (spec.kind !== 'positional' || value === undefined) continue;
    const about = describe(op, name, spec, given);
    if (about) out.push({ ...about, value });
  }
  return out;
}

function describe(op: AnyOperation, name: string, spec: ArgSpec, given: (n: string) => string | undefined): Omit<LookedUp, 'value'> | undefined {
  switch (spec.placeholder) {
    case 'server':
    case 'server-uuid':
      return SEEN('server', 'servers');
    case 'worker-uuid':
      return SEEN('worker', 'workers');
    case 'backup-uuid':
      return { what: 'backup', listedBy: `/cloud backup list ${given('server') ?? '<server>'}`, lists: 'lists its backups' };
    case 'rule-id':
      return { what: 'firewall rule', listedBy: `/cloud sg show ${given('id') ?? '<id>'}`, lists: 'lists its rules' };
    case 'address':
      return { what: 'address', listedBy: `/cloud server ips ${given('server') ?? '<server>'}`, lists: 'lists the server’s addresses' };
  }
  if (name !== 'id') return undefined;
  if (op.resource === 'sg') return SEEN('sg', 'security groups');
  if (op.resource === 'ssh-key') return { what: 'SSH key', listedBy: '/cloud ssh-key list', lists: 'lists the account’s SSH keys' };
  return undefined;
}
