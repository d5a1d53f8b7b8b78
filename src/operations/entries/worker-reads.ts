/** Reads about workers: whether one can be deployed, where, from what, and how one is doing. */
import { buildLocations, buildRequirements, buildTemplates, buildWorkerStatus } from '../../views/worker-views.js';
import { workerArg } from '../args.js';
import { switchFlag, defineRead, defineListRead, definePagedListRead } from '../define.js';
import { workerSeen } from '../remember.js';

export const workerRequirements = defineListRead('worker.requirements', 'Balance and worker slots needed to deploy a worker now', (cloud, o) => cloud.workers.requirements(o), buildRequirements);

export const workerLocations = definePagedListRead('worker.locations', 'Locations workers can be deployed to, out-of-stock ones marked', (cloud, o) => cloud.workers.locations(o), (l, v) =>
  buildLocations(l, v.pages),
);

export const workerTemplates = definePagedListRead('worker.templates', 'Templates and databases a worker can be deployed from', (cloud, o) => cloud.workers.templates(o), (t, v) =>
  buildTemplates(t, v.pages),
);

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
