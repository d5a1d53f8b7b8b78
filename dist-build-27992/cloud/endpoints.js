/**
 * Every request the bot sends, declared once: method, path template, body schema and how the
 * answer is read, keyed by the client method that sends it (`'servers.status'` is
 * `cloud.servers.status`). The client (client.ts), its type (cloud-client.ts) and the count of
 * operations are made from this table (define-endpoints.ts), and a change's dry-run, status
 * message and audit entry show the request its `run` builds here (operations/change-request.ts),
 * so what is shown is what is sent.
 *
 * A template names its segments (`/servers/{server}/ips/{address}`) and each name has a
 * validator from ids.ts: nothing reaches a path unchecked, and the values go through ids.ts
 * `path` (encoded, `.`/`..` refused). Query strings are only the pages and filters of `pages`.
 */
import { z } from 'zod';
import { readData } from './envelope.js';
import { endpoint, data, list, listWithMeta, noContent, optionalData, pages, reading, requestOf } from './define-endpoints.js';
import { ipAddress, positiveInt, serverId, serverUuid, uuid } from './ids.js';
import { AddRuleBody, AttachServerBody, CreateBackupBody, DeployWorkerBody, ReinstallBody, RenameBody, ReserveIpsBody } from './requests.js';
import { AccountUsage, AttachResult, Backup, DeployRequirements, DeployResult, FirewallRule, Invoice, Plan, ReinstallResult, ReservedIp, ReservedIpMeta, SecurityGroup, Server, ServerCredentials, ServerIp, ServerStatus, SshKey, Subnet, Worker, WorkerLocation, WorkerTemplate, } from '../cloud-api/schemas.js';
export { splitTemplate } from './define-endpoints.js';
const none = {};
const server = { server: serverId };
const group = { id: (v) => positiveInt(v, 'security group id') };
/**
 * GET /workers/{worker}/status: shape "not shown". Read as a Worker; when the answer leaves
 * out `uuid` (a bare `{ status }`), the uuid we asked about fills it in.
 */
const workerStatusOf = (worker) => z.preprocess((raw) => {
    if (raw === null || typeof raw !== 'object')
        return raw;
    const record = raw;
    return { ...record, uuid: record.uuid ?? worker };
}, Worker);
export const ENDPOINTS = {
    // 201 with the Reserved IP list envelope; never retried but on 429 (retry.ts).
    'reservedIps.reserve': endpoint('POST', '/reserved-ips', none, listWithMeta(ReservedIp, ReservedIpMeta), { schema: ReserveIpsBody }),
    'reservedIps.subnets': endpoint('GET', '/reserved-ips/subnets', none, list(Subnet)),
    'workers.requirements': endpoint('GET', '/workers/deploy-requirements', none, data(DeployRequirements)),
    'workers.deploy': endpoint('POST', '/workers', none, data(Worker), { schema: DeployWorkerBody }),
    'workers.locations': endpoint('GET', '/workers/locations', none, list(WorkerLocation)),
    'workers.templates': endpoint('GET', '/workers/templates', none, list(WorkerTemplate)),
    'workers.status': endpoint('GET', '/workers/{worker}/status', { worker: uuid }, reading((res, s) => readData(res, workerStatusOf(String(s.worker))))),
    'servers.reinstall': endpoint('POST', '/servers/{server}/reinstall', server, data(ReinstallResult), { schema: ReinstallBody }),
    'servers.rename': endpoint('PATCH', '/servers/{server}/rename', server, data(Server), { schema: RenameBody, input: (name) => ({ name }) }),
    'servers.status': endpoint('GET', '/servers/{server}/status', server, data(ServerStatus)),
    'servers.credentials': endpoint('GET', '/servers/{server}/credentials', server, data(ServerCredentials)),
    'servers.ips': endpoint('GET', '/servers/{server}/ips', server, data(z.array(ServerIp))),
    // 204 per the provider; a 200 with any body is success as well (spec: body "not shown").
    'servers.removeIp': endpoint('DELETE', '/servers/{server}/ips/{address}', { server: serverId, address: ipAddress }, noContent),
    'backups.create': endpoint('POST', '/servers/{server}/backups', server, data(Backup), { schema: CreateBackupBody }),
    'backups.list': endpoint('GET', '/servers/{server}/backups', server, pages(Backup, { all: 'all' })),
    'backups.delete': endpoint('DELETE', '/servers/{server}/backups/{backup}', { server: serverId, backup: uuid }, noContent),
    'securityGroups.get': endpoint('GET', '/security-groups/{id}', group, data(SecurityGroup)),
    // A 502 HYPERVISOR_SYNC_FAILED means "saved, not applied": not retried, the caller deploys
    // instead of adding the rule twice (spec, POST /security-groups/{id}/rules).
    'securityGroups.addRule': endpoint('POST', '/security-groups/{id}/rules', group, data(FirewallRule), { schema: AddRuleBody }),
    'securityGroups.deleteRule': endpoint('DELETE', '/security-groups/{id}/rules/{rule}', { ...group, rule: (v) => positiveInt(v, 'rule id') }, noContent),
    // Takes the server's uuid or uuid_short, checked after the group id (errors name the first bad one).
    'securityGroups.attachServer': endpoint('POST', '/security-groups/{id}/servers/attach', group, data(AttachResult), {
        schema: AttachServerBody,
        input: (uuidOrShort) => ({ server_uuid: serverUuid(uuidOrShort) }),
    }),
    // Shape "not shown": an empty body or `data: null` is success too.
    'securityGroups.deploy': endpoint('POST', '/security-groups/{id}/deploy', group, optionalData(DeployResult)),
    'sshKeys.list': endpoint('GET', '/ssh-keys', none, list(SshKey)),
    'sshKeys.delete': endpoint('DELETE', '/ssh-keys/{id}', { id: (v) => positiveInt(v, 'SSH key id') }, noContent),
    'plans.list': endpoint('GET', '/plans', none, pages(Plan, { all: 'all', filters: { location_id: 'location id' } })),
    'account.invoices': endpoint('GET', '/account/invoices', none, pages(Invoice, { all: 'allInvoices' })),
    'account.usage': endpoint('GET', '/account/usage', none, data(AccountUsage)),
};
/**
 * The concrete request for an endpoint: segments validated in template order (the first bad
 * one throws INVALID_IDENTIFIER), the body as it will be serialized. `input` is what the
 * client method takes for the body (the name of a rename).
 */
export function buildRequest(name, params, ...input) {
    return requestOf(ENDPOINTS[name], params, input[0]).request;
}
//# sourceMappingURL=endpoints.js.map