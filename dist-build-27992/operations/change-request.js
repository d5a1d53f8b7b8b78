/**
 * The request a change sends, read from its own `run` (cloud/recorder.ts): entries describe no
 * request by hand, so `--dry-run`, the status message's "sent …" line and the audit entry show
 * exactly what `run` sends. Secrets are masked by the caller (access/secrets.ts); a change's is
 * described once, when its record is made, and stored with it (views/status-message.ts).
 */
import { recordRequest, UnrecordableCallError } from '../cloud/recorder.js';
/** Describing never waits: a run that reads the clock or sleeps is not describable. */
const stillClock = {
    now: () => 0,
    sleep: () => Promise.reject(new UnrecordableCallError('describing a change does not wait')),
};
export function changeRequest(op, args) {
    let r;
    try {
        r = recordRequest((cloud) => op.run({ cloud, clock: stillClock }, args));
    }
    catch (e) {
        throw new UnrecordableCallError(`${op.id}: its request cannot be described: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    if (r.method === 'GET')
        throw new UnrecordableCallError(`${op.id}: a change's run must send its change first, not GET ${r.path}`);
    return { method: r.method, path: r.path, ...(r.body === undefined ? {} : { body: r.body }) };
}
//# sourceMappingURL=change-request.js.map