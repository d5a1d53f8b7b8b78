/** Reserved IPs ("Endpoints › Reserved IPs"; subnets under "Referenced operations"). */
import type { CloudClient } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import { readListWithMeta } from '../envelope.js';
import type { Transport } from '../http.js';
import { collectList } from '../paginate.js';
import { ReservedIp, ReservedIpMeta, Subnet } from '../schemas.js';

export function createReservedIps(t: Transport): CloudClient['reservedIps'] {
  return {
    async reserve(body, opts) {
      // 201 with the Reserved IP list envelope; never retried but on 429 (retry.ts).
      const res = await t.send({ ...buildRequest('reservedIps.reserve', {}, body), signal: opts?.signal });
      return readListWithMeta(res, ReservedIp, ReservedIpMeta);
    },
    subnets: (opts) => collectList(t, buildRequest('reservedIps.subnets', {}).path, Subnet, opts?.signal),
  };
}
