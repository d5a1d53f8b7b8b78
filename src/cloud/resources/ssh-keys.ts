/** SSH keys ("Endpoints › SSH keys"; the list is referenced, its shape from provider notes). */
import type { CloudClient } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import type { Transport } from '../http.js';
import { collectList } from '../paginate.js';
import { SshKey } from '../schemas.js';

export function createSshKeys(t: Transport): CloudClient['sshKeys'] {
  return {
    list: (opts) => collectList(t, buildRequest('sshKeys.list', {}).path, SshKey, opts?.signal),
    async delete(id, opts) {
      await t.send({ ...buildRequest('sshKeys.delete', { id }), signal: opts?.signal, expectBody: false });
    },
  };
}
