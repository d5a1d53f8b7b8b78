/** Server IPs (spec "Server IPs"; "Reserved IP usage" states). */
import { noContent, notFound, ok, refusal } from '../http.js';
import { normaliseAddress, release } from '../ip-pool.js';
import type { Route, RouteContext } from '../router.js';
import { serverIpView } from '../views.js';
import { serverParam } from './servers.js';

function removeIp(ctx: RouteContext) {
  const { state } = ctx;
  const s = serverParam(ctx);
  const address = normaliseAddress(ctx.params.address ?? '');
  const ip = address === undefined ? undefined : s.ips.find((x) => normaliseAddress(x.address) === address);
  if (!ip) throw notFound('IP address');
  if (ip.primary) {
    throw refusal('CANNOT_REMOVE_PRIMARY', `${ip.address} is the primary ${ip.type === 'ipv4' ? 'IPv4' : 'IPv6'} address of ${s.hostname} and cannot be removed.`);
  }
  const reserved = state.reservedIps.find((r) => r.address === ip.address && r.serverId === s.id);
  if (reserved) {
    // A reserved IP is detached, stays reserved and does not count against the weekly limit.
    reserved.serverId = null;
    s.ips = s.ips.filter((x) => x !== ip);
    return noContent();
  }
  const { account } = state;
  if (account.ipRemovalsThisWeek >= account.weeklyIpRemovalLimit) {
    throw refusal(
      'RESOURCE_LIMIT_EXCEEDED',
      `The weekly limit of ${account.weeklyIpRemovalLimit} IP removals is reached; try again next week.`,
      { limit: account.weeklyIpRemovalLimit, used: account.ipRemovalsThisWeek },
    );
  }
  s.ips = s.ips.filter((x) => x !== ip);
  release(state.subnets, ip.address);
  account.ipRemovalsThisWeek += 1;
  return noContent();
}

export const serverIpRoutes: Route[] = [
  { method: 'GET', path: '/servers/:server/ips', handle: (ctx) => ok(serverIpView(ctx.state, serverParam(ctx))) },
  { method: 'DELETE', path: '/servers/:server/ips/:address', handle: removeIp },
];
