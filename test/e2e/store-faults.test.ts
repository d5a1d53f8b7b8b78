/**
 * PostgreSQL faults through a TCP proxy the test stalls and resets (issue 20, item 5). While the
 * bot's database cannot answer, a change is not sent and the person is told what really failed:
 * the bot's database is unavailable, nothing was sent, try again — not ":boom: failed
 * unexpectedly inside the bot". `/readyz` answers "not ready" within its own timeout (the
 * bot's clock) instead of hanging past the probe's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { READY_CHECK_MS } from '../../src/runtime.js';
import { createTcpProxy, type TcpProxy } from '../rig/tcp-proxy.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { visibleText } from './bot-rig.js';
import { createTestDatabase, type TestDatabase } from './replica-rig.js';
import { startUpRig, type StartUpRig } from './start-up-rig.js';

let db: TestDatabase;
let proxy: TcpProxy;
let rig: StartUpRig;

beforeAll(async () => {
  db = await createTestDatabase('store_faults');
  const u = new URL(db.url);
  proxy = await createTcpProxy({ host: u.hostname, port: Number(u.port) });
  rig = await startUpRig('http', { database: { kind: 'postgres', url: proxy.through(db.url) } });
  await rig.start();
}, 30_000);

afterEach(() => {
  proxy.resume();
});

afterAll(async () => {
  await rig?.close();
  await proxy?.close();
  await db?.drop();
});

const readyz = () => fetch(rig.eventsUrl().replace('/slack/events', '/readyz'));

/** Sends a rename; returns the ack and the first answer to its response_url. */
async function rename(name: string) {
  const responseUrl = rig.responses.next();
  const from = rig.sandbox.requests.length;
  const ack = await rig.send().command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: `server rename 101 ${name}`, responseUrl });
  const answer = await waitFor(() => rig.responses.postsTo(responseUrl)[0]?.body, { timeoutMs: 15_000, message: `an answer to the rename to ${name}` });
  return { ack, shown: visibleText(answer), mutations: rig.mutations(from) };
}

function expectToldDatabaseUnavailable(shown: string) {
  expect(shown).toContain('`/cloud server rename` was not done');
  expect(shown).toContain("the bot's database is unavailable");
  expect(shown).toContain('nothing was sent');
  expect(shown).toContain('Try again in a moment');
  expect(shown).not.toMatch(/failed unexpectedly|inside the bot/);
  const ref = /reference `([0-9a-f]{8})`/.exec(shown)?.[1];
  const logged = rig.logLines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.ref === ref);
  expect(logged).toMatchObject([{ msg: 'the store could not answer; the person is told', error: { name: 'StoreUnavailableError' } }]);
}

describe('PostgreSQL behind a proxy', () => {
  it('stalled: /readyz says not ready within its own timeout; a rename is not sent and the person is told why', { timeout: 30_000 }, async () => {
    expect((await readyz()).status).toBe(200);
    proxy.pause();

    const base = rig.clock.pendingSleeps();
    const probe = readyz();
    await rig.advanceWhen(base + 1, READY_CHECK_MS);
    const res = await probe;
    expect(res.status).toBe(503);
    // Its own bound on the bot's clock, or the pool's read timeout when a busy machine lets that
    // real one fire first: either way an answer, and a true one.
    const noAnswer = new RegExp(`^(no answer within ${READY_CHECK_MS / 1000} s|unreachable: PostgreSQL cannot answer now)`);
    expect(await res.json()).toMatchObject({ ready: false, checks: { store: expect.stringMatching(noAnswer), slack: 'ok' } });

    const r = await rename('stalled');
    expect(r.ack.status).toBe(200);
    expectToldDatabaseUnavailable(r.shown);
    expect(r.mutations).toEqual([]);

    proxy.resume();
    await waitFor(async () => (await readyz()).status === 200, { timeoutMs: 10_000, message: '/readyz ready again' });
  });

  it('reset mid-query: the rename is not sent and the person is told why; once it answers again, a rename works', { timeout: 30_000 }, async () => {
    proxy.pause();
    const responseUrl = rig.responses.next();
    const from = rig.sandbox.requests.length;
    const ack = await rig.send().command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server rename 101 reset', responseUrl });
    expect(ack.status).toBe(200);
    await waitFor(() => proxy.heldBytes() > 0, { timeoutMs: 5000, message: 'a query held by the proxy' });
    proxy.reset();
    const answer = await waitFor(() => rig.responses.postsTo(responseUrl)[0]?.body, { timeoutMs: 15_000 });
    expectToldDatabaseUnavailable(visibleText(answer));
    expect(rig.mutations(from)).toEqual([]);

    proxy.resume();
    await waitFor(async () => (await readyz()).status === 200, { timeoutMs: 10_000, message: '/readyz ready again' });
    const before = rig.sandbox.requests.length;
    await rig.send().command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server rename 101 after-reset', responseUrl: rig.responses.next() });
    await waitFor(() => (rig.mutations(before).length ? true : undefined), { timeoutMs: 10_000 });
    expect(rig.mutations(before).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['PATCH /v2/servers/101/rename']);
  });
});
