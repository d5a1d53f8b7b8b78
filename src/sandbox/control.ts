/**
 * Control endpoints under /__sandbox/ for demos (same bearer token, not recorded):
 *   POST   /__sandbox/faults         body = Fault (path '^…' = RegExp)      → 201
 *   DELETE /__sandbox/faults                                                → 204
 *   POST   /__sandbox/latency        { ms }                                  → 200
 *   POST   /__sandbox/sync-failures  { count }                               → 200
 *   PATCH  /__sandbox/account        partial account knobs (camelCase)      → 200 account
 *   GET    /__sandbox/requests                                              → 200 recorded requests
 *   POST   /__sandbox/servers/:server/power  { state: 'on' | 'off' }       → 200 server status
 *          (as if from the panel: off → state `stopped`, a finished `shutdown` task; 409 while
 *          the server installs)
 *   PATCH  /__sandbox/workers/:uuid  { status: 'building' | 'failed' | 'active',
 *          fails?, build_ms?, error? }                                      → 200 worker
 *          (building: a new deployment starts now; failed / active: the worker is so now)
 * The last two are also methods of the Sandbox object (powerServer, changeWorker).
 */
import { ApiError, created, noContent, ok } from './http.js';
import type { Reply } from './http.js';
import { faultFromJson } from './faults.js';
import { powerBody, workerBody, type PowerChange, type WorkerChange } from './outside-changes.js';
import type { AccountState } from './state.js';
import type { Fault, RecordedRequest } from './types.js';
import { validationError } from './validate.js';

export interface ControlTarget {
  account: AccountState;
  requests: RecordedRequest[];
  addFault(f: Fault): void;
  clearFaults(): void;
  faultCount(): number;
  setLatency(ms: number): void;
  failNextSyncs(n: number): void;
  powerServer(server: string, state: PowerChange): unknown;
  changeWorker(uuid: string, change: WorkerChange): unknown;
}

function nonNegative(body: unknown, field: string): number {
  const v = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[field] : undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw validationError(field, `The ${field} field must be a number of at least 0.`);
  return v;
}

function patchAccount(account: AccountState, body: unknown): AccountState {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(400, 'BAD_REQUEST', 'The request body must be a JSON object.');
  }
  const knobs = account as unknown as Record<string, unknown>;
  const errors: Record<string, string[]> = {};
  const updates = Object.entries(body as Record<string, unknown>);
  for (const [key, value] of updates) {
    if (!Object.hasOwn(knobs, key)) errors[key] = [`Unknown account knob; known: ${Object.keys(knobs).join(', ')}.`];
    else if (typeof value !== typeof knobs[key]) errors[key] = [`Must be a ${typeof knobs[key]}.`];
  }
  if (Object.keys(errors).length > 0) throw new ApiError(422, 'VALIDATION_ERROR', 'Invalid account knobs.', errors);
  for (const [key, value] of updates) knobs[key] = value;
  return account;
}

/** Answers a control request; `segments` are those after /__sandbox. */
export function control(target: ControlTarget, method: string, segments: string[], body: unknown): Reply {
  const path = segments.join('/');
  const route = `${method} ${path}`;
  const [kind, id, action, ...rest] = segments;
  if (kind === 'servers' && id !== undefined && action === 'power' && rest.length === 0) {
    if (method !== 'POST') throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed here.`);
    return ok(target.powerServer(id, powerBody(body)));
  }
  if (kind === 'workers' && id !== undefined && action === undefined) {
    if (method !== 'PATCH') throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed here.`);
    return ok(target.changeWorker(id, workerBody(body)));
  }
  switch (route) {
    case 'POST faults': {
      const f = faultFromJson(body);
      if (typeof f === 'string') throw new ApiError(422, 'VALIDATION_ERROR', f, { fault: [f] });
      target.addFault(f);
      return created({ faults: target.faultCount() });
    }
    case 'DELETE faults':
      target.clearFaults();
      return noContent();
    case 'POST latency': {
      const ms = nonNegative(body, 'ms');
      target.setLatency(ms);
      return ok({ latency_ms: ms });
    }
    case 'POST sync-failures': {
      const count = Math.floor(nonNegative(body, 'count'));
      target.failNextSyncs(count);
      return ok({ pending: count });
    }
    case 'PATCH account':
      return ok(patchAccount(target.account, body));
    case 'GET requests':
      return ok(target.requests);
  }
  const known = ['faults', 'latency', 'sync-failures', 'account', 'requests'];
  if (known.includes(path)) throw new ApiError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed here.`);
  throw new ApiError(404, 'NOT_FOUND', 'Unknown sandbox control endpoint.');
}
