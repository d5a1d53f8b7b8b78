import { isServerBusy } from '../cloud/server-status.js';
import { DEPLOY_FAILED, WORKER_FAILED } from '../operations/watch-kinds.js';
async function worker(cloud, uuid, signal) {
    const w = await cloud.workers.status(uuid, signal ? { signal } : {});
    const state = {
        name: w.name ?? null,
        status: w.status,
        deployment: w.last_deployment_status ?? null,
        runtime: w.runtime_status ?? null,
        fqdn: w.fqdn ?? null,
        error: w.last_error ?? null,
        suspended: w.suspended_at ? (w.suspension_reason ?? 'suspended') : null,
    };
    const failed = WORKER_FAILED.has(w.status) || DEPLOY_FAILED.has(w.last_deployment_status ?? '') || !!w.suspended_at;
    if (failed)
        return { state, outcome: 'failed' };
    if (w.status === 'active')
        return { state, outcome: 'succeeded' };
    return { state };
}
async function server(cloud, id, signal) {
    const status = await cloud.servers.status(id, signal ? { signal } : {});
    const state = { server_status: status.server_status ?? null, power: status.state ?? null, password: null };
    if (isServerBusy(status.server_status))
        return { state: { ...state, password: 'generating' } };
    // Credentials only once the install is over: they carry the new root password.
    const creds = await cloud.servers.credentials(id, signal ? { signal } : {});
    const done = { ...state, password: creds.password_status };
    if (creds.password_status !== 'ready')
        return { state: done };
    return { state: done, outcome: 'succeeded', ...(creds.root_password ? { secret: creds.root_password } : {}) };
}
const BY_KIND = { worker, server };
/** One poll of a watched resource. */
export const observeWatch = (cloud, kind, resource, signal) => BY_KIND[kind](cloud, resource, signal);
//# sourceMappingURL=observe.js.map