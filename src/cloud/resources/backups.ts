/** Backups of a server ("Endpoints › Backups"). */
import type { CloudClient } from '../cloud-client.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { path, positiveInt, serverId, uuid } from '../ids.js';
import { fetchPage, iteratePages } from '../paginate.js';
import type { CreateBackupBody } from '../requests.js';
import { Backup } from '../schemas.js';

export function createBackups(t: Transport): CloudClient['backups'] {
  return {
    async create(server, body: CreateBackupBody, opts) {
      const id = serverId(server);
      const res = await t.send({ method: 'POST', path: path`/servers/${id}/backups`, body, signal: opts?.signal });
      return readData(res, Backup);
    },
    async list(server, query) {
      const id = serverId(server);
      const page = query?.page === undefined ? undefined : positiveInt(query.page, 'page number');
      return fetchPage(t, path`/servers/${id}/backups`, Backup, { page }, query?.signal);
    },
    async *all(server, opts) {
      const p = path`/servers/${serverId(server)}/backups`;
      yield* iteratePages((page) => fetchPage(t, p, Backup, { page }, opts?.signal), `GET ${p}`);
    },
    async delete(server, backupUuid, opts) {
      const id = serverId(server);
      const backup = uuid(backupUuid);
      await t.send({ method: 'DELETE', path: path`/servers/${id}/backups/${backup}`, signal: opts?.signal, expectBody: false });
    },
  };
}
