/**
 * Alert conditions from a monitored state (issue 13): what is wrong now, keyed so that the
 * same incident keeps its key across polls. An alert fires when a key appears and resolves
 * when it goes; nothing is posted while the set of keys stays the same.
 */
import { isServerBusy } from '../cloud/server-status.js';
import type { MonitorState, PolledKind } from './observe.js';

export type Conditions = Map<string, Record<string, unknown>>;

/** Usage thresholds (percent) when a subscription names none. */
export const DEFAULT_THRESHOLD = 90;

const WORKER_BUILDING = new Set(['pending', 'queued', 'building', 'deploying', 'in_progress']);
const WORKER_FAILED = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled']);
const GB = 1024 ** 3;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function conditionsOf(kind: PolledKind, state: MonitorState | undefined, params: Record<string, unknown> = {}): Conditions {
  const out: Conditions = new Map();
  if (!state) return out;
  switch (kind) {
    case 'server': {
      const power = str(state.power);
      if (power && power !== 'running') out.set('power-off', { state: power });
      const app = str(state.app);
      if (isServerBusy(app) || app === 'suspended') out.set('busy', { status: app });
      if (str(state.taskStatus) && /fail|error/i.test(str(state.taskStatus)!)) {
        out.set('task-failed', { action: str(state.taskAction) ?? null, message: str(state.taskMessage) ?? null });
      }
      break;
    }
    case 'worker': {
      const status = str(state.status) ?? '';
      const deployment = str(state.deployment) ?? '';
      if (state.suspended || WORKER_FAILED.has(status) || WORKER_FAILED.has(deployment)) {
        out.set('failed', { status: str(state.suspended) ?? (WORKER_FAILED.has(status) ? status : deployment), error: str(state.error) ?? null });
      } else if (WORKER_BUILDING.has(status) || WORKER_BUILDING.has(deployment)) {
        out.set('building', { status: WORKER_BUILDING.has(status) ? status : deployment });
      }
      break;
    }
    case 'usage': {
      const metrics: [string, number | undefined, number | undefined][] = [
        ['cpu', num(state.cpuUsed), num(state.cpuLimit)],
        ['ram', num(state.ramUsed), num(state.ramLimitGb) !== undefined ? num(state.ramLimitGb)! * GB : undefined],
        ['ip', num(state.ipUsed), num(state.ipLimit)],
      ];
      const chosen = ['cpu', 'ram', 'ip'].filter((m) => num(params[m]) !== undefined);
      for (const [metric, used, limit] of metrics) {
        // Without thresholds every metric is watched at the default one.
        const threshold = chosen.length ? num(params[metric]) : DEFAULT_THRESHOLD;
        if (threshold === undefined || used === undefined || !limit) continue;
        const percent = Math.round((used / limit) * 1000) / 10;
        if (percent >= threshold) out.set(metric, { used, limit, percent, threshold });
      }
      break;
    }
    case 'invoices': {
      const unpaid = Array.isArray(state.unpaid) ? (state.unpaid as Record<string, unknown>[]) : [];
      for (const i of unpaid) if (num(i.id) !== undefined) out.set(`invoice:${i.id}`, { ...i });
      break;
    }
  }
  return out;
}

/**
 * Whether `state` can say that `condition` no longer holds. A successful read may still leave
 * out what a condition is judged by (the provider answers null for a field it has no value
 * for): a power state, a worker's status, a metric's figures. Such a read shows nothing
 * cleared, so a firing alert is left as it is — resolved only by a read that shows it gone.
 */
export function shownCleared(kind: PolledKind, state: MonitorState | undefined, condition: string): boolean {
  if (!state) return false;
  switch (kind) {
    case 'server':
      // The spec's `state` is always given; `server_status` is null when nothing is under way,
      // and no power task at all is an answer too.
      return condition !== 'power-off' || str(state.power) !== undefined;
    case 'worker':
      return str(state.status) !== undefined || str(state.deployment) !== undefined || !!state.suspended;
    case 'usage': {
      const figures: Record<string, [unknown, unknown]> = {
        cpu: [state.cpuUsed, state.cpuLimit],
        ram: [state.ramUsed, state.ramLimitGb],
        ip: [state.ipUsed, state.ipLimit],
      };
      const pair = figures[condition];
      return !pair || (num(pair[0]) !== undefined && !!num(pair[1]));
    }
    case 'invoices': {
      // Only an invoice read (on the first page, or followed past it) can be shown paid.
      if (!Array.isArray(state.seen)) return true;
      const id = condition.startsWith('invoice:') ? condition.slice('invoice:'.length) : undefined;
      return id === undefined || (state.seen as unknown[]).some((s) => String(s) === id);
    }
  }
}
