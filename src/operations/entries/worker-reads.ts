/** Reads about workers: whether one can be deployed, where, from what, and how one is doing. */
import { buildLocations, buildRequirements, buildTemplates, buildWorkerStatus } from '../../views/worker-views.js';
import { workerArg } from '../args.js';
import { switchFlag, defineRead } from '../define.js';
import { workerSeen } from '../remember.js';

export const workerRequirements = defineRead({
  id: 'worker.requirements',
  summary: 'Balance and worker slots needed to deploy a worker now',
  run: ({ cloud, signal }) => cloud.workers.requirements({ signal }),
  render: (r) => buildRequirements(r),
});

export const workerLocations = defineRead({
  id: 'worker.locations',
  summary: 'Locations workers can be deployed to, out-of-stock ones marked',
  run: ({ cloud, signal }) => cloud.workers.locations({ signal }),
  render: (locations) => buildLocations(locations),
});

export const workerTemplates = defineRead({
  id: 'worker.templates',
  summary: 'Templates and databases a worker can be deployed from',
  run: ({ cloud, signal }) => cloud.workers.templates({ signal }),
  render: (templates) => buildTemplates(templates),
});

export const workerStatus = defineRead({
  id: 'worker.status',
  summary: 'Build and runtime state of a worker, its address and last error',
  args: { worker: workerArg, watch: switchFlag('follow the build in the channel until it is done') },
  watchable: ({ worker }) => ({ kind: 'worker', resource: worker }),
  run: ({ cloud, signal }, { worker }) => cloud.workers.status(worker, { signal }),
  remember: (w) => workerSeen(w),
  render: (w, _args, view) => buildWorkerStatus(w, view),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const WORKER_READS = [workerRequirements, workerLocations, workerTemplates, workerStatus];
