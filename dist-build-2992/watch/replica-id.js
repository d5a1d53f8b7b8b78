/** This process's name in watch leases: the host, the pid and a random part (a restart is a new replica). */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
export function newReplicaId() {
    return `${hostname().slice(0, 40)}:${process.pid}:${randomBytes(4).toString('hex')}`;
}
//# sourceMappingURL=replica-id.js.map