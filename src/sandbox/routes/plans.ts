/** Plans (spec "Plans and locations"): non-hidden, by monthly price, paginated. */
import { ok } from '../http.js';
import { paginate } from '../pagination.js';
import type { Route, RouteContext } from '../router.js';
import { findLocation } from '../state.js';
import { pageParam, validationError } from '../validate.js';
import { planView } from '../views.js';

function list(ctx: RouteContext) {
  const page = pageParam(ctx.query);
  const raw = ctx.query.location_id;
  let locationId: number | undefined;
  if (raw !== undefined && raw !== '') {
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw validationError('location_id', 'The location id field must be an integer of at least 1.');
    locationId = Number(raw);
  }
  const visible = ctx.state.plans
    .filter((p) => !p.hidden)
    .sort((a, b) => a.monthlyPrice - b.monthlyPrice || a.id - b.id);
  let selected = visible.filter((p) => p.locationId === null);
  if (locationId !== undefined) {
    // A location that is unknown or not open for ordering lists nothing.
    const open = findLocation(ctx.state, locationId)?.openForOrdering === true;
    selected = open ? visible.filter((p) => p.locationId === null || p.locationId === locationId) : [];
  } else {
    selected = visible;
  }
  const p = paginate(selected, page, ctx.perPage);
  return ok(
    p.data.map((plan) => planView(plan, ctx.legacyPlanFields, locationId)),
    p.meta,
  );
}

export const planRoutes: Route[] = [{ method: 'GET', path: '/plans', handle: list }];
