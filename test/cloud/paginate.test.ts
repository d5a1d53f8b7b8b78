/** paginate.ts: page walking and its guards, through the client and directly. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PAGES, iteratePages } from '../../src/cloud/paginate.js';
import type { Page } from '../../src/cloud-api/schemas.js';
import { fail, ok, page, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { clientFor, cloudError } from './helpers.js';

let server: FakeServer;
let client: ReturnType<typeof clientFor>;
beforeAll(async () => {
  server = await startFakeServer();
  client = clientFor(server);
});
afterAll(async () => {
  await client.close();
  await server.close();
});
afterEach(() => {
  server.requests.length = 0;
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const inv = (id: number) => ({ id });

describe('iteratePages over the wire', () => {
  it('walks page 1..last_page, one request per page', async () => {
    server.script('GET', '/account/invoices', page([inv(1), inv(2)], 1, 3), page([inv(3)], 2, 3), page([inv(4)], 3, 3));
    expect((await collect(client.account.allInvoices())).map((i) => i.id)).toEqual([1, 2, 3, 4]);
    expect(server.requests.map((r) => r.query.get('page'))).toEqual(['1', '2', '3']);
  });

  it('a single page (or last_page 0 on an empty list) is one request', async () => {
    server.script('GET', '/account/invoices', page([], 1, 0));
    expect(await collect(client.account.allInvoices())).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('a server that never advances is INVALID_RESPONSE, not an endless loop', async () => {
    server.script('GET', '/account/invoices', page([inv(1)], 1, 5));
    const err = await cloudError(collect(client.account.allInvoices()));
    expect(err).toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(err.message).toMatch(/asked for page 2 but the cloud API answered page 1/);
    expect(server.requests).toHaveLength(2);
  });

  it('an empty page before last_page ends the walk', async () => {
    server.script('GET', '/account/invoices', page([inv(1)], 1, 1000), page([], 2, 1000));
    expect(await collect(client.account.allInvoices())).toEqual([inv(1)]);
    expect(server.requests).toHaveLength(2);
  });

  it('an error on a later page surfaces from the iterator', async () => {
    server.script('GET', '/servers/9/backups', page([{ uuid: 'a' }], 1, 2), fail(404, 'NOT_FOUND', 'gone'));
    expect(await cloudError(collect(client.backups.all('9')))).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a page without meta is INVALID_RESPONSE', async () => {
    server.script('GET', '/plans', ok([{ id: 1, name: 'S' }]));
    expect((await cloudError(client.plans.list())).message).toMatch(/meta: invalid_type/);
  });

  it('validates the identifier before the first request', async () => {
    expect((await cloudError(collect(client.backups.all('../x')))).code).toBe('INVALID_IDENTIFIER');
    expect((await cloudError(client.backups.list('1', { page: 0 }))).message).toMatch(/is not a page number/);
    expect((await cloudError(client.plans.list({ location_id: -3 }))).message).toMatch(/is not a location id/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('iteratePages guards', () => {
  it(`stops after MAX_PAGES (${MAX_PAGES}) pages`, async () => {
    let calls = 0;
    const endless = async (p: number): Promise<Page<number>> => {
      calls += 1;
      return { data: [p], meta: { current_page: p, last_page: Number.MAX_SAFE_INTEGER } };
    };
    const err = await cloudError(collect(iteratePages(endless, 'GET /x')));
    expect(err.message).toMatch(/stopped after 1000 pages/);
    expect(calls).toBe(MAX_PAGES);
  });

  it('starts where told', async () => {
    const seen: number[] = [];
    const fetch = async (p: number): Promise<Page<number>> => {
      seen.push(p);
      return { data: [p], meta: { current_page: p, last_page: 4 } };
    };
    expect(await collect(iteratePages(fetch, 'GET /x', 3))).toEqual([3, 4]);
    expect(seen).toEqual([3, 4]);
  });
});
