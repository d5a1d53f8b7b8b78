/**
 * Changes made "from the provider's panel": things that happen to a resource without the bot
 * asking (issue 13's monitor alerts on them). Reached through the control API and as methods
 * on the Sandbox object, so tests and demos can power a server off or break a worker's build.
 *
 * Values follow the spec's "States and transitions": a server's hypervisor state is `running`
 * or `stopped` (a stopped server's power task is a finished `shutdown`, as the seeded
 * staging-1 shows); a worker is `pending` while it builds (deployment `queued` → `in_progress`),
 * then `active`, or `failed` (the sandbox's failure state; the spec shows none).
 */
import { ApiError, notFound } from './http.js';
import { buildFails } from './lifecycle.js';
import { BUSY_STATUSES, findServer } from './state.js';
import type { SandboxState, ServerState, WorkerState } from './state.js';
import { FieldErrors, bodyObject, bool, int, oneOf, str } from './validate.js';

export const POWER_STATES = ['on', 'off'] as const;
export type PowerChange = (typeof POWER_STATES)[number];

/** `building`: a new deployment starts now; `failed`: the worker fails now; `active`: it is up now. */
export const WORKER_CHANGES = ['building', 'failed', 'active'] as const;
export interface WorkerChange {
  status: (typeof WORKER_CHANGES)[number];
  /** For `building`: whether this build will end `failed` (default: by the repository name). */
  fails?: boolean;
  /** For `building`: how long it takes (default the sandbox's build time). */
  buildMs?: number;
  /** For `failed`: the error the worker reports. */
  error?: string;
}

const DEFAULT_FAILURE = 'Build failed: the deployment was stopped from the panel';

/** Powers a server on or off now; refused while it installs (its install ends powered on). */
export function powerServer(state: SandboxState, id: string | number, change: PowerChange, now: number): ServerState {
  const s = findServer(state, String(id));
  if (!s) throw notFound('Server');
  if (s.status !== null && BUSY_STATUSES.includes(s.status)) {
    throw new ApiError(409, 'SERVER_STATUS_CONFLICT', `Cannot power ${change} while the server is ${s.status}.`, { status: s.status });
  }
  const [action, powerState] = change === 'off' ? ['shutdown', 'stopped'] : ['start', 'running'];
  s.powerState = powerState;
  s.powerTask = {
    action,
    status: 'OK',
    state: powerState,
    upid: `UPID:node-${s.nodeId}:${now.toString(16).toUpperCase()}:qm${action}`,
    message: 'Task finished',
    updatedAt: now,
  };
  return s;
}

/** Moves a worker as the provider would on its own; the lifecycle settles builds lazily as usual. */
export function changeWorker(state: SandboxState, uuid: string, change: WorkerChange, now: number, defaultBuildMs: number): WorkerState {
  const w = state.workers.find((x) => x.uuid === uuid.toLowerCase());
  if (!w) throw notFound('Worker');
  w.updatedAt = now;
  if (change.status === 'building') {
    w.status = 'pending';
    w.lastDeploymentStatus = 'queued';
    w.lastDeploymentAt = now;
    w.lastError = null;
    w.build = { startedAt: now, buildMs: change.buildMs ?? defaultBuildMs, fails: change.fails ?? buildFails(w.gitRepository) };
  } else if (change.status === 'failed') {
    w.build = null;
    w.status = 'failed';
    w.lastDeploymentStatus = 'failed';
    w.lastError = change.error ?? DEFAULT_FAILURE;
    w.runtimeStatus = null;
    w.provisioned = false;
  } else {
    w.build = null;
    w.status = 'active';
    w.lastDeploymentStatus = 'finished';
    w.lastError = null;
    w.runtimeStatus = 'running';
    w.runtimeStatusAt = now;
    w.provisioned = true;
  }
  return w;
}

/** Reads a control request's body into a power change (422 on anything else). */
export function powerBody(body: unknown): PowerChange {
  const errs = new FieldErrors();
  const state = oneOf(bodyObject(body), 'state', errs, POWER_STATES, true);
  errs.throwIfAny();
  return state!;
}

export function workerBody(body: unknown): WorkerChange {
  const b = bodyObject(body);
  const errs = new FieldErrors();
  const status = oneOf(b, 'status', errs, WORKER_CHANGES, true);
  const fails = bool(b, 'fails', errs);
  const buildMs = int(b, 'build_ms', errs, { min: 1 });
  const error = str(b, 'error', errs, { max: 1000 });
  errs.throwIfAny();
  return { status: status!, ...(fails !== undefined ? { fails } : {}), ...(buildMs !== undefined ? { buildMs } : {}), ...(error !== undefined ? { error } : {}) };
}
