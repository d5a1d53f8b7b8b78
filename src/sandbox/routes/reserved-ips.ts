/** Reserved IPs (spec "Reserved IPs"; "Reserved IP list envelope"). */
import { created, ok, refusal } from '../http.js';
import { allocate, freeCount } from '../ip-pool.js';
import type { Route, RouteContext } from '../router.js';
import { findLocation, ipUsed } from '../state.js';
import type { ReservedIpState } from '../state.js';
import { FieldErrors, bodyObject, int, str } from '../validate.js';
import { reservedIpView, subnetView } from '../views.js';

const round4 = (n: number): number => Math.round(n * 10_000) / 10_000;

function reserve(ctx: RouteContext) {
  const { state } = ctx;
  const b = bodyObject(ctx.body);
  const errs = new FieldErrors();
  const locationId = int(b, 'location_id', errs, { required: true, min: 1 });
  const subnetId = str(b, 'subnet_id', errs, { required: true, max: 191 });
  const quantity = int(b, 'quantity', errs, { min: 1 }) ?? 1;
  if (locationId !== undefined && !findLocation(state, locationId)) {
    errs.add('location_id', 'The selected location id is invalid.');
  }
  const subnet = subnetId === undefined ? undefined : state.subnets.find((s) => s.id === subnetId);
  if (subnetId !== undefined && !subnet) errs.add('subnet_id', 'The selected subnet id is invalid.');
  if (subnet && locationId !== undefined && !errs.has('location_id') && subnet.locationId !== locationId) {
    errs.add('subnet_id', `The subnet ${subnet.id} does not belong to location ${locationId}.`);
  }
  errs.throwIfAny();
  if (!subnet) throw new Error('unreachable: subnet validated');

  // Refusals in the order of the spec's rules: IP limit, first-hour balance, subnet space.
  const { account } = state;
  const used = ipUsed(state);
  const count = state.reservedIps.length;
  if (used + quantity > account.ipLimit) {
    const available = Math.max(0, account.ipLimit - used);
    throw refusal(
      'RESERVED_IP_LIMIT_REACHED',
      `The account holds ${count} reserved IP${count === 1 ? '' : 's'} and can reserve ${available} more ` +
        `(limit ${account.ipLimit}, ${used} in use); ${quantity} requested.`,
      { count, limit: account.ipLimit, used, available },
    );
  }
  const required = round4(subnet.hourlyPrice * quantity);
  if (account.balance < required) {
    throw refusal(
      'INSUFFICIENT_BALANCE',
      `The balance (${account.balance}) does not cover the first hour of ${quantity} reserved IP${quantity === 1 ? '' : 's'} (${required}).`,
      { balance: account.balance, required },
    );
  }
  const free = freeCount(subnet);
  if (free < quantity) {
    throw refusal('SUBNET_EXHAUSTED', `Subnet ${subnet.id} has ${free} free address${free === 1 ? '' : 'es'}; ${quantity} requested.`, {
      available: free,
      requested: quantity,
    });
  }

  const fresh: ReservedIpState[] = allocate(subnet, quantity).map((address) => ({
    address,
    type: subnet.type,
    gateway: subnet.gateway,
    cidr: subnet.prefix,
    rdns: null,
    subnetId: subnet.id,
    locationId: subnet.locationId,
    serverId: null,
    reservedAt: ctx.now,
  }));
  state.reservedIps.push(...fresh);
  const meta = { count: state.reservedIps.length, limit: account.ipLimit, used: ipUsed(state), hourly_price: subnet.hourlyPrice };
  return created(
    fresh.map((r) => reservedIpView(state, r)),
    meta,
  );
}

export const reservedIpRoutes: Route[] = [
  { method: 'POST', path: '/reserved-ips', handle: reserve },
  { method: 'GET', path: '/reserved-ips/subnets', handle: (ctx) => ok(ctx.state.subnets.map((s) => subnetView(ctx.state, s))) },
];
