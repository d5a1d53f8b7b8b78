/**
 * Findings of the endpoint-by-endpoint audit against shared/spec (cloud-api-v2.md and
 * provider-notes.md), each pinned by a test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ok, page, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { clientFor } from './helpers.js';

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

// provider-notes "Nulls beyond the spec's `?`": accept null for every field the bot does not
// strictly need to act on. A template is chosen by `id`, a plan shown by `id`; a name is only shown.
describe('names the bot only shows may be null', () => {
  it('GET /workers/templates (shape "not shown"): a template without a name is still listed', async () => {
    server.script('GET', '/workers/templates', ok([{ id: 'tpl-1', name: null, type: 'template' }, { id: 'db-1', type: 'database' }]));
    const templates = await client.workers.templates();
    expect(templates.map((t) => t.id)).toEqual(['tpl-1', 'db-1']);
  });

  it('GET /plans: a plan with a null name is still listed', async () => {
    server.script('GET', '/plans', page([{ id: 1, name: null, cpu: 1 }], 1, 1));
    const p = await client.plans.list();
    expect(p.data.map((x) => x.id)).toEqual([1]);
  });
});
