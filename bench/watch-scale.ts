/**
 * Watch scale: 1,000 worker builds followed at once by the real watcher, on compressed time.
 *
 * The sandbox and the watcher run on manual clocks moved together, so a build of 60–300 s of
 * simulated time takes no real time: each step moves the clock 250 ms and runs
 * `watcher.tick()`, the pass the watcher's own loop makes. The sandbox runs in a process of its
 * own (bench/lib/watch-cloud.ts): the cloud is remote in production, so its memory and CPU are
 * not the bot's; RSS and event-loop delay below are this process's alone. Deploys go through the sandbox's HTTP API spread over the first
 * 30 s; each worker then gets its own build time (deterministic PRNG); 10 % of the repositories
 * fail their build. Watches live in a real SQLite file (or, when the first argument names a
 * postgres:// database, in PostgreSQL: bench/run.ts makes a fresh one and drops it after); Slack is a recording SlackApi; the
 * parent messages come from `createParentRefresher`, as in the bot. Cloud calls are real HTTP
 * over loopback (the transport waits on the system clock, so a retry could never hang a tick).
 *
 * The sandbox changes a worker's state twice: queued → in_progress at 20 % of its build time,
 * then → active (or failed) at 100 %. Everything below is measured against those instants.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { fork } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent } from 'undici';
import { createCloudClient } from '../src/cloud/client.js';
import { createManualClock } from '../src/clock.js';
import { createLogger } from '../src/log.js';
import { catalog } from '../src/operations/index.js';
import { QUEUED_SHARE } from '../src/sandbox/lifecycle.js';
import type { MessageArgs, SlackApi } from '../src/chat/slack-api.js';
import { createStore } from '../src/store/index.js';
import { createParentRefresher } from '../src/watch/parent-message.js';
import { createWatcher } from '../src/watch/watcher.js';
import { runAsSection, sibling } from './lib/section.js';
import type { CloudReport, CloudRequest } from './lib/watch-cloud.js';
import { percentile, seededRandom, summarize } from './lib/stats.js';
import { accountWatches, type Build, type ThreadPost, type WatchScaleResult } from './lib/watch-scale-result.js';

export type { WatchScaleResult } from './lib/watch-scale-result.js';

const WATCHES = 1_000;
const BASE_INTERVAL_MS = 10_000; // WATCH_INTERVAL_MS default
const CAP = 4; // the watcher's default concurrency cap
const DEPLOY_WINDOW_MS = 30_000;
const BUILD_MIN_MS = 60_000;
const BUILD_MAX_MS = 300_000;
const FAIL_SHARE = 0.1;
const STEP_MS = 250;
/** Real time each cloud answer takes (so the cap is exercised at the server, not only counted). */
const CLOUD_LATENCY_MS = 2;
const SIM_LIMIT_MS = 20 * 60_000;
const WALL_LIMIT_MS = 60_000;
const LOOP_RESOLUTION_MS = 10;
const TOKEN = 'bench-watch-token-0123456789';
const WATCHER_AGENT = 'cloudbot-bench (watcher)';
const CHANNEL = 'COPS000001';
const REQUESTER = 'UALICE0001';

const mb = (bytes: number) => bytes / (1024 * 1024);

/** A request to the cloud process without its id (added when sent). */
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Call = WithoutId<CloudRequest>;

/** Forks bench/lib/watch-cloud.ts and talks to it: one request at a time, answered in order. */
async function startCloud(startMs: number) {
  const child = fork(fileURLToPath(sibling('./lib/watch-cloud.ts', import.meta.url)), [String(startMs), TOKEN, WATCHER_AGENT, String(WATCHES + 10), String(CLOUD_LATENCY_MS)], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, (m: unknown) => void>();
  let ready: (url: string) => void = () => undefined;
  const baseUrl = new Promise<string>((resolve, reject) => {
    ready = resolve;
    child.once('exit', (code) => reject(new Error(`the sandbox process exited (${code})`)));
  });
  child.on('message', (m: { id?: number; ready?: boolean; baseUrl?: string }) => {
    if (m.ready && m.baseUrl) return ready(m.baseUrl);
    if (m.id === undefined) return;
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  let seq = 0;
  return {
    baseUrl: await baseUrl,
    call<T = unknown>(req: Call): Promise<T> {
      const id = ++seq;
      return new Promise<T>((resolve) => {
        pending.set(id, resolve as (m: unknown) => void);
        child.send({ ...req, id });
      });
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}

export async function runWatchScale(postgresUrl?: string): Promise<WatchScaleResult> {
  const wallStart = performance.now();
  const wallDeadline = wallStart + WALL_LIMIT_MS;
  const rssStart = process.memoryUsage().rss;
  const clock = createManualClock();
  const t0 = clock.now();
  const random = seededRandom(20261122);

  // ── the cloud: the sandbox in its own process, its clock moved with ours
  const cloud = await startCloud(t0);
  const pool = new Agent({ connect: { timeout: 5000 }, headersTimeout: 20_000, bodyTimeout: 20_000 });
  let transportInFlight = 0;
  let transportPeak = 0;
  const watchCloud = createCloudClient({
    baseUrl: cloud.baseUrl,
    token: TOKEN,
    dispatcher: pool,
    userAgent: WATCHER_AGENT,
    onEvent: (e) => {
      if (e.type === 'request') transportPeak = Math.max(transportPeak, ++transportInFlight);
      else if (e.type === 'response') transportInFlight--;
    },
  });
  const deployer = createCloudClient({ baseUrl: cloud.baseUrl, token: TOKEN, dispatcher: pool, userAgent: 'cloudbot-bench (deployer)' });

  // ── Slack: records every call with the simulated time it was made at
  const threadPosts: ThreadPost[] = [];
  let parentPosts = 0;
  let updates = 0;
  let ephemerals = 0;
  let tsSeq = 0;
  const slack: SlackApi = {
    async postMessage(args: MessageArgs) {
      const ts = `${Math.floor(clock.now() / 1000)}.${String(++tsSeq).padStart(6, '0')}`;
      if (args.thread_ts) threadPosts.push({ threadTs: args.thread_ts, at: clock.now(), text: args.text, broadcast: args.reply_broadcast === true });
      else parentPosts++;
      return { channel: args.channel, ts };
    },
    async update() {
      updates++;
    },
    async deleteMessage() {},
    async postEphemeral() {
      ephemerals++;
    },
    async openView() {
      throw new Error('not used by the watcher');
    },
    async updateView() {
      throw new Error('not used by the watcher');
    },
    async publishView() {
      throw new Error('not used by the watcher');
    },
    async usergroupMembers() {
      return [];
    },
  };

  // ── the store and the watcher, as the bot builds them
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-bench-watch-'));
  const store = createStore(postgresUrl ? { kind: 'postgres', url: postgresUrl } : { kind: 'sqlite', path: join(dir, 'cloudbot.db') }, { clock });
  await store.ready?.(); // PostgreSQL: migrated before the clock starts
  let logLines = 0;
  const logger = createLogger({ level: 'info', sink: () => void logLines++, secrets: [TOKEN] });
  const watcher = createWatcher({
    store: store.watches,
    cloudFor: () => watchCloud,
    clock,
    logger: logger.child({ component: 'watcher' }),
    slack,
    refreshParent: createParentRefresher({ operations: store.operations, catalog, slack, clock }),
    intervalMs: BASE_INTERVAL_MS,
    concurrency: CAP,
  });

  // ── the fleet: deploy times and build times decided up front (same every run)
  const plan = Array.from({ length: WATCHES }, (_, i) => ({
    i,
    deployAt: t0 + Math.floor(random() * DEPLOY_WINDOW_MS),
    buildMs: BUILD_MIN_MS + Math.floor(random() * (BUILD_MAX_MS - BUILD_MIN_MS)),
    fails: random() < FAIL_SHARE,
  })).sort((a, b) => a.deployAt - b.deployAt);
  const builds: Build[] = [];
  const byThread = new Map<string, Build>();

  async function deploy(p: (typeof plan)[number]): Promise<void> {
    const repo = p.fails ? `https://github.com/acme/fail-build-${p.i}.git` : `https://github.com/acme/app-${p.i}.git`;
    const w = await deployer.workers.deploy({ location_id: 1 + (p.i % 2), name: `bench-${p.i}`, git_source: 'public', git_repository: repo });
    const { startedAt } = await cloud.call<{ startedAt: number | null }>({ type: 'build', uuid: w.uuid, buildMs: p.buildMs }); // before any poll
    if (startedAt === null) throw new Error(`worker ${w.uuid} has no build`);
    // What startWatchByHand does: the watch's own message, then the watch on its thread.
    const parent = await slack.postMessage({ channel: CHANNEL, text: `Watching worker ${w.uuid}`, blocks: [] });
    const record = await watcher.watch({ kind: 'worker', resource: w.uuid, channelId: CHANNEL, threadTs: parent.ts, requestedBy: REQUESTER });
    const b: Build = {
      uuid: w.uuid,
      deployAt: p.deployAt,
      startedAt,
      buildMs: p.buildMs,
      fails: p.fails,
      inProgressAt: startedAt + Math.round(p.buildMs * QUEUED_SHARE),
      doneAt: startedAt + p.buildMs,
      watchId: record.id,
      threadTs: parent.ts,
    };
    builds.push(b);
    byThread.set(parent.ts, b);
  }

  // ── measurement
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  let rssPeak = rssStart;
  let heapPeak = 0;
  const sample = () => {
    const m = process.memoryUsage();
    rssPeak = Math.max(rssPeak, m.rss);
    heapPeak = Math.max(heapPeak, m.heapUsed);
  };
  const sampler = setInterval(sample, 50);
  const tickMs: number[] = [];
  const isEnd = (p: ThreadPost) => p.broadcast || p.text === 'The watched resource is gone' || p.text === 'Stopped watching';
  let ended = 0;
  let counted = 0;

  loopDelay.enable();
  let nextDeploy = 0;
  let steps = 0;
  try {
    while (clock.now() - t0 < SIM_LIMIT_MS && performance.now() < wallDeadline) {
      await clock.advance(STEP_MS);
      await cloud.call({ type: 'time', now: clock.now() });
      steps++;
      while (nextDeploy < plan.length && plan[nextDeploy]!.deployAt <= clock.now()) await deploy(plan[nextDeploy++]!);
      const s = performance.now();
      await watcher.tick();
      tickMs.push(performance.now() - s);
      sample();
      for (; counted < threadPosts.length; counted++) if (isEnd(threadPosts[counted]!)) ended++;
      if (nextDeploy === plan.length && ended >= WATCHES) break;
    }
  } finally {
    loopDelay.disable();
    clearInterval(sampler);
  }
  const simulatedMs = clock.now() - t0;
  const wallMs = performance.now() - wallStart;

  // ── per-watch figures
  const report = await cloud.call<CloudReport>({ type: 'report' });
  const requestsByUuid = new Map(Object.entries(report.requests));
  const postsByThread = new Map<string, ThreadPost[]>();
  for (const p of threadPosts) postsByThread.set(p.threadTs, [...(postsByThread.get(p.threadTs) ?? []), p]);

  const { perWatch, delays, progressDelays, finalDelays, postsWithoutChange, progressSeen, succeeded, failed, otherEnds } = await accountWatches(
    builds,
    postsByThread,
    requestsByUuid,
    (id) => store.watches.get(id),
    BASE_INTERVAL_MS,
  );
  const finished = perWatch.length;
  const totalRequests = [...requestsByUuid.values()].reduce((a, n) => a + n, 0);
  const late = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  const result: WatchScaleResult = {
    store: postgresUrl ? 'postgres' : 'sqlite',
    watches: WATCHES,
    finished,
    succeeded,
    failed,
    otherEnds,
    baseIntervalMs: BASE_INTERVAL_MS,
    cap: CAP,
    simulatedMs,
    steps,
    stepMs: STEP_MS,
    buildMs: { min: BUILD_MIN_MS, max: BUILD_MAX_MS },
    requestsPerWatch: {
      mean: perWatch.reduce((a, w) => a + w.requests, 0) / Math.max(1, finished),
      max: Math.max(0, ...perWatch.map((w) => w.requests)),
      boundMean: perWatch.reduce((a, w) => a + w.bound, 0) / Math.max(1, finished),
      maxShareOfBound: Math.max(0, ...perWatch.map((w) => w.requests / w.bound)),
      overBound: perWatch.filter((w) => w.requests > w.bound).length,
      total: totalRequests + report.other,
    },
    peak: { limiter: watcher.limiter.peak(), transport: transportPeak, server: report.peak },
    delayMs: { all: summarize(delays), progress: summarize(progressDelays), final: summarize(finalDelays) },
    slack: {
      perWatch: (threadPosts.length + updates + ephemerals) / Math.max(1, builds.length),
      threadPostsPerWatch: threadPosts.length / Math.max(1, builds.length),
      updatesPerWatch: updates / Math.max(1, builds.length),
      ephemerals,
      parentPosts,
      calls: threadPosts.length + updates + ephemerals,
    },
    postsWithoutChange,
    progressSeen,
    eventLoop: {
      resolutionMs: LOOP_RESOLUTION_MS,
      p50Ms: late(loopDelay.percentile(50)),
      p99Ms: late(loopDelay.percentile(99)),
      maxMs: late(loopDelay.max),
      rawP99Ms: loopDelay.percentile(99) / 1e6,
    },
    tickMs: { p50: percentile(tickMs, 50), p99: percentile(tickMs, 99), max: Math.max(0, ...tickMs) },
    rss: { startMb: mb(rssStart), peakMb: mb(rssPeak), endMb: mb(process.memoryUsage().rss), afterGcMb: null },
    heapPeakMb: mb(heapPeak),
    heapAfterGcMb: null,
    nodeFlags: process.execArgv.filter((f) => f.startsWith('--max-') || f === '--expose-gc'),
    logLines,
    wallMs,
  };

  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    const m = process.memoryUsage();
    result.heapAfterGcMb = mb(m.heapUsed);
    result.rss.afterGcMb = mb(m.rss);
  }
  await watchCloud.close();
  await deployer.close();
  await pool.close();
  await cloud.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

runAsSection(import.meta.url, () => runWatchScale(process.argv[2]));
