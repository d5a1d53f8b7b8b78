/**
 * How a watch polls each kind, and when the watched work is over: one poll of the cloud per
 * call. The kind's words and deadline are declared in the catalog (operations/watch-kinds.ts);
 * this is the act, shared by the watcher and `--watch` (app/watch-commands.ts).
 *
 * A state holds only what the channel may see; a secret the end of a watch reveals (a
 * reinstalled server's root password) travels apart and goes to the requester only.
 */
import type { CloudClient } from '../cloud/cloud-client.js';
import { isServerBusy } from '../cloud/server-status.js';
import { DEPLOY_FAILED, WORKER_FAILED } from '../operations/watch-kinds.js';
import type { WatchKind, WatchState } from '../store/watch-store.js';

export interface Observation {
  state: WatchState;
  /** Set when the watched work is over. */
  outcome?: 'succeeded' | 'failed';
  /** Requester-only (never stored, never posted to the channel). */
  secret?: string;
}

export type Observe = (cloud: CloudClient, kind: WatchKind, resource: string, signal?: AbortSignal) => Promise<Observation>;

async function worker(cloud: CloudClient, uuid: string, signal?: AbortSignal): Promise<Observation> {
  const w = await cloud.workers.status(uuid, signal ? { signal } : {});
  const state: WatchState = {
    name: w.name ?? null,
    status: w.status,
    deployment: w.last_deployment_status ?? null,
    runtime: w.runtime_status ?? null,
    fqdn: w.fqdn ?? null,
    error: w.last_error ?? null,
    suspended: w.suspended_at ? (w.suspension_reason ?? 'suspended') : null,
  };
  const failed = WORKER_FAILED.has(w.status) || DEPLOY_FAILED.has(w.last_deployment_status ?? '') || !!w.suspended_at;
  if (failed) return { state, outcome: 'failed' };
  if (w.status === 'active') return { state, outcome: 'succeeded' };
  return { state };
}

async function server(cloud: CloudClient, id: string, signal?: AbortSignal): Promise<Observation> {
  const status = await cloud.servers.status(id, signal ? { signal } : {});
  const state: WatchState = { server_status: status.server_status ?? null, power: status.state ?? null, password: null };
  if (isServerBusy(status.server_status)) return { state: { ...state, password: 'generating' } };
  // Credentials only once the install is over: they carry the new root password.
  const creds = await cloud.servers.credentials(id, signal ? { signal } : {});
  const done = { ...state, password: creds.password_status };
  if (creds.password_status !== 'ready') return { state: done };
  return { state: done, outcome: 'succeeded', ...(creds.root_password ? { secret: creds.root_password } : {}) };
}

const BY_KIND: Readonly<Record<WatchKind, (cloud: CloudClient, resource: string, signal?: AbortSignal) => Promise<Observation>>> = { worker, server };

/** One poll of a watched resource. */
export const observeWatch: Observe = (cloud, kind, resource, signal) => BY_KIND[kind](cloud, resource, signal);
