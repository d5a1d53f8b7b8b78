/** Workers ("Endpoints › Workers"; locations, templates and status are "Referenced operations"). */
import { z } from 'zod';
import type { CloudClient } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { uuid } from '../ids.js';
import { collectList } from '../paginate.js';
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
      const res = await t.send({ ...buildRequest('workers.requirements', {}), signal: opts?.signal });
      return readData(res, DeployRequirements);
    },
    async deploy(body, opts) {
      const res = await t.send({ ...buildRequest('workers.deploy', {}, body), signal: opts?.signal });
      return readData(res, Worker);
    },
    locations: (opts) => collectList(t, buildRequest('workers.locations', {}).path, WorkerLocation, opts?.signal),
    templates: (opts) => collectList(t, buildRequest('workers.templates', {}).path, WorkerTemplate, opts?.signal),
    async status(worker, opts) {
      const id = uuid(worker);
      const res = await t.send({ ...buildRequest('workers.status', { worker: id }), signal: opts?.signal });
      return readData(res, workerStatusOf(id));
    },
  };
}
