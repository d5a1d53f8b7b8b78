/** Backups of a server ("Endpoints › Backups"). */
import type { CloudClient } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { positiveInt } from '../ids.js';
import { fetchPage, iteratePages } from '../paginate.js';
import { Backup } from '../schemas.js';

export function createBackups(t: Transport): CloudClient['backups'] {
  return {
    async create(server, body, opts) {
      const res = await t.send({ ...buildRequest('backups.create', { server }, body), signal: opts?.signal });
      return readData(res, Backup);
    },
    async list(server, query) {
      const p = buildRequest('backups.list', { server }).path;
      const page = query?.page === undefined ? undefined : positiveInt(query.page, 'page number');
      return fetchPage(t, p, Backup, { page }, query?.signal);
    },
    async *all(server, opts) {
      const p = buildRequest('backups.list', { server }).path;
      yield* iteratePages((page) => fetchPage(t, p, Backup, { page }, opts?.signal), `GET ${p}`);
    },
    async delete(server, backup, opts) {
      await t.send({ ...buildRequest('backups.delete', { server, backup }), signal: opts?.signal, expectBody: false });
    },
  };
}
