/** Servers and their IPs ("Endpoints › Servers", "› Server IPs"). */
import { z } from 'zod';
import type { CloudClient } from '../cloud-client.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { ipAddress, path, serverId } from '../ids.js';
import type { ReinstallBody } from '../requests.js';
import { ReinstallResult, Server, ServerCredentials, ServerIp, ServerStatus } from '../schemas.js';

export function createServers(t: Transport): CloudClient['servers'] {
  return {
    async reinstall(server, body: ReinstallBody, opts) {
      const id = serverId(server);
      const res = await t.send({ method: 'POST', path: path`/servers/${id}/reinstall`, body, signal: opts?.signal });
      return readData(res, ReinstallResult);
    },
    async rename(server, name, opts) {
      const id = serverId(server);
      const res = await t.send({ method: 'PATCH', path: path`/servers/${id}/rename`, body: { name }, signal: opts?.signal });
      return readData(res, Server);
    },
    async status(server, opts) {
      const id = serverId(server);
      const res = await t.send({ method: 'GET', path: path`/servers/${id}/status`, signal: opts?.signal });
      return readData(res, ServerStatus);
    },
    async credentials(server, opts) {
      const id = serverId(server);
      const res = await t.send({ method: 'GET', path: path`/servers/${id}/credentials`, signal: opts?.signal });
      return readData(res, ServerCredentials);
    },
    async ips(server, opts) {
      const id = serverId(server);
      const res = await t.send({ method: 'GET', path: path`/servers/${id}/ips`, signal: opts?.signal });
      return readData(res, z.array(ServerIp));
    },
    async removeIp(server, address, opts) {
      const id = serverId(server);
      const ip = ipAddress(address);
      // 204 per the provider; a 200 with any body is success as well (spec: body "not shown").
      await t.send({ method: 'DELETE', path: path`/servers/${id}/ips/${ip}`, signal: opts?.signal, expectBody: false });
    },
  };
}
