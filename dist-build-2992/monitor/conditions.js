/**
 * Alert conditions from a monitored state (issue 13): what is wrong now, keyed so that the
 * same incident keeps its key across polls. An alert fires when a key appears and resolves
 * when it goes; nothing is posted while the set of keys stays the same.
 */
import { isServerBusy } from '../cloud/server-status.js';
/** Usage thresholds (percent) when a subscription names none. */
export const DEFAULT_THRESHOLD = 90;
const WORKER_BUILDING = new Set(['pending', 'queued', 'building', 'deploying', 'in_progress']);
const WORKER_FAILED = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled']);
const GB = 1024 ** 3;
const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v) => (typeof v === 'string' && v !== '' ? v : undefined);
export function conditionsOf(kind, state, params = {}) {
    const out = new Map();
    if (!state)
        return out;
    switch (kind) {
        case 'server': {
            const power = str(state.power);
            if (power && power !== 'running')
                out.set('power-off', { state: power });
            const app = str(state.app);
            if (isServerBusy(app) || app === 'suspended')
                out.set('busy', { status: app });
            if (str(state.taskStatus) && /fail|error/i.test(str(state.taskStatus))) {
                out.set('task-failed', { action: str(state.taskAction) ?? null, message: str(state.taskMessage) ?? null });
            }
            break;
        }
        case 'worker': {
            const status = str(state.status) ?? '';
            const deployment = str(state.deployment) ?? '';
            if (state.suspended || WORKER_FAILED.has(status) || WORKER_FAILED.has(deployment)) {
                out.set('failed', { status: str(state.suspended) ?? (WORKER_FAILED.has(status) ? status : deployment), error: str(state.error) ?? null });
            }
            else if (WORKER_BUILDING.has(status) || WORKER_BUILDING.has(deployment)) {
                out.set('building', { status: WORKER_BUILDING.has(status) ? status : deployment });
            }
            break;
        }
        case 'usage': {
            const metrics = [
                ['cpu', num(state.cpuUsed), num(state.cpuLimit)],
                ['ram', num(state.ramUsed), num(state.ramLimitGb) !== undefined ? num(state.ramLimitGb) * GB : undefined],
                ['ip', num(state.ipUsed), num(state.ipLimit)],
            ];
            const chosen = ['cpu', 'ram', 'ip'].filter((m) => num(params[m]) !== undefined);
            for (const [metric, used, limit] of metrics) {
                // Without thresholds every metric is watched at the default one.
                const threshold = chosen.length ? num(params[metric]) : DEFAULT_THRESHOLD;
                if (threshold === undefined || used === undefined || !limit)
                    continue;
                const percent = Math.round((used / limit) * 1000) / 10;
                if (percent >= threshold)
                    out.set(metric, { used, limit, percent, threshold });
            }
            break;
        }
        case 'invoices': {
            const unpaid = Array.isArray(state.unpaid) ? state.unpaid : [];
            for (const i of unpaid)
                if (num(i.id) !== undefined)
                    out.set(`invoice:${i.id}`, { ...i });
            break;
        }
    }
    return out;
}
//# sourceMappingURL=conditions.js.map