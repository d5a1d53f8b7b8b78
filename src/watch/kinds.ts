/**
 * What a watch polls and when it is over. A state holds only what the channel may see; a
 * secret the end of a watch reveals (a reinstalled server's root password) travels apart and
 * goes to the requester only.
 */
import type { CloudClient } from '../cloud/cloud-client.js';
import type { WatchKind } from '../store/watch-store.js';

export type WatchState = Record<string, string | boolean | null>;

export interface Observation {
  state: WatchState;
  /** Set when the watched work is over. */
  outcome?: 'succeeded' | 'failed';
  /** Requester-only (never stored, never posted to the channel). */
  secret?: string;
}

export interface KindSpec {
  /** Watches of this kind stop (and offer "Keep watching") after this long. */
  deadlineMs: number;
  noun: string;
  observe(cloud: CloudClient, resource: string, signal?: AbortSignal): Promise<Observation>;
  /** One line for a thread reply or the status message: what the state means now. */
  describe(state: WatchState): string;
}

// Value sets beyond `pending`/`active` are "not shown" in the spec; these are read as failure.
const WORKER_FAILED = new Set(['failed', 'error', 'errored', 'suspended', 'stopped', 'deleted', 'cancelled', 'canceled']);
const DEPLOY_FAILED = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled']);
const SERVER_BUSY = new Set(['installing', 'reinstalling', 'restoring']);

export const KINDS: Record<WatchKind, KindSpec> = {
  worker: {
    deadlineMs: 30 * 60_000,
    noun: 'worker',
    async observe(cloud, uuid, signal) {
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
    },
    describe(s) {
      if (s.suspended) return `suspended: ${String(s.suspended)}`;
      const parts = [`status ${String(s.status)}`];
      if (s.deployment) parts.push(`deployment ${String(s.deployment)}`);
      if (s.runtime) parts.push(`runtime ${String(s.runtime)}`);
      if (s.error) parts.push(`error: ${String(s.error)}`);
      return parts.join(' · ');
    },
  },
  server: {
    deadlineMs: 30 * 60_000,
    noun: 'server',
    async observe(cloud, server, signal) {
      const status = await cloud.servers.status(server, signal ? { signal } : {});
      const busy = SERVER_BUSY.has(status.server_status ?? '');
      const state: WatchState = { server_status: status.server_status ?? null, power: status.state ?? null, password: null };
      if (busy) return { state: { ...state, password: 'generating' } };
      // Credentials only once the install is over: they carry the new root password.
      const creds = await cloud.servers.credentials(server, signal ? { signal } : {});
      const ready = creds.password_status === 'ready';
      const done = { ...state, password: creds.password_status };
      if (!ready) return { state: done };
      return { state: done, outcome: 'succeeded', ...(creds.root_password ? { secret: creds.root_password } : {}) };
    },
    describe(s) {
      const app = s.server_status ? String(s.server_status) : 'ready';
      const parts = [app];
      if (s.power) parts.push(`power ${String(s.power)}`);
      if (s.password) parts.push(`credentials ${String(s.password)}`);
      return parts.join(' · ');
    },
  },
};

/** Whether two states differ in anything the channel would care about. */
export function sameState(a: WatchState | null, b: WatchState): boolean {
  if (!a) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? null) !== (b[k] ?? null)) return false;
  return true;
}
