/**
 * The watch engine on an injected clock: the sandbox's builds and installs advance with the
 * same manual clock, so minutes pass in microseconds and nothing sleeps for real. Slack is a
 * recording SlackApi; the store is a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCloudClient, type ClosableCloudClient } from '../../src/cloud/client.js';
import { createManualClock, type ManualClock } from '../../src/clock.js';
import { createRequestBudget, type RequestBudget } from '../../src/cloud/request-budget.js';
import { createLogger } from '../../src/log.js';
import { createSandbox, SEED_WORKER_UUID, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { MessageArgs, SlackApi } from '../../src/chat/slack-api.js';
import { createSqliteStore, type Store, type WatchRecord } from '../../src/store/index.js';
import { createWatcher, type Watcher } from '../../src/watch/watcher.js';
import type { BroadcastPolicy } from '../../src/watch/final-post.js';

const BASE = 10_000;
let clock: ManualClock;
let sandbox: Sandbox;
let server: ListeningSandbox;
let cloud: ClosableCloudClient;
let store: Store;
let dir: string;
let posts: MessageArgs[];
let ephemerals: { user: string; text: string; blocks: unknown[] }[];
let refreshed: WatchRecord[];

function slack(): SlackApi {
  let n = 0;
  return {
    async postMessage(args) {
      posts.push(args);
      return { channel: args.channel, ts: `1700000000.${String(++n).padStart(6, '0')}` };
    },
    async update() {},
    async deleteMessage() {},
    async postEphemeral(args) {
      ephemerals.push(args);
    },
    async openView() {
      return { id: 'V1' };
    },
    async updateView() {},
    async publishView() {},
    async usergroupMembers() {
      return [];
    },
  };
}

function watcher(opts: { broadcast?: BroadcastPolicy; deadlineMs?: number; budget?: RequestBudget; maySeeSecret?: boolean } = {}): Watcher {
  return createWatcher({
    store: store.watches,
    cloudFor: () => cloud,
    clock,
    logger: createLogger({ sink: () => {} }),
    slack: slack(),
    refreshParent: async (w) => void refreshed.push(w),
    intervalMs: BASE,
    ...(opts.broadcast ? { broadcast: opts.broadcast } : {}),
    ...(opts.deadlineMs ? { deadlines: { worker: opts.deadlineMs, server: opts.deadlineMs } } : {}),
    ...(opts.budget ? { budget: opts.budget } : {}),
    ...(opts.maySeeSecret !== undefined ? { maySeeSecret: async () => opts.maySeeSecret! } : {}),
  });
}

async function deploy(repo = 'https://github.com/acme/api.git'): Promise<string> {
  const w = await cloud.workers.deploy({ location_id: 1, name: 'api', git_source: 'public', git_repository: repo });
  return w.uuid;
}

const start = (w: Watcher, resource: string, kind: 'worker' | 'server' = 'worker') =>
  w.watch({ kind, resource, channelId: 'COPS', threadTs: '1700000000.000001', requestedBy: 'UALICE' });

/** Advance the clock step by step, running the watcher's pass at each step. */
async function run(w: Watcher, ms: number, step = 1000): Promise<void> {
  for (let t = 0; t < ms; t += step) {
    await clock.advance(step);
    await w.tick();
  }
}

/** Waits (without moving the clock) until real loopback I/O has brought about `cond`. */
async function ioSettles(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 100_000 && !cond(); i++) await new Promise((r) => setImmediate(r));
  expect(cond()).toBe(true);
}

const workerPolls = (uuid: string) => sandbox.requests.filter((r) => r.path === `/workers/${uuid}/status`).length;

beforeEach(async () => {
  clock = createManualClock();
  sandbox = createSandbox({ clock, buildMs: 120_000, reinstallMs: 90_000 });
  server = await sandbox.listen();
  cloud = createCloudClient({ baseUrl: server.baseUrl, token: sandbox.token, clock, retry: { maxAttempts: 1 } });
  dir = mkdtempSync(join(tmpdir(), 'cloudbot-watch-'));
  store = createSqliteStore({ path: join(dir, 'db.sqlite'), clock });
  posts = [];
  ephemerals = [];
  refreshed = [];
});

afterEach(async () => {
  await cloud.close();
  await server.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('watch engine', () => {
  it('posts once per state change, nothing when nothing changed, and the final state once, broadcast', async () => {
    const uuid = await deploy();
    const w = watcher();
    const watch = await start(w, uuid);
    await w.tick(); // first look: queued — remembered, not announced
    expect(posts).toEqual([]);
    await run(w, 20_000);
    expect(posts).toEqual([]); // still queued: no post
    await run(w, 20_000); // 40 s: in_progress (after 20% of 120 s)
    expect(posts).toHaveLength(1);
    expect(posts[0]!.reply_broadcast).toBe(false);
    expect(posts[0]!.text).toContain('deployment in progress');
    await run(w, 90_000); // past 120 s: active, seen within one interval
    expect(posts).toHaveLength(2);
    expect(posts[1]).toMatchObject({ thread_ts: '1700000000.000001', reply_broadcast: true });
    expect(posts[1]!.text).toMatch(/^Worker `api` is active at <https:\/\/[^|>]*workers\.example\.net\/\|[^>]*workers\.example\.net> \(after /);
    const done = (await store.watches.get(watch.id))!;
    expect(done).toMatchObject({ status: 'done', outcome: 'succeeded', finalTs: expect.any(String) });
    await run(w, 60_000);
    expect(posts).toHaveLength(2); // nothing after the end
    // Polls: one per interval while active, within the build time over the interval, plus 2.
    expect(workerPolls(uuid)).toBeLessThanOrEqual(120_000 / BASE + 2);
    expect(workerPolls(uuid)).toBeGreaterThanOrEqual(120_000 / BASE);
    expect(done.polls).toBe(workerPolls(uuid));
    process.stderr.write(`[watch] 120 s build at a 10 s base interval: ${workerPolls(uuid)} polls, ${posts.length} posts\n`);
  });

  it('a held watch is stored at once but polled only once begun, or once a lease (30 s here) passed with nobody to begin it', async () => {
    const uuid = await deploy();
    const w = watcher();
    const held = await w.watch({ kind: 'worker', resource: uuid, channelId: 'COPS', threadTs: '1700000000.000001', requestedBy: 'UALICE', held: true });
    expect((await store.watches.get(held.id))?.status).toBe('active'); // a stop from here on loses nothing
    await w.tick();
    expect(workerPolls(uuid)).toBe(0);
    await w.begin(held.id);
    await w.tick();
    expect(workerPolls(uuid)).toBe(1);

    // The process that held it stopped before beginning it: another pass polls it a lease later.
    const other = await deploy('https://github.com/acme/web.git');
    const orphan = await w.watch({ kind: 'worker', resource: other, channelId: 'COPS', threadTs: '1700000000.000002', requestedBy: 'UALICE', held: true });
    await run(w, 29_000);
    expect(workerPolls(other)).toBe(0);
    await run(w, 2_000);
    expect(workerPolls(other)).toBe(1);
    expect((await store.watches.get(orphan.id))?.polls).toBe(1);
  });

  it('polls every base interval while nothing changes (no backoff), so a change is seen within one', async () => {
    const uuid = await deploy();
    const w = watcher();
    const watch = await start(w, uuid);
    await w.tick();
    const gaps: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = (await store.watches.get(watch.id))!;
      expect(r.intervalMs).toBe(BASE);
      gaps.push(r.nextPollAt - clock.now());
      await clock.advance(r.nextPollAt - clock.now());
      await w.tick();
    }
    expect(gaps).toEqual(Array(6).fill(BASE));
    // Queued → in_progress at 24 s; the poll at 30 s saw it: under one interval late.
    expect(posts).toHaveLength(1);
    expect(posts[0]!.text).toContain('deployment in progress');
  });

  it('backs off only on transient errors, and the next success returns to the base interval', async () => {
    const uuid = await deploy();
    const w = watcher();
    const watch = await start(w, uuid);
    await w.tick();
    sandbox.addFault({ path: `/workers/${uuid}/status`, status: 503, times: 2 });
    const gaps: number[] = [];
    for (let i = 0; i < 3; i++) {
      await clock.advance((await store.watches.get(watch.id))!.nextPollAt - clock.now());
      await w.tick();
      const r = (await store.watches.get(watch.id))!;
      gaps.push(r.nextPollAt - clock.now());
    }
    expect(gaps).toEqual([BASE * 1.5, BASE * 2.25, BASE]);
  });

  it('keeps whole-millisecond intervals whatever the base (a fractional one broke the store)', async () => {
    const uuid = await deploy();
    const w = createWatcher({
      store: store.watches,
      cloudFor: () => cloud,
      clock,
      logger: createLogger({ sink: () => {} }),
      slack: slack(),
      refreshParent: async () => {},
      intervalMs: 225,
    });
    const watch = await start(w, uuid);
    for (let i = 0; i < 8; i++) {
      await w.tick();
      const r = (await store.watches.get(watch.id))!;
      expect(Number.isInteger(r.intervalMs)).toBe(true);
      await clock.advance(Math.max(0, r.nextPollAt - clock.now()));
    }
    expect((await store.watches.get(watch.id))!.polls).toBe(8);
  });

  it('stops at the deadline, says so once, and Keep watching resumes it', async () => {
    const uuid = await deploy();
    const w = watcher({ deadlineMs: 60_000 });
    const watch = await start(w, uuid);
    await run(w, 75_000);
    expect((await store.watches.get(watch.id))!.status).toBe('expired');
    const deadline = posts.filter((p) => p.text === 'Stopped watching');
    expect(deadline).toHaveLength(1);
    expect(JSON.stringify(deadline[0]!.blocks)).toContain('watch_keep');
    await run(w, 30_000);
    expect(posts.filter((p) => p.text === 'Stopped watching')).toHaveLength(1);
    await w.keepWatching(watch.id); // a new 60 s from now: the build ends within it
    await run(w, 60_000, 2500);
    expect((await store.watches.get(watch.id))!.status).toBe('done');
  });

  it('polls that all fail (a 5xx outage from the first look) still end at the deadline, as expired, saying the state was never read', async () => {
    const uuid = await deploy();
    sandbox.addFault({ method: 'GET', path: `/workers/${uuid}/status`, status: 503, times: Infinity });
    const w = watcher({ deadlineMs: 60_000 });
    const watch = await start(w, uuid);
    await run(w, 75_000);
    const r = (await store.watches.get(watch.id))!;
    expect(r.status).toBe('expired');
    // At the deadline itself: the back-off never pushes the last look past it.
    expect(r.updatedAt).toBe(watch.deadlineAt);
    expect(r.state).toBeNull();
    expect(r.outcome).toBeNull();
    // Unread since its first look, one step in.
    expect(r.unread).toMatchObject({ since: watch.startedAt + 1000, status: 503, code: 'SERVICE_UNAVAILABLE' });
    const deadline = posts.filter((p) => p.text === 'Stopped watching');
    expect(deadline).toHaveLength(1);
    const said = JSON.stringify(deadline[0]!.blocks);
    expect(said).toContain('the bot could not read its state since');
    expect(said).toContain('so whether it finished is unknown');
    expect(said).toContain('The cloud is having trouble right now (HTTP 503');
    expect(said).not.toMatch(/last seen|did not come up|is active/i);
    expect(said).toContain('watch_keep');
    // Keep watching once the cloud answers again: read again, the failures forgotten, followed to its end.
    sandbox.clearFaults();
    await w.keepWatching(watch.id);
    await run(w, 120_000, 2500);
    const done = (await store.watches.get(watch.id))!;
    expect(done.status).toBe('done');
    expect(done.unread).toBeNull();
  });

  it('a poll that fails after a read, then reads again: the failure is forgotten, nothing is posted for it', async () => {
    const uuid = await deploy();
    const w = watcher();
    const watch = await start(w, uuid);
    await w.tick();
    sandbox.addFault({ method: 'GET', path: `/workers/${uuid}/status`, status: 401, code: 'UNAUTHENTICATED' });
    await run(w, 10_000);
    expect((await store.watches.get(watch.id))!.unread).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    await run(w, 20_000);
    const r = (await store.watches.get(watch.id))!;
    expect(r.status).toBe('active');
    expect(r.unread).toBeNull();
    expect(posts.filter((p) => p.text === 'Stopped watching')).toEqual([]);
  });

  it('a resource that disappears ends its watch with a message', async () => {
    const w = watcher();
    const watch = await start(w, '00000000-0000-4000-8000-000000000000');
    await w.tick();
    expect((await store.watches.get(watch.id))!.status).toBe('gone');
    expect(posts).toHaveLength(1);
    expect(JSON.stringify(posts[0]!.blocks)).toContain('no longer exists');
  });

  it('honours 429 Retry-After and says nothing about it', async () => {
    const uuid = await deploy();
    const w = watcher();
    const watch = await start(w, uuid);
    sandbox.addFault({ path: `/workers/${uuid}/status`, status: 429, code: 'RATE_LIMITED', retryAfter: 45 });
    await w.tick();
    const after = (await store.watches.get(watch.id))!;
    expect(after.nextPollAt - clock.now()).toBe(45_000);
    expect(posts).toEqual([]);
    await run(w, 44_000);
    expect(workerPolls(uuid)).toBe(1); // waited the full Retry-After
    await run(w, 2000);
    expect(workerPolls(uuid)).toBe(2);
  });

  it('takes every poll from the shared budget, and a 429 pauses the budget for everyone', async () => {
    const shared = createRequestBudget({ perMinute: 6, clock, burst: 1 });
    const pauses: number[] = [];
    const budget: RequestBudget = { ...shared, take: (signal) => shared.take(signal), pause: (ms) => void (pauses.push(ms), shared.pause(ms)) };
    const a = await deploy();
    const b = await deploy('https://github.com/acme/web.git');
    const w = watcher({ budget });
    await start(w, a);
    await start(w, b);
    const polls = () => sandbox.requests.filter((r) => /^\/workers\/[^/]+\/status$/.test(r.path));
    // Two watches due, one token: one poll now, the other waits its turn, not skipped.
    const t0 = clock.now();
    const pass = w.tick();
    await ioSettles(() => polls().length === 1 && clock.pendingSleeps() === 1);
    await clock.advance(9_999);
    expect(polls()).toHaveLength(1);
    await clock.advance(1);
    await pass;
    expect(polls().map((r) => r.at - t0)).toEqual([0, 10_000]);
    expect(shared.stats()).toEqual({ taken: 2, waitedMs: 10_000 });
    // Both due again at +20 s. The first poll gets a 429 with Retry-After: 60; the budget
    // pauses, so the other resource waits out the minute too.
    for (const uuid of [a, b]) sandbox.addFault({ path: `/workers/${uuid}/status`, status: 429, code: 'RATE_LIMITED', retryAfter: 60, times: 1 });
    await clock.advance(BASE);
    const t1 = clock.now();
    const second = w.tick();
    await ioSettles(() => pauses.length === 1 && clock.pendingSleeps() === 1);
    expect(pauses).toEqual([60_000]);
    await clock.advance(59_999);
    expect(polls()).toHaveLength(3);
    await clock.advance(1);
    await second;
    expect(polls().slice(2).map((r) => r.at - t1)).toEqual([0, 60_000]);
  });

  it('stop() does not hang on a poll waiting for the budget', async () => {
    const budget = createRequestBudget({ perMinute: 1, clock, burst: 1 });
    budget.pause(600_000);
    const uuid = await deploy();
    const w = watcher({ budget });
    const watch = await start(w, uuid);
    w.start();
    await clock.advance(0);
    await w.stop();
    expect(workerPolls(uuid)).toBe(0);
    expect((await store.watches.get(watch.id))!).toMatchObject({ status: 'active', polls: 0 });
  });

  it('transient errors are retried later without noise', async () => {
    const uuid = await deploy();
    const w = watcher();
    await start(w, uuid);
    sandbox.addFault({ path: `/workers/${uuid}/status`, status: 503, times: 3 });
    await run(w, 120_000, 5000);
    expect(posts.filter((p) => /error|fail/i.test(p.text))).toEqual([]);
    expect(workerPolls(uuid)).toBeGreaterThan(4);
  });

  it('coalesces two watches of one worker into one poll', async () => {
    const uuid = await deploy();
    const w = watcher();
    const a = await start(w, uuid);
    const b = await w.watch({ kind: 'worker', resource: uuid, channelId: 'COTHER', threadTs: '1700000000.000099', requestedBy: 'UBOB' });
    await run(w, 200_000, 2000);
    expect((await store.watches.get(a.id))!.status).toBe('done');
    expect((await store.watches.get(b.id))!.status).toBe('done');
    const finals = posts.filter((p) => p.reply_broadcast);
    expect(finals.map((p) => p.channel).sort()).toEqual(['COPS', 'COTHER']);
    expect(workerPolls(uuid)).toBe((await store.watches.get(a.id))!.polls); // one poll served both
  });

  it('a failed build is final; WATCH_BROADCAST=failures broadcasts it, =none does not', async () => {
    const failing = await deploy('https://github.com/acme/will-fail.git');
    const loud = watcher({ broadcast: 'failures' });
    await start(loud, failing);
    await run(loud, 200_000, 5000);
    expect(posts.at(-1)).toMatchObject({ reply_broadcast: true });
    expect(posts.at(-1)!.text).toMatch(/did not come up/);

    posts = [];
    const ok = await deploy();
    const quiet = watcher({ broadcast: 'none' });
    await start(quiet, ok);
    await run(quiet, 200_000, 5000);
    expect(posts.at(-1)!.text).toMatch(/is active at/);
    expect(posts.every((p) => p.reply_broadcast === false)).toBe(true);
  });

  it('a reinstall: watched until credentials are ready; the password goes to the requester only', async () => {
    const r = await cloud.servers.reinstall('101', { template_slug: 'debian-12' });
    const w = watcher({ maySeeSecret: true });
    await start(w, '101', 'server');
    await run(w, 100_000, 5000);
    const final = posts.at(-1)!;
    expect(final.reply_broadcast).toBe(true);
    expect(final.text).toMatch(/reinstalled and its credentials are ready/);
    expect(JSON.stringify(posts)).not.toContain(r.password!);
    expect(ephemerals).toHaveLength(1);
    expect(ephemerals[0]).toMatchObject({ user: 'UALICE' });
    expect(JSON.stringify(ephemerals[0]!.blocks)).toContain(r.password!);
    const [watch] = await store.watches.listRecent(1);
    expect(JSON.stringify(watch)).not.toContain(r.password!);
  });

  it('a reinstall watched by someone who may not read credentials (or with no check given): no password is sent', async () => {
    for (const may of [false, undefined]) {
      ephemerals = [];
      posts = [];
      const r = await cloud.servers.reinstall('101', { template_slug: 'debian-12' });
      const w = watcher(may === undefined ? {} : { maySeeSecret: may });
      await start(w, '101', 'server');
      await run(w, 100_000, 5000);
      expect(posts.at(-1)!.text).toMatch(/reinstalled and its credentials are ready/);
      expect(ephemerals).toEqual([]);
      expect(JSON.stringify(posts)).not.toContain(r.password!);
      await clock.advance(200_000);
    }
  });

  it('a reinstall watched for the change that ran it: the change already sent the password, the watch does not send it again', async () => {
    await cloud.servers.reinstall('101', { template_slug: 'debian-12' });
    const { record } = await store.operations.create({ opId: 'server.reinstall', args: { server: '101' }, requestedBy: 'UALICE', channelId: 'COPS', expiresAt: clock.now() + 600_000 });
    const w = watcher();
    await w.watch({ kind: 'server', resource: '101', channelId: 'COPS', threadTs: '1700000000.000001', requestedBy: 'UALICE', operationId: record.id });
    await run(w, 100_000, 5000);
    expect(posts.at(-1)!.text).toMatch(/reinstalled and its credentials are ready/);
    expect(ephemerals).toEqual([]);
  });

  it('a long watch with nothing new edits its elapsed time at most once a minute, posting nothing', async () => {
    await cloud.servers.reinstall('101', { template_slug: 'debian-12' });
    const w = watcher();
    await start(w, '101', 'server');
    await w.tick(); // first look: the parent shows it
    expect(refreshed).toHaveLength(1);
    await run(w, 50_000, 5000);
    expect(refreshed).toHaveLength(1); // under a minute: nothing to edit
    await run(w, 15_000, 5000);
    expect(refreshed).toHaveLength(2); // a minute on: the elapsed time is edited
    await run(w, 15_000, 5000);
    expect(refreshed).toHaveLength(2);
    expect(posts).toEqual([]);
  });

  it('resumes open watches from the store after a restart, posting the end once', async () => {
    const uuid = await deploy();
    const first = watcher();
    await start(first, uuid);
    await run(first, 50_000);
    expect(posts).toHaveLength(1); // in_progress
    // A new engine over the same store: what a restarted process does.
    const second = watcher();
    await run(second, 150_000);
    expect(posts.filter((p) => p.reply_broadcast)).toHaveLength(1);
  });
});
