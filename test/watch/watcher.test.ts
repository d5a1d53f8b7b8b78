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
import { createLogger } from '../../src/log.js';
import { createSandbox, SEED_WORKER_UUID, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import type { MessageArgs, SlackApi } from '../../src/chat/slack-api.js';
import { createSqliteStore, type Store, type WatchRecord } from '../../src/store/index.js';
import { createWatcher, type BroadcastPolicy, type Watcher } from '../../src/watch/watcher.js';

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
    async usergroupMembers() {
      return [];
    },
  };
}

function watcher(opts: { broadcast?: BroadcastPolicy; deadlineMs?: number } = {}): Watcher {
  return createWatcher({
    store: store.watches,
    cloud,
    clock,
    logger: createLogger({ sink: () => {} }),
    slack: slack(),
    refreshParent: async (w) => void refreshed.push(w),
    intervalMs: BASE,
    ...(opts.broadcast ? { broadcast: opts.broadcast } : {}),
    ...(opts.deadlineMs ? { deadlines: { worker: opts.deadlineMs, server: opts.deadlineMs } } : {}),
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
    await run(w, 140_000); // past 120 s: active (backoff may notice it up to a minute late)
    expect(posts).toHaveLength(2);
    expect(posts[1]).toMatchObject({ thread_ts: '1700000000.000001', reply_broadcast: true });
    expect(posts[1]!.text).toMatch(/^Worker `api` is active at <https:\/\/[^|>]*workers\.example\.net\/\|[^>]*workers\.example\.net> \(after /);
    const done = (await store.watches.get(watch.id))!;
    expect(done).toMatchObject({ status: 'done', outcome: 'succeeded', finalTs: expect.any(String) });
    await run(w, 60_000);
    expect(posts).toHaveLength(2); // nothing after the end
    // Polls: at most the build time over the interval, plus 2 (backoff makes it fewer).
    expect(workerPolls(uuid)).toBeLessThanOrEqual(120_000 / BASE + 2);
    expect(done.polls).toBe(workerPolls(uuid));
    process.stderr.write(`[watch] 120 s build at a 10 s base interval: ${workerPolls(uuid)} polls, ${posts.length} posts\n`);
  });

  it('backs off while nothing changes, and resets on a change', async () => {
    const uuid = await deploy();
    const w = watcher();
    const watch = await start(w, uuid);
    await w.tick();
    const intervals: number[] = [];
    for (let i = 0; i < 4; i++) {
      await clock.advance((await store.watches.get(watch.id))!.nextPollAt - clock.now());
      await w.tick();
      intervals.push((await store.watches.get(watch.id))!.intervalMs);
    }
    expect(intervals[0]).toBe(BASE * 1.5);
    expect(intervals[1]).toBe(BASE); // in_progress came: back to the base interval
    expect(intervals[2]).toBe(BASE * 1.5);
    expect(intervals[3]).toBe(BASE * 2.25);
  });

  it('keeps whole-millisecond intervals whatever the base (a fractional one broke the store)', async () => {
    const uuid = await deploy();
    const w = createWatcher({
      store: store.watches,
      cloud,
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
    const w = watcher();
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
