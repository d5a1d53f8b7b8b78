/**
 * Ack latency under load: the real bot (createRuntime, HTTP receiver, port 0) and a bare Bolt app
 * that only acks (same HTTPReceiver setup) run in this process; Slack's side — the load
 * generator, the fake Web API, the response_url endpoints — and the sandbox cloud answering
 * after 1 s run in a child process (bench/lib/ack-world.ts) in the reference layout (below).
 *
 * Each measured round sends 500 signed `/cloud` commands, 50 in flight, to one app: reads
 * (`account usage`, `server status 101`, `plan list`) and form openers (`server reinstall 101`,
 * `ip reserve`, `worker deploy`, each with a fresh trigger id). The ack time is request sent →
 * response status received. Both apps are warmed up first; rounds then alternate in ABBA order
 * (bare, bot, bot, bare, bare, bot), so drift and machine noise fall on both alike, and after
 * each bot round the generator waits until every command was answered (reads through their
 * response_url, forms opened and filled from the cloud), so no bot work spills into a bare
 * round. The figure that counts is the bot's p99 over the bare app's, same run, same machine.
 *
 * Two layouts, chosen by the first argument (bench/run.ts runs both, each in a process of its own):
 * - `separate` (the reference, the default; run on SQLite and on PostgreSQL): they run
 *   in a child process (bench/lib/ack-world.ts), so this event loop carries only the apps;
 * - `same` (for comparison, not the target; SQLite only): the load generator, the fake Slack and
 *   the sandbox run in this process beside the apps, as the e2e rig runs them.
 *
 * The bot's store is a SQLite file in a temp folder, or, when a second argument names a
 * postgres:// database (bench/run.ts makes a fresh one and drops it after), PostgreSQL.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { App, HTTPReceiver, LogLevel } from '@slack/bolt';
import { boltLogger } from '../src/log.js';
import { createRuntime } from '../src/runtime.js';
import { ALICE, BOB, BOT_TOKEN, SIGNING_SECRET } from '../test/rig/workspace.js';
import { createAckWorld, type AckWorld, type AnswerCounts, type RoundResult } from './lib/ack-world.js';
import { startFloorApp } from './lib/floor-app.js';
import { runAsSection, sibling } from './lib/section.js';
import { summarize, type Summary } from './lib/stats.js';

export interface AckAppFigures extends Summary {
  /** p99 of each measured round, in order. */
  roundP99: number[];
  /** p99 without each round's first `concurrency` requests (the opening wave of a round). */
  p99AfterFirstWave: number;
  /** This process's event-loop delay (ms late) during the app's rounds, p99. */
  loopP99Ms: number;
  /** CPU time of this process per command over the app's rounds (for the bot: until every command was answered); in layout `same` it includes the load generator, fake Slack and sandbox. */
  cpuMsPerCommand: number;
  /** Commands acked per second while sending (500 commands / time to ack them all). */
  acksPerSecond: number;
}

/** Where Slack's side (load generator, fake Web API, response_url endpoints) and the cloud run. */
export type AckLayout = 'same' | 'separate';

export interface AckLatencyResult {
  layout: AckLayout;
  /** The bot's store. */
  store: 'sqlite' | 'postgres';
  perRound: number;
  concurrency: number;
  rounds: number;
  order: AckApp[];
  cloudLatencyMs: number;
  bare: AckAppFigures;
  bot: AckAppFigures;
  /**
   * The I/O floor (bench/lib/floor-app.ts): bare Bolt making the bot's requests and nothing else,
   * measured in the reference layout on SQLite only (it has no store). Its rounds are drained as the bot's are.
   */
  floor?: AckAppFigures & { answers: AnswerCounts & { allDrained: boolean } };
  /**
   * The same floor written the way Bolt's documentation writes it (`client.views.*`, `respond()`;
   * floor-app.ts `via: 'bolt-client'`): what a Bolt app making these calls the usual way pays
   * before doing anything of its own. Measured with the floor, after it.
   */
  boltFloor?: AckAppFigures & { answers: AnswerCounts & { allDrained: boolean } };
  /** bot p99 / bare p99 over all measured requests. */
  p99Ratio: number;
  /** bot / bare of the p99 without each round's first wave. */
  p99RatioAfterFirstWave: number;
  /** The same ratio per adjacent bare/bot pair of rounds. */
  pairRatios: number[];
  errors: { non200: number; transport: number };
  /** The bot's answers over all its rounds (what people would have seen). */
  answers: AnswerCounts & { maxDrainMs: number; allDrained: boolean };
  /** Time to answer, command sent → the visible answer (a read's final response_url post, a form filled), over the bot's rounds. */
  timeToAnswerMs: Summary;
  generatorLoopP99Ms: { bare: number; bot: number };
  /** Layout `separate`: the CPU the fake Slack, the cloud and the load generator were pinned to (none: not pinned). */
  worldCpu?: number;
  rssPeakMb: number;
  logLines: number;
  wallMs: number;
}

const PER_ROUND = 500;
const CONCURRENCY = 50;
const WARMUP = 500;
// ABBA BAAB, twice: 8 measured rounds per app (4,000 acks each), so a p99 rests on 40 acks.
const ORDER: AckApp[] = ['bare', 'bot', 'bot', 'bare', 'bot', 'bare', 'bare', 'bot', 'bare', 'bot', 'bot', 'bare', 'bot', 'bare', 'bare', 'bot'];
/**
 * With the I/O floor: its 4 rounds (2,000 commands) after the others, so the bare and bot rounds
 * keep the order and spacing they have without it (a floor round between them lengthened the idle
 * gaps after which a round's first wave reconnects), then the Bolt-client floor's 3. A floor's
 * figure is its CPU, not a p99.
 */
const ORDER_WITH_FLOOR: AckApp[] = [...ORDER, 'floor', 'floor', 'floor', 'floor', 'boltFloor', 'boltFloor', 'boltFloor'];
/** Warm-up rounds of each floor, just before its own rounds. */
const FLOOR_WARMUP_ROUNDS: Partial<Record<AckApp, number>> = { floor: 2, boltFloor: 1 };

export type AckApp = 'bare' | 'bot' | 'floor' | 'boltFloor';
const CLOUD_LATENCY_MS = 1000;
/** Sending stops after this long; the wait for answers after it is bounded in ack-world.ts. */
const ROUND_TIME_LIMIT_MS = 10_000;
const LOOP_RESOLUTION_MS = 10;

/** Node flags with --expose-gc added (rounds start on a collected heap). */
export const withExposeGc = (argv: string[]) => (argv.includes('--expose-gc') ? argv : [...argv, '--expose-gc']);

const TASKSET = '/usr/bin/taskset';
/**
 * The CPU Slack's side (fake Slack, response_url endpoints, sandbox cloud) is pinned to in the
 * reference layout: the last one, on Linux with 2 or more CPUs and taskset. In production the fake Slack, the cloud and Slack's servers run on other
 * machines; on the bench machine they would otherwise take turns on the apps' core whenever the
 * bot's answers keep them busy (their CPU per command is about the bot's own), which the bare
 * app, answering nothing, never causes. The apps' process is not pinned.
 */
function worldCpu(): number | undefined {
  const cpus = availableParallelism();
  return process.platform === 'linux' && cpus >= 2 && existsSync(TASKSET) ? cpus - 1 : undefined;
}

/** Slack's side and the cloud in a child process (layout `separate`), driven over IPC. */
async function startWorldProcess(): Promise<AckWorld> {
  const script = fileURLToPath(sibling('./lib/ack-world.ts', import.meta.url));
  const execArgv = withExposeGc(process.execArgv);
  const cpu = worldCpu();
  const child: ChildProcess =
    cpu === undefined
      ? fork(script, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
      : // Its load generator gets every CPU back (ack-world.ts, --generator-cpus): it only sends and times.
        spawn(TASKSET, ['-c', String(cpu), process.execPath, ...execArgv, script, '--generator-cpus', `0-${cpu}`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (m: { round?: RoundResult; error?: string }) => void>();
  const ready = new Promise<{ slackUrl: string; cloudBaseUrl: string; cloudToken: string }>((resolve, reject) => {
    child.on('message', (m: { id?: number; ready?: boolean; slackUrl: string; cloudBaseUrl: string; cloudToken: string; round?: RoundResult; error?: string }) => {
      if (m.ready) return resolve(m);
      if (m.id === undefined) return;
      pending.get(m.id)?.(m);
      pending.delete(m.id);
    });
    child.once('exit', (code) => reject(new Error(`the Slack/cloud process exited (${code})`)));
  });
  const info = await ready;
  let seq = 0;
  const ask = <T>(msg: Record<string, unknown>) =>
    new Promise<T>((resolve, reject) => {
      const id = ++seq;
      pending.set(id, (m) => (m.error ? reject(new Error(m.error)) : resolve(m as T)));
      child.send({ ...msg, id });
    });
  return {
    ...info,
    round: async (req) => (await ask<{ round: RoundResult }>({ type: 'round', ...req })).round,
    close: async () => {
      await ask({ type: 'close' });
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r));
    },
  };
}

export async function runAckLatency(layout: AckLayout, postgresUrl?: string): Promise<AckLatencyResult> {
  const started = performance.now();
  const world = layout === 'same' ? await createAckWorld() : await startWorldProcess();
  let logLines = 0;

  // ── the real bot, wired as src/main.ts wires it (src/runtime.ts: one pool for both cloud clients)
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-bench-ack-'));
  const bot = createRuntime({
    slack: { mode: 'http', botToken: BOT_TOKEN, appToken: undefined, signingSecret: SIGNING_SECRET, port: 0, apiUrl: world.slackUrl },
    cloud: { baseUrl: world.cloudBaseUrl, token: world.cloudToken },
    databasePath: join(dir, 'cloudbot.db'),
    ...(postgresUrl ? { database: { kind: 'postgres' as const, url: postgresUrl } } : {}),
    access: {
      config: { admins: [ALICE.id], operators: [BOB.id], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined },
    },
    log: { level: 'info', sink: () => void logLines++ },
  });
  const logger = bot.logger;
  const { port: botPort } = await bot.start();
  const botUrl = `http://127.0.0.1:${botPort}/slack/events`;

  // ── the bare app: the same receiver setup, a handler that only acks
  const bareLogger = boltLogger(logger.child({ component: 'bolt-bare' }));
  const bare = new App({
    token: BOT_TOKEN,
    receiver: new HTTPReceiver({
      signingSecret: SIGNING_SECRET,
      endpoints: '/slack/events',
      logger: bareLogger,
      logLevel: LogLevel.INFO,
      customRoutes: [{ path: '/healthz', method: 'GET', handler: (_req, res) => res.end('ok') }],
      processBeforeResponse: false,
    }),
    logger: bareLogger,
    logLevel: LogLevel.INFO,
    clientOptions: { slackApiUrl: world.slackUrl },
    deferInitialization: true,
  });
  bare.command('/cloud', async ({ ack }) => {
    await ack();
  });
  await bare.init();
  // Loopback only (the runtime binds port 0 as the e2e rig does; both are reached on 127.0.0.1).
  const bareServer = (await bare.start({ port: 0, host: '127.0.0.1' })) as unknown as Server;
  const bareUrl = `http://127.0.0.1:${(bareServer.address() as AddressInfo).port}/slack/events`;

  // The I/O floor, in the reference layout on SQLite (the floor has no store: once per bench run is enough).
  const withFloor = layout === 'separate' && !postgresUrl;
  const floorWorld = { slackUrl: world.slackUrl, cloudBaseUrl: world.cloudBaseUrl, cloudToken: world.cloudToken, botToken: BOT_TOKEN, signingSecret: SIGNING_SECRET };
  const floor = withFloor ? await startFloorApp(floorWorld) : undefined;
  const boltFloor = withFloor ? await startFloorApp(floorWorld, 'bolt-client') : undefined;
  const order = floor ? ORDER_WITH_FLOOR : ORDER;
  const urlOf: Record<AckApp, string> = { bare: bareUrl, bot: botUrl, floor: floor?.url ?? '', boltFloor: boltFloor?.url ?? '' };
  let rssPeak = process.memoryUsage().rss;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 100);
  // Each round starts on a collected heap in both processes, so no round pays for the garbage
  // of the one before it (the bot's answers leave plenty).
  const gc = (globalThis as { gc?: () => void }).gc;
  const run = (app: AckApp, total: number) => {
    return world.round({ url: urlOf[app], total, concurrency: CONCURRENCY, drain: app !== 'bare', timeLimitMs: ROUND_TIME_LIMIT_MS });
  };

  try {
    // Warm-up: JIT, connections, the store's pages (or pool), the fake Slack's and the sandbox's own paths.
    for (const app of ['bare', 'bot', 'bare', 'bot'] as const) await run(app, WARMUP);
    gc?.();

    const perApp = <T>(make: () => T): Record<AckApp, T> => ({ bare: make(), bot: make(), floor: make(), boltFloor: make() });
    const samples = perApp(() => [] as number[]);
    const roundP99 = perApp(() => [] as number[]);
    const afterFirstWave = perApp(() => [] as number[]);
    const loop = perApp(() => [] as number[]);
    const genLoop = perApp(() => [] as number[]);
    const cpu = perApp(() => 0);
    const sendMs = perApp(() => 0);
    /** Each app's round results (what its people saw is read from the drained ones). */
    const rounds = perApp(() => [] as RoundResult[]);
    const warm = new Set<AckApp>();
    const errors = { non200: 0, transport: 0 };
    for (const app of order) {
      const warmups = FLOOR_WARMUP_ROUNDS[app] ?? 0;
      if (warmups > 0 && !warm.has(app)) {
        // Its own warm-up, just before its rounds (JIT, connections).
        for (let i = 0; i < warmups; i++) await run(app, WARMUP);
        warm.add(app);
      }
      gc?.();
      const h = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
      h.enable();
      const cpu0 = process.cpuUsage();
      const r = await run(app, PER_ROUND);
      const used = process.cpuUsage(cpu0);
      h.disable();
      cpu[app] += (used.user + used.system) / 1000;
      sendMs[app] += r.sendWallMs;
      const acks = r.ackMs.filter((x) => Number.isFinite(x));
      samples[app].push(...acks);
      afterFirstWave[app].push(...r.ackMs.slice(CONCURRENCY).filter((x) => Number.isFinite(x)));
      roundP99[app].push(summarize(acks).p99);
      loop[app].push(Math.max(0, h.percentile(99) / 1e6 - LOOP_RESOLUTION_MS));
      genLoop[app].push(r.generatorLoopP99Ms);
      errors.non200 += r.non200;
      errors.transport += r.transportErrors + (PER_ROUND - acks.length);
      rounds[app].push(r);
    }

    const figures = (app: AckApp): AckAppFigures => ({
      ...summarize(samples[app]),
      roundP99: roundP99[app],
      p99AfterFirstWave: summarize(afterFirstWave[app]).p99,
      loopP99Ms: Math.max(...loop[app]),
      cpuMsPerCommand: cpu[app] / samples[app].length,
      acksPerSecond: (samples[app].length * 1000) / sendMs[app],
    });
    const bareFig = figures('bare');
    const botFig = figures('bot');
    // Adjacent pairs in ABBA order: (bare0, bot0), (bot1, bare1), (bare2, bot2).
    const pairRatios = roundP99.bot.map((p, i) => p / roundP99.bare[i]!);
    /** What the people behind one app's rounds saw, summed. */
    const answersOf = (appRounds: RoundResult[]) => {
      const sum = (f: (a: NonNullable<RoundResult['answers']>) => number) => appRounds.reduce((acc, r) => acc + (r.answers ? f(r.answers) : 0), 0);
      const viewErrors: Record<string, number> = {};
      for (const r of appRounds) for (const [k, v] of Object.entries(r.answers?.viewErrors ?? {})) viewErrors[k] = (viewErrors[k] ?? 0) + v;
      return {
        reads: sum((a) => a.reads),
        readsAnswered: sum((a) => a.readsAnswered),
        readsFailed: sum((a) => a.readsFailed),
        slowNotices: sum((a) => a.slowNotices),
        modals: sum((a) => a.modals),
        viewsOpened: sum((a) => a.viewsOpened),
        viewsFilled: sum((a) => a.viewsFilled),
        viewErrors,
        responseUrlRefusals: sum((a) => a.responseUrlRefusals),
        blockKitViolations: sum((a) => a.blockKitViolations),
        maxDrainMs: Math.max(...appRounds.map((r) => r.answers?.drainMs ?? 0)),
        allDrained: appRounds.every((r) => r.answers?.drained === true),
      };
    };

    return {
      layout,
      ...(layout === 'separate' && worldCpu() !== undefined ? { worldCpu: worldCpu() } : {}),
      store: postgresUrl ? 'postgres' : 'sqlite',
      perRound: PER_ROUND,
      concurrency: CONCURRENCY,
      rounds: ORDER.length / 2,
      order,
      cloudLatencyMs: CLOUD_LATENCY_MS,
      bare: bareFig,
      bot: botFig,
      ...(floor ? { floor: { ...figures('floor'), answers: answersOf(rounds.floor) } } : {}),
      ...(boltFloor ? { boltFloor: { ...figures('boltFloor'), answers: answersOf(rounds.boltFloor) } } : {}),
      p99Ratio: botFig.p99 / bareFig.p99,
      p99RatioAfterFirstWave: botFig.p99AfterFirstWave / bareFig.p99AfterFirstWave,
      pairRatios,
      errors,
      answers: answersOf(rounds.bot),
      timeToAnswerMs: summarize(rounds.bot.flatMap((r) => r.answers?.answerMs ?? [])),
      generatorLoopP99Ms: { bare: Math.max(...genLoop.bare), bot: Math.max(...genLoop.bot) },
      rssPeakMb: rssPeak / (1024 * 1024),
      logLines,
      wallMs: performance.now() - started,
    };
  } finally {
    clearInterval(sampler);
    await bot.stop(); // closes its pool and store too
    await bare.stop();
    await floor?.stop();
    await boltFloor?.stop();
    await world.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runAsSection(import.meta.url, () => {
  const [layout = 'separate', database] = process.argv.slice(2);
  if (layout !== 'same' && layout !== 'separate') throw new Error(`unknown layout ${layout} (same | separate)`);
  return runAckLatency(layout, database);
});
