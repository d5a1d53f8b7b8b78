/**
 * Alert scale (issue 13): 1,000 subscriptions and 1,000 watches, the monitor and the watcher
 * sharing ONE request budget, on compressed time (manual clocks moved in 250 ms steps, as in
 * watch-scale; the sandbox in its own process via bench/lib/watch-cloud.ts).
 *
 * - Subscriptions: 250 servers × 4 channels (100 channels, each following 10 servers), all
 *   `server` kind: 250 distinct resources, so the monitor makes 250 polls a minute however
 *   many channels follow each. Monitor interval 60 s, hold 2 polls, re-check 1 s.
 * - Watches: 1,000 worker builds of 60–300 s deployed over the first 30 s (as watch-scale),
 *   polled every 10 s.
 * - Budget: demand = 250 resources ÷ 60 s + 1,000 watches ÷ 10 s = 250 + 6,000 = 6,250 a
 *   minute, plus one re-check per change seen (≤ 2 × held + flaps over the whole run); the
 *   budget is 6,600 a minute (~5 % headroom; burst 5 s' worth = 550).
 * - Changes, made by the sandbox at known instants: 60 servers powered off and kept off
 *   60–120 s, then on again ("held": each must alert once per channel, and resolve once);
 *   30 other servers "flap": off until the next poll, on again right after it, so exactly one
 *   poll sees it (must post nothing).
 * The monitor's and watcher's passes are started every step (a pass still running — waiting for
 * the budget or a channel's post spacing — is left to finish, as their own loops do); a step
 * ends when no cloud request is in flight, so simulated time never runs ahead of the work.
 * The store is a SQLite file, or PostgreSQL when the first argument is a postgres:// URL (as in
 * watch-scale: bench/run.ts makes a fresh database and drops it after). Sizes and the plan:
 * bench/lib/alert-scale-plan.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Agent } from 'undici';
import { createPostQueue } from '../src/chat/post-queue.js';
import type { MessageArgs, SlackApi } from '../src/chat/slack-api.js';
import { createCloudClient } from '../src/cloud/client.js';
import { createRequestBudget, defaultBurst } from '../src/cloud/request-budget.js';
import { createManualClock } from '../src/clock.js';
import { createLogger } from '../src/log.js';
import { createMonitor } from '../src/monitor/monitor.js';
import { catalog } from '../src/operations/index.js';
import { createStore } from '../src/store/index.js';
import { createParentRefresher } from '../src/watch/parent-message.js';
import { createWatcher } from '../src/watch/watcher.js';
import { account, maxPerMinute, startCloud, trackedStore, type SlackCall } from './lib/alert-scale-lib.js';
import {
  alertPlan,
  channelId,
  CHANNELS,
  CHANNELS_PER_SERVER,
  CLOUD_LATENCY_MS,
  FLAPS,
  HELD,
  HOLD_POLLS,
  MONITOR_INTERVAL_MS,
  PER_MINUTE,
  RECHECK_MS,
  SERVERS,
  STEP_MS,
  WATCH_INTERVAL_MS,
  WATCHES,
} from './lib/alert-scale-plan.js';
import type { AlertScaleResult } from './lib/alert-scale-result.js';
import { runAsSection } from './lib/section.js';
import { percentile, seededRandom, summarize } from './lib/stats.js';
import type { RequestTimes } from './lib/watch-cloud.js';

export type { AlertScaleResult } from './lib/alert-scale-result.js';

const SIM_LIMIT_MS = 10 * 60_000;
const WALL_LIMIT_MS = 50_000;
const LOOP_RESOLUTION_MS = 10;
const TOKEN = 'bench-alert-token-0123456789';
const WATCHER_AGENT = 'cloudbot-bench (watcher)';
const MONITOR_AGENT = 'cloudbot-bench (monitor)';
const WATCH_CHANNEL = 'CWATCH0001';
const mb = (bytes: number) => bytes / (1024 * 1024);

export async function runAlertScale(postgresUrl?: string): Promise<AlertScaleResult> {
  const wallStart = performance.now();
  const rssStart = process.memoryUsage().rss;
  const clock = createManualClock();
  const t0 = clock.now();
  const random = seededRandom(20261301);
  const cloud = await startCloud([String(t0), TOKEN, WATCHER_AGENT, String(WATCHES + 10), String(CLOUD_LATENCY_MS), MONITOR_AGENT], import.meta.url);
  const pool = new Agent({ connect: { timeout: 5000 }, headersTimeout: 20_000, bodyTimeout: 20_000 });
  // Requests in flight (both agents; on PostgreSQL the store's queries too): a step ends only when there are none.
  let inFlight = 0;
  const waiters: (() => void)[] = [];
  const busy = {
    start: () => void inFlight++,
    end: () => {
      inFlight--;
      for (const w of waiters.splice(0)) w();
    },
  };
  const onEvent = (e: { type: string }) => {
    if (e.type === 'request') busy.start();
    else if (e.type === 'response') busy.end();
  };
  const client = (userAgent: string) => createCloudClient({ baseUrl: cloud.baseUrl, token: TOKEN, dispatcher: pool, userAgent, onEvent });
  const watchCloud = client(WATCHER_AGENT);
  const monitorCloud = client(MONITOR_AGENT);
  const deployer = createCloudClient({ baseUrl: cloud.baseUrl, token: TOKEN, dispatcher: pool, userAgent: 'cloudbot-bench (deployer)' });

  // ── Slack: every call recorded with its simulated instant
  const calls: SlackCall[] = [];
  let tsSeq = 0;
  const slack: SlackApi = {
    async postMessage(args: MessageArgs) {
      const ts = `${Math.floor(clock.now() / 1000)}.${String(++tsSeq).padStart(6, '0')}`;
      calls.push({ kind: args.thread_ts ? 'reply' : 'post', channel: args.channel, ts: args.thread_ts ?? ts, at: clock.now() });
      return { channel: args.channel, ts };
    },
    async update(args) {
      calls.push({ kind: 'update', channel: args.channel, ts: args.ts, at: clock.now() });
    },
    async deleteMessage() {},
    async postEphemeral() {},
    openView: () => Promise.reject(new Error('not used')),
    updateView: () => Promise.reject(new Error('not used')),
    publishView: () => Promise.reject(new Error('not used')),
    usergroupMembers: async () => [],
  };

  // ── the bot's side, as runtime.ts builds it: one budget for the watcher and the monitor
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-bench-alert-'));
  const store = createStore(postgresUrl ? { kind: 'postgres', url: postgresUrl } : { kind: 'sqlite', path: join(dir, 'cloudbot.db') }, { clock });
  await store.ready?.(); // PostgreSQL: migrated before the clock starts
  // SQLite answers within the step's microtasks; PostgreSQL over the network, so its queries are waited for like cloud requests.
  const bot = postgresUrl ? trackedStore(store, busy) : store;
  let logLines = 0;
  const logger = createLogger({ level: 'info', sink: () => void logLines++, secrets: [TOKEN] });
  const budget = createRequestBudget({ perMinute: PER_MINUTE, clock });
  const watcher = createWatcher({
    budget,
    store: bot.watches,
    cloudFor: () => watchCloud,
    clock,
    logger: logger.child({ component: 'watcher' }),
    slack,
    refreshParent: createParentRefresher({ operations: bot.operations, catalog, slack, clock }),
    intervalMs: WATCH_INTERVAL_MS,
  });
  const monitor = createMonitor({
    stores: bot,
    cloudFor: () => monitorCloud,
    budget,
    queue: createPostQueue({ slack, clock, logger: logger.child({ component: 'alerts' }) }),
    clock,
    logger: logger.child({ component: 'monitor' }),
    intervalMs: MONITOR_INTERVAL_MS,
    holdPolls: HOLD_POLLS,
    recheckMs: RECHECK_MS,
    owner: 'bench',
  });

  // ── the subscriptions: server i in channels i, i + 25, i + 50, i + 75 (mod 100)
  const servers = (await cloud.call<{ ids: string[] }>({ type: 'servers', count: SERVERS })).ids;
  const serverOfSub = new Map<string, string>();
  for (const [i, server] of servers.entries()) {
    for (let k = 0; k < CHANNELS_PER_SERVER; k++) {
      const channel = channelId((i + (k * CHANNELS) / CHANNELS_PER_SERVER) % CHANNELS);
      const { record } = await store.subscriptions.add({ channelId: channel, account: null, kind: 'server', resource: server, createdBy: 'UBENCH0001', createdAt: t0 });
      serverOfSub.set(record.id, server);
    }
  }

  const { heldBy, flaps, events, endAfter, deploys } = alertPlan(random, servers, t0);
  async function deploy(p: (typeof deploys)[number]): Promise<void> {
    const repo = `https://github.com/acme/${p.fails ? 'fail-build' : 'app'}-${p.i}.git`;
    const w = await deployer.workers.deploy({ location_id: 1 + (p.i % 2), name: `bench-${p.i}`, git_source: 'public', git_repository: repo });
    await cloud.call({ type: 'build', uuid: w.uuid, buildMs: p.buildMs });
    const parent = await slack.postMessage({ channel: WATCH_CHANNEL, text: `Watching worker ${w.uuid}`, blocks: [] });
    await watcher.watch({ kind: 'worker', resource: w.uuid, channelId: WATCH_CHANNEL, threadTs: parent.ts, requestedBy: 'UALICE0001' });
  }

  /** Until no cloud request is in flight across two turns of the event loop (the rest waits on the clock). */
  async function settle(): Promise<void> {
    for (let quiet = 0; quiet < 2; ) {
      await new Promise((r) => setImmediate(r));
      if (inFlight === 0) quiet++;
      else {
        quiet = 0;
        await new Promise<void>((r) => waiters.push(r));
      }
    }
  }

  // ── the run
  const loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  let rssPeak = rssStart;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 50);
  const tickMs: number[] = [];
  const monitorPassMs: number[] = [];
  let monitorPass: Promise<void> | undefined;
  let watcherPass: Promise<void> | undefined;
  const pass = (run: () => Promise<void>, done: () => void) => {
    const s = performance.now();
    return run()
      .catch((error: unknown) => logger.error('bench pass failed', { error }))
      .finally(() => (tickMs.push(performance.now() - s), done()));
  };
  let nextEvent = 0;
  let nextDeploy = 0;
  let steps = 0;
  let watchesOpen = WATCHES;
  /** The scenario ran to its end (every watch over, the monitor idle), not into a limit. */
  let finished = false;
  loopDelay.enable();
  try {
    while (clock.now() - t0 < SIM_LIMIT_MS && performance.now() - wallStart < WALL_LIMIT_MS) {
      const next = clock.now() + STEP_MS;
      await cloud.call({ type: 'time', now: next });
      while (nextEvent < events.length && events[nextEvent]!.at <= next) await cloud.call(events[nextEvent++]!.req);
      await clock.advance(STEP_MS);
      steps++;
      while (nextDeploy < deploys.length && deploys[nextDeploy]!.at <= clock.now()) await deploy(deploys[nextDeploy++]!);
      if (!monitorPass) {
        const from = clock.now();
        monitorPass = pass(() => monitor.tick(), () => (monitorPassMs.push(clock.now() - from), (monitorPass = undefined)));
      }
      watcherPass ??= pass(() => watcher.tick(), () => (watcherPass = undefined));
      await settle();
      if (clock.now() >= endAfter && steps % 40 === 0) watchesOpen = (await store.watches.listOpen()).length;
      if (clock.now() >= endAfter && watchesOpen === 0 && !monitorPass) {
        finished = true;
        break;
      }
    }
  } finally {
    loopDelay.disable();
    clearInterval(sampler);
  }
  const simulatedMs = clock.now() - t0;
  const wallMs = performance.now() - wallStart;

  // ── the alerts: every Slack call in an alert channel, matched to its alert (by message ts)
  const alertByTs = new Map<string, { server: string; subscriptionId: string }>();
  for (let c = 0; c < CHANNELS; c++) {
    for (const a of await store.alerts.listSince(channelId(c), 0, 10_000)) {
      if (a.messageTs) alertByTs.set(`${a.channelId}|${a.messageTs}`, { server: serverOfSub.get(a.subscriptionId)!, subscriptionId: a.subscriptionId });
    }
  }
  const alertCalls = calls.filter((c) => c.channel !== WATCH_CHANNEL);
  const { delays, withoutChange: postsWithoutChange, flapPosts } = account(alertCalls, alertByTs, heldBy, new Set(flaps.map((f) => f.server)));
  const { post: fire, update: resolve, reply: followUp } = delays;
  const times = await cloud.call<RequestTimes>({ type: 'times' });
  const all = [...times.watcher, ...times.monitor].sort((a, b) => a - b);
  const expected = HELD * CHANNELS_PER_SERVER;
  const late = (ns: number) => Math.max(0, ns / 1e6 - LOOP_RESOLUTION_MS);
  const result: AlertScaleResult = {
    store: postgresUrl ? 'postgres' : 'sqlite',
    subscriptions: serverOfSub.size,
    servers: SERVERS,
    channels: CHANNELS,
    watches: WATCHES,
    watchesEnded: WATCHES - (await store.watches.listOpen()).length,
    monitorIntervalMs: MONITOR_INTERVAL_MS,
    holdPolls: HOLD_POLLS,
    recheckMs: RECHECK_MS,
    watchIntervalMs: WATCH_INTERVAL_MS,
    budget: { perMinute: PER_MINUTE, burst: defaultBurst(PER_MINUTE), demandPerMinute: (SERVERS * 60_000) / MONITOR_INTERVAL_MS + (WATCHES * 60_000) / WATCH_INTERVAL_MS, ...budget.stats() },
    simulatedMs,
    steps,
    stepMs: STEP_MS,
    requests: {
      total: all.length,
      monitor: times.monitor.length,
      watcher: times.watcher.length,
      maxPerMinute: maxPerMinute(all),
      meanPerMinute: all.length / (simulatedMs / 60_000),
    },
    held: { changes: HELD * 2, expectedAlerts: expected, alertPosts: fire.length, resolveEdits: resolve.length, followUps: followUp.length, missing: 3 * expected - fire.length - resolve.length - followUp.length },
    delayMs: { fire: summarize(fire), resolve: summarize(resolve), all: summarize([...fire, ...resolve]), followUp: summarize(followUp) },
    flaps: { scheduled: FLAPS, seen: times.flapsSeen, posts: flapPosts },
    postsWithoutChange,
    eventLoop: { resolutionMs: LOOP_RESOLUTION_MS, p50Ms: late(loopDelay.percentile(50)), p99Ms: late(loopDelay.percentile(99)), maxMs: late(loopDelay.max) },
    tickMs: { p99: percentile(tickMs, 99), max: Math.max(0, ...tickMs) },
    monitorPassMs: { p50: percentile(monitorPassMs, 50), p99: percentile(monitorPassMs, 99), max: Math.max(0, ...monitorPassMs) },
    rss: { startMb: mb(rssStart), peakMb: mb(rssPeak), endMb: mb(process.memoryUsage().rss) },
    nodeFlags: process.execArgv.filter((f) => f.startsWith('--max-') || f === '--expose-gc'),
    logLines,
    wallMs,
    // A slow machine reaches the wall limit before the scenario's end: what came after was never simulated.
    ...(finished ? {} : { cutShort: performance.now() - wallStart >= WALL_LIMIT_MS ? `its ${WALL_LIMIT_MS / 1000} s wall-time limit` : `its ${SIM_LIMIT_MS / 60_000} min simulated limit` }),
  };
  // A pass still waiting on the clock (budget, post spacing) is given simulated time to end.
  for (let i = 0; i < 40 && (monitorPass || watcherPass); i++) await clock.advance(STEP_MS).then(settle);
  for (const c of [watchCloud, monitorCloud, deployer]) await c.close();
  await pool.close();
  await cloud.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return result;
}

runAsSection(import.meta.url, () => runAlertScale(process.argv[2]));
