/** Workers ("Endpoints › Workers"; locations, templates and status are "Referenced operations"). */
import { z } from 'zod';
import type { CloudClient } from '../cloud-client.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { path, uuid } from '../ids.js';
import { collectList } from '../paginate.js';
import type { DeployWorkerBody } from '../requests.js';
import { DeployRequirements, Worker, WorkerLocation, WorkerTemplate } from '../schemas.js';

/**
 * GET /workers/{worker}/status: shape "not shown". Read as a Worker; when the answer leaves
 * out `uuid` (a bare `{ status }`), the uuid we asked about fills it in.
 */
const workerStatusOf = (worker: string) =>
  z.preprocess(
    (raw) => {
      if (raw === null || typeof raw !== 'object') return raw;
      const record = raw as { uuid?: unknown };
      return { ...record, uuid: record.uuid ?? worker };
    },
    Worker,
  );

export function createWorkers(t: Transport): CloudClient['workers'] {
  return {
    async requirements(opts) {
      const res = await t.send({ method: 'GET', path: '/workers/deploy-requirements', signal: opts?.signal });
      return readData(res, DeployRequirements);
    },
    async deploy(body: DeployWorkerBody, opts) {
      const res = await t.send({ method: 'POST', path: '/workers', body, signal: opts?.signal });
      return readData(res, Worker);
    },
    locations: (opts) => collectList(t, '/workers/locations', WorkerLocation, opts?.signal),
    templates: (opts) => collectList(t, '/workers/templates', WorkerTemplate, opts?.signal),
    async status(worker, opts) {
      const id = uuid(worker);
      const res = await t.send({ method: 'GET', path: path`/workers/${id}/status`, signal: opts?.signal });
      return readData(res, workerStatusOf(id));
    },
  };
}
