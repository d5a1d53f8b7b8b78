/** Servers and their IPs ("Endpoints › Servers", "› Server IPs"). */
import { z } from 'zod';
import type { CloudClient } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { ReinstallResult, Server, ServerCredentials, ServerIp, ServerStatus } from '../schemas.js';

export function createServers(t: Transport): CloudClient['servers'] {
  return {
    async reinstall(server, body, opts) {
      const res = await t.send({ ...buildRequest('servers.reinstall', { server }, body), signal: opts?.signal });
      return readData(res, ReinstallResult);
    },
    async rename(server, name, opts) {
      const res = await t.send({ ...buildRequest('servers.rename', { server }, { name }), signal: opts?.signal });
      return readData(res, Server);
    },
    async status(server, opts) {
      const res = await t.send({ ...buildRequest('servers.status', { server }), signal: opts?.signal });
      return readData(res, ServerStatus);
    },
    async credentials(server, opts) {
      const res = await t.send({ ...buildRequest('servers.credentials', { server }), signal: opts?.signal });
      return readData(res, ServerCredentials);
    },
    async ips(server, opts) {
      const res = await t.send({ ...buildRequest('servers.ips', { server }), signal: opts?.signal });
      return readData(res, z.array(ServerIp));
    },
    async removeIp(server, address, opts) {
      // 204 per the provider; a 200 with any body is success as well (spec: body "not shown").
      await t.send({ ...buildRequest('servers.removeIp', { server, address }), signal: opts?.signal, expectBody: false });
    },
  };
}
