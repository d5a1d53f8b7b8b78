/**
 * One cloud client per account, over two real sandboxes on loopback with different tokens: a
 * request through account A's client carries A's token and reaches A only; a reload keeps the
 * clients of unchanged accounts and replaces the others.
 */
import { Agent } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCloudAccounts, UnknownAccountError, type AccountTarget, type CloudAccounts } from '../../../src/cloud/accounts.js';
import { systemClock } from '../../../src/clock.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../../src/sandbox/index.js';

const PROD_TOKEN = 'prod-token-aaaaaaaaaaaaaaaa';
const STAGING_TOKEN = 'staging-token-bbbbbbbbbbbbbb';
const WATCH_AGENT = 'unit-watcher/1';

let prod: { sandbox: Sandbox; server: ListeningSandbox };
let staging: { sandbox: Sandbox; server: ListeningSandbox };
let pool: Agent;
const opened: CloudAccounts[] = [];

beforeAll(async () => {
  const up = async (token: string) => {
    const sandbox = createSandbox({ token });
    return { sandbox, server: await sandbox.listen() };
  };
  prod = await up(PROD_TOKEN);
  staging = await up(STAGING_TOKEN);
  pool = new Agent();
});
afterAll(async () => {
  for (const a of opened) await a.close();
  await prod.server.close();
  await staging.server.close();
  await pool.close();
});
beforeEach(() => {
  prod.sandbox.requests.length = 0;
  staging.sandbox.requests.length = 0;
});

const targets = (): AccountTarget[] => [
  { name: 'prod', baseUrl: prod.server.baseUrl, token: PROD_TOKEN },
  { name: 'staging', baseUrl: staging.server.baseUrl, token: STAGING_TOKEN },
];
function accounts(t: AccountTarget[] = targets()): CloudAccounts {
  const a = createCloudAccounts({ targets: t, clock: systemClock, dispatcher: pool, retry: { budgetMs: 200, maxAttempts: 1 }, watchUserAgent: WATCH_AGENT });
  opened.push(a);
  return a;
}
const seen = (s: Sandbox) => s.requests.map((r) => ({ path: r.rawPath, token: r.token }));

describe('createCloudAccounts', () => {
  it("each account's client carries its own token to its own URL only", async () => {
    const a = accounts();
    expect(a.names()).toEqual(['prod', 'staging']);
    await a.client('prod').account.usage();
    expect(seen(prod.sandbox)).toEqual([{ path: '/v2/account/usage', token: PROD_TOKEN }]);
    expect(staging.sandbox.requests).toEqual([]);

    await a.client('staging').servers.status('101');
    await a.client('staging').account.usage();
    expect(seen(staging.sandbox)).toEqual([
      { path: '/v2/servers/101/status', token: STAGING_TOKEN },
      { path: '/v2/account/usage', token: STAGING_TOKEN },
    ]);
    expect(prod.sandbox.requests).toHaveLength(1);
  });

  it("the watcher's client: same account binding, its own User-Agent", async () => {
    const a = accounts();
    await a.watchClient('staging').servers.status('102');
    await a.client('staging').servers.status('102');
    expect(staging.sandbox.requests.map((r) => [r.token, r.userAgent === WATCH_AGENT])).toEqual([
      [STAGING_TOKEN, true],
      [STAGING_TOKEN, false],
    ]);
    expect(prod.sandbox.requests).toEqual([]);
  });

  it('an unknown account throws UnknownAccountError naming it, and sends nothing', () => {
    const a = accounts();
    expect(a.has('dev')).toBe(false);
    expect(() => a.client('dev')).toThrow(UnknownAccountError);
    expect(() => a.watchClient('dev')).toThrow(/no cloud account named dev/);
    try {
      a.client('dev');
    } catch (e) {
      expect((e as UnknownAccountError).account).toBe('dev');
    }
    expect(prod.sandbox.requests).toEqual([]);
    expect(staging.sandbox.requests).toEqual([]);
  });

  it('update keeps the clients of unchanged accounts and replaces changed ones', async () => {
    const a = accounts();
    const prodClient = a.client('prod');
    const prodWatch = a.watchClient('prod');
    const stagingClient = a.client('staging');
    // staging now points at the prod sandbox with prod's token (a re-pointed account); dev is new.
    a.update([
      { name: 'prod', baseUrl: prod.server.baseUrl, token: PROD_TOKEN },
      { name: 'staging', baseUrl: prod.server.baseUrl, token: PROD_TOKEN },
      { name: 'dev', baseUrl: staging.server.baseUrl, token: STAGING_TOKEN },
    ]);
    expect(a.client('prod')).toBe(prodClient);
    expect(a.watchClient('prod')).toBe(prodWatch);
    expect(a.client('staging')).not.toBe(stagingClient);
    expect(a.names().sort()).toEqual(['dev', 'prod', 'staging']);
    await a.client('staging').account.usage();
    await a.client('dev').account.usage();
    expect(seen(prod.sandbox)).toEqual([{ path: '/v2/account/usage', token: PROD_TOKEN }]);
    expect(seen(staging.sandbox)).toEqual([{ path: '/v2/account/usage', token: STAGING_TOKEN }]);

    // A changed token alone also makes a new client; a removed account is gone.
    a.update([{ name: 'prod', baseUrl: prod.server.baseUrl, token: 'rotated-token' }]);
    expect(a.client('prod')).not.toBe(prodClient);
    expect(a.has('staging')).toBe(false);
    expect(() => a.client('dev')).toThrow(UnknownAccountError);
  });

  it('a client kept from before an update still works (requests in flight finish)', async () => {
    const a = accounts();
    const old = a.client('staging');
    a.update([{ name: 'staging', baseUrl: prod.server.baseUrl, token: PROD_TOKEN }]);
    await old.account.usage();
    expect(seen(staging.sandbox)).toEqual([{ path: '/v2/account/usage', token: STAGING_TOKEN }]);
  });
});
