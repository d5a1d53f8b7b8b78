/** SSH keys ("Endpoints › SSH keys"; the list is referenced, its shape from provider notes). */
import type { CloudClient } from '../cloud-client.js';
import type { Transport } from '../http.js';
import { path, positiveInt } from '../ids.js';
import { collectList } from '../paginate.js';
import { SshKey } from '../schemas.js';

export function createSshKeys(t: Transport): CloudClient['sshKeys'] {
  return {
    list: (opts) => collectList(t, '/ssh-keys', SshKey, opts?.signal),
    async delete(id, opts) {
      const p = path`/ssh-keys/${positiveInt(id, 'SSH key id')}`;
      await t.send({ method: 'DELETE', path: p, signal: opts?.signal, expectBody: false });
    },
  };
}
