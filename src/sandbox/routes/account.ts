/** Account invoices and usage (spec "Account"). */
import { ok } from '../http.js';
import { paginate } from '../pagination.js';
import type { Route, RouteContext } from '../router.js';
import { pageParam } from '../validate.js';
import { usageView } from '../views.js';

function invoices(ctx: RouteContext) {
  const page = pageParam(ctx.query);
  const sorted = [...ctx.state.invoices].sort(
    (a, b) => Date.parse(b.created_at ?? '') - Date.parse(a.created_at ?? '') || b.id - a.id,
  );
  const p = paginate(sorted, page, ctx.perPage);
  return ok(p.data, p.meta);
}

export const accountRoutes: Route[] = [
  { method: 'GET', path: '/account/invoices', handle: invoices },
  { method: 'GET', path: '/account/usage', handle: (ctx) => ok(usageView(ctx.state)) },
];
