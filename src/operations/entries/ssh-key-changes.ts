/** Removing an SSH key from the account. */
import { md, val } from '../../views/mrkdwn.js';
import { sshKeyIdArg } from '../args.js';
import { defineOperation } from '../define.js';

export const sshKeyDelete = defineOperation({
  id: 'ssh-key.delete',
  summary: 'Remove an SSH key from the account',
  tier: 'destroy',
  args: { id: sshKeyIdArg },
  run: ({ cloud }, { id }) => cloud.sshKeys.delete(id),
  change: {
    confirm: true,
    async precheck({ cloud }, { id }) {
      const key = (await cloud.sshKeys.list()).find((k) => k.id === id);
      if (!key) return { refuse: md`The account has no SSH key ${val(id)}. \`/cloud ssh-key list\` shows them.` };
      return { facts: { name: key.name ?? null } };
    },
    describe: ({ id }, facts) => ({
      title: md`Delete SSH key ${val(id)}${facts.name ? md` (${val(String(facts.name))})` : md``}`,
      lines: [md`Servers already set up with it keep it; it can no longer be chosen for new installs.`],
    }),
    summarize: (_r, { id }) => ({ text: md`SSH key ${val(id)} is deleted.` }),
  },
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const SSH_KEY_CHANGES = [sshKeyDelete];
