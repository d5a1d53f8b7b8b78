/** Security groups and firewall rules ("Endpoints › Security groups"; deploy is referenced). */
import type { CloudClient } from '../cloud-client.js';
import { readData, readOptionalData } from '../envelope.js';
import type { Transport } from '../http.js';
import { path, positiveInt, serverUuid } from '../ids.js';
import type { AddRuleBody, AttachServerBody } from '../requests.js';
import { AttachResult, DeployResult, FirewallRule, SecurityGroup } from '../schemas.js';

const groupId = (id: number) => positiveInt(id, 'security group id');

export function createSecurityGroups(t: Transport): CloudClient['securityGroups'] {
  return {
    async get(id, opts) {
      const res = await t.send({ method: 'GET', path: path`/security-groups/${groupId(id)}`, signal: opts?.signal });
      return readData(res, SecurityGroup);
    },
    async addRule(id, body: AddRuleBody, opts) {
      // A 502 HYPERVISOR_SYNC_FAILED means "saved, not applied": not retried, the caller
      // deploys instead of adding the rule twice (spec, POST /security-groups/{id}/rules).
      const res = await t.send({ method: 'POST', path: path`/security-groups/${groupId(id)}/rules`, body, signal: opts?.signal });
      return readData(res, FirewallRule);
    },
    async deleteRule(id, ruleId, opts) {
      const p = path`/security-groups/${groupId(id)}/rules/${positiveInt(ruleId, 'rule id')}`;
      await t.send({ method: 'DELETE', path: p, signal: opts?.signal, expectBody: false });
    },
    async attachServer(id, serverUuidValue, opts) {
      const p = path`/security-groups/${groupId(id)}/servers/attach`;
      const body: AttachServerBody = { server_uuid: serverUuid(serverUuidValue) };
      const res = await t.send({ method: 'POST', path: p, body, signal: opts?.signal });
      return readData(res, AttachResult);
    },
    async deploy(id, opts) {
      // Shape "not shown": an empty body or `data: null` is success too.
      const res = await t.send({ method: 'POST', path: path`/security-groups/${groupId(id)}/deploy`, signal: opts?.signal });
      return readOptionalData(res, DeployResult);
    },
  };
}
