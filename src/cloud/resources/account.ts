/** Account invoices and usage ("Endpoints › Account"). */
import type { CloudClient } from '../cloud-client.js';
import { readData } from '../envelope.js';
import type { Transport } from '../http.js';
import { positiveInt } from '../ids.js';
import { fetchPage, iteratePages } from '../paginate.js';
import { AccountUsage, Invoice } from '../schemas.js';

export function createAccount(t: Transport): CloudClient['account'] {
  return {
    async invoices(query) {
      const page = query?.page === undefined ? undefined : positiveInt(query.page, 'page number');
      return fetchPage(t, '/account/invoices', Invoice, { page }, query?.signal);
    },
    async *allInvoices(opts) {
      yield* iteratePages((page) => fetchPage(t, '/account/invoices', Invoice, { page }, opts?.signal), 'GET /account/invoices');
    },
    async usage(opts) {
      const res = await t.send({ method: 'GET', path: '/account/usage', signal: opts?.signal });
      return readData(res, AccountUsage);
    },
  };
}
