/** Account invoices and usage ("Endpoints › Account"). */
import type { CloudClient } from '../cloud-client.js';
import { buildRequest } from '../endpoints.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { positiveInt } from '../ids.js';
import { fetchPage, iteratePages } from '../paginate.js';
import { AccountUsage, Invoice } from '../schemas.js';

export function createAccount(t: Transport): CloudClient['account'] {
  return {
    async invoices(query) {
      const page = query?.page === undefined ? undefined : positiveInt(query.page, 'page number');
      return fetchPage(t, buildRequest('account.invoices', {}).path, Invoice, { page }, query?.signal);
    },
    async *allInvoices(opts) {
      const p = buildRequest('account.invoices', {}).path;
      yield* iteratePages((page) => fetchPage(t, p, Invoice, { page }, opts?.signal), `GET ${p}`);
    },
    async usage(opts) {
      const res = await t.send({ ...buildRequest('account.usage', {}), signal: opts?.signal });
      return readData(res, AccountUsage);
    },
  };
}
