/** Pagination envelope (spec "Pagination envelope"): a page beyond the last is empty. */
import type { PageMeta } from '../cloud-api/schemas.js';

export interface PageOf<T> {
  data: T[];
  meta: Required<PageMeta>;
}

export function paginate<T>(items: readonly T[], page: number, perPage: number): PageOf<T> {
  const size = Math.max(1, Math.floor(perPage));
  const lastPage = Math.max(1, Math.ceil(items.length / size));
  const start = (page - 1) * size;
  return {
    data: items.slice(start, start + size),
    meta: { current_page: page, last_page: lastPage, per_page: size, total: items.length },
  };
}
