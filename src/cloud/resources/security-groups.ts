/** Security groups and firewall rules ("Endpoints › Security groups"; deploy is referenced). */
import type { CloudClient } from '../cloud-client.js';
import { buildRequest, ENDPOINTS } from '../endpoints.js';
import { readData, readOptionalData } from '../envelope.js';
import type { Transport } from '../http.js';
import { serverUuid } from '../ids.js';
import { AttachResult, DeployResult, FirewallRule, SecurityGroup } from '../schemas.js';

export function createSecurityGroups(t: Transport): CloudClient['securityGroups'] {
  return {
    async get(id, opts) {
      const res = await t.send({ ...buildRequest('securityGroups.get', { id }), signal: opts?.signal });
      return readData(res, SecurityGroup);
    },
    async addRule(id, body, opts) {
      // A 502 HYPERVISOR_SYNC_FAILED means "saved, not applied": not retried, the caller
      // deploys instead of adding the rule twice (spec, POST /security-groups/{id}/rules).
      const res = await t.send({ ...buildRequest('securityGroups.addRule', { id }, body), signal: opts?.signal });
      return readData(res, FirewallRule);
    },
    async deleteRule(id, rule, opts) {
      await t.send({ ...buildRequest('securityGroups.deleteRule', { id, rule }), signal: opts?.signal, expectBody: false });
    },
    async attachServer(id, serverUuidValue, opts) {
      // The path's group id is checked before the body's uuid (errors name the first bad one).
      const group = ENDPOINTS['securityGroups.attachServer'].segments.id(id);
      const request = buildRequest('securityGroups.attachServer', { id: group }, { server_uuid: serverUuid(serverUuidValue) });
      const res = await t.send({ ...request, signal: opts?.signal });
      return readData(res, AttachResult);
    },
    async deploy(id, opts) {
      // Shape "not shown": an empty body or `data: null` is success too.
      const res = await t.send({ ...buildRequest('securityGroups.deploy', { id }), signal: opts?.signal });
      return readOptionalData(res, DeployResult);
    },
  };
}
