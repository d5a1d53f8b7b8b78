/** Reserved IPs ("Endpoints › Reserved IPs"; subnets under "Referenced operations"). */
import type { CloudClient } from '../cloud-client.js';
import { readListWithMeta } from '../envelope.js';
import type { Transport } from '../http.js';
import { collectList } from '../paginate.js';
import type { ReserveIpsBody } from '../requests.js';
import { ReservedIp, ReservedIpMeta, Subnet } from '../schemas.js';

export function createReservedIps(t: Transport): CloudClient['reservedIps'] {
  return {
    async reserve(body: ReserveIpsBody, opts) {
      // 201 with the Reserved IP list envelope; never retried but on 429 (retry.ts).
      const res = await t.send({ method: 'POST', path: '/reserved-ips', body, signal: opts?.signal });
      return readListWithMeta(res, ReservedIp, ReservedIpMeta);
    },
    subnets: (opts) => collectList(t, '/reserved-ips/subnets', Subnet, opts?.signal),
  };
}
