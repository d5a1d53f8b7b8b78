/** Plans ("Endpoints › Plans and locations"): paginated, optionally by location. */
import type { CloudClient, PlanQuery } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import type { Transport } from '../http.js';
import { positiveInt } from '../ids.js';
import { fetchPage, iteratePages } from '../paginate.js';
import { Plan } from '../schemas.js';

const locationOf = (query?: PlanQuery) =>
  query?.location_id === undefined ? undefined : positiveInt(query.location_id, 'location id');

export function createPlans(t: Transport): CloudClient['plans'] {
  return {
    async list(query) {
      const location_id = locationOf(query);
      const page = query?.page === undefined ? undefined : positiveInt(query.page, 'page number');
      return fetchPage(t, buildRequest('plans.list', {}).path, Plan, { location_id, page }, query?.signal);
    },
    async *all(query) {
      const location_id = locationOf(query);
      const p = buildRequest('plans.list', {}).path;
      const label = `GET ${p}${location_id === undefined ? '' : `?location_id=${location_id}`}`;
      yield* iteratePages((page) => fetchPage(t, p, Plan, { location_id, page }, query?.signal), label);
    },
  };
}
