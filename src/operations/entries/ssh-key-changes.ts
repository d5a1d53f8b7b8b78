/** Removing an SSH key from the account. */
import { PositiveIntSchema } from '../../cloud/ids.js';
import { code } from '../../views/blocks.js';
import { defineOperation, positional } from '../define.js';

export const sshKeyDelete = defineOperation({
  id: 'ssh-key.delete',
  summary: 'Remove an SSH key from the account',
  tier: 'destroy',
  args: { id: positional('id', PositiveIntSchema, 'SSH key id (see /cloud ssh-key list)') },
  run: ({ cloud }, { id }) => cloud.sshKeys.delete(id),
  change: {
    confirm: true,
    async precheck({ cloud }, { id }) {
      const key = (await cloud.sshKeys.list()).find((k) => k.id === id);
      if (!key) return { refuse: `The account has no SSH key ${code(id)}. \`/cloud ssh-key list\` shows them.` };
      return { facts: { name: key.name ?? null } };
    },
    describe: ({ id }, facts) => ({
      title: `Delete SSH key ${id}${facts.name ? ` (${String(facts.name)})` : ''}`,
      lines: ['Servers already set up with it keep it; it can no longer be chosen for new installs.'],
    }),
    request: ({ id }) => ({ method: 'DELETE', path: `/ssh-keys/${id}` }),
    summarize: (_r, { id }) => ({ text: `SSH key ${code(id)} is deleted.` }),
  },
});
