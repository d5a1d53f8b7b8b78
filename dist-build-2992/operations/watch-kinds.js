/**
 * Watch kinds, part of the catalog: each kind declares in one place how long it is followed
 * and how it reads — its subject, a state as a line, its final word. The watcher, the watch's messages and `--watch` read the kind from here; the
 * views only lay the words out. How a kind is polled, and when it is over, is an act, not a
 * declaration: watch/observe.ts.
 *
 * A state holds only what the channel may see; a secret the end of a watch reveals (a
 * reinstalled server's root password) travels apart and goes to the requester only.
 */
import { PASSWORD_STATUSES, POWER_STATES, SERVER_APP_STATUSES } from '../cloud/server-status.js';
import { hostLink, join, md, mention, val } from '../views/mrkdwn.js';
import { statusWord } from '../views/words.js';
const str = (v) => (v == null || v === '' ? undefined : String(v));
// Value sets beyond `pending`/`active` are "not shown" in the spec; these are read as failure.
export const WORKER_FAILED = new Set(['failed', 'error', 'errored', 'suspended', 'stopped', 'deleted', 'cancelled', 'canceled']);
export const DEPLOY_FAILED = new Set(['failed', 'error', 'errored', 'cancelled', 'canceled']);
/** Worker values read as words; anything else the cloud says is shown as a value. */
const WORKER_STATUSES = new Set(['pending', 'active', ...WORKER_FAILED]);
const DEPLOY_STATUSES = new Set(['queued', 'in_progress', 'finished', ...DEPLOY_FAILED]);
const RUNTIME_STATUSES = new Set(['running', 'stopped']);
const worker = {
    kind: 'worker',
    deadlineMs: 30 * 60_000,
    subject: (uuid, s, capital = true) => md `${capital ? md `Worker` : md `worker`} ${val(str(s?.name) ?? uuid)}`,
    describe(s) {
        if (s.suspended)
            return md `suspended: ${val(str(s.suspended))}`;
        const parts = [md `status ${statusWord(str(s.status), WORKER_STATUSES)}`];
        if (s.deployment)
            parts.push(md `deployment ${statusWord(str(s.deployment), DEPLOY_STATUSES)}`);
        if (s.runtime)
            parts.push(md `runtime ${statusWord(str(s.runtime), RUNTIME_STATUSES)}`);
        if (s.error)
            parts.push(md `error: ${val(str(s.error))}`);
        return join(parts, ' · ');
    },
    idle: md `this worker is not building`,
    underway: md `building`,
    final({ resource }, s, outcome) {
        const who = worker.subject(resource, s);
        if (outcome === 'succeeded') {
            const fqdn = str(s.fqdn);
            return { said: md `${who} is ${statusWord(str(s.status), WORKER_STATUSES)}${fqdn ? md ` at ${hostLink(fqdn)}` : md ``}` };
        }
        const why = s.suspended
            ? md `suspended: ${val(str(s.suspended))}`
            : s.error
                ? val(str(s.error))
                : s.deployment
                    ? md `deployment ${statusWord(str(s.deployment), DEPLOY_STATUSES)}`
                    : md `status ${statusWord(str(s.status), WORKER_STATUSES)}`;
        return { said: md `${who} did not come up: ${why}` };
    },
};
const server = {
    kind: 'server',
    deadlineMs: 30 * 60_000,
    subject: (id, _s, capital = true) => md `${capital ? md `Server` : md `server`} ${val(id)}`,
    describe(s) {
        const parts = [s.server_status ? statusWord(str(s.server_status), SERVER_APP_STATUSES) : md `ready`];
        if (s.power)
            parts.push(md `power ${statusWord(str(s.power), POWER_STATES)}`);
        if (s.password)
            parts.push(md `credentials ${statusWord(str(s.password), PASSWORD_STATUSES)}`);
        return join(parts, ' · ');
    },
    idle: md `this server is not installing`,
    underway: md `installing`,
    final({ resource, requestedBy }, s, outcome) {
        const who = server.subject(resource, s);
        if (outcome === 'succeeded') {
            return {
                said: md `${who} is reinstalled and its credentials are ready`,
                more: md `The new root password went to ${mention(requestedBy)} privately.`,
            };
        }
        const where = s.server_status ? statusWord(str(s.server_status), SERVER_APP_STATUSES) : md `an unknown state`;
        return { said: md `${who} did not finish: ${where}` };
    },
};
export const WATCH_KINDS = { worker, server };
//# sourceMappingURL=watch-kinds.js.map