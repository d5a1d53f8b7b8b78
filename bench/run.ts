/**
 * `npm run bench`: runs every section in a process of its own (ack latency in two layouts, watch
 * scale with a diagnostic re-run and a re-run as compiled JavaScript under plain node, the
 * reference ack run and the watch-scale run again on PostgreSQL, alert scale, client overhead,
 * runtime floors), prints the results as markdown and writes them to bench/results.md with the
 * machine's details and a PASS/MISS per target. Everything talks to 127.0.0.1 only (PostgreSQL:
 * the server BENCH_DATABASE_URL / TEST_DATABASE_URL names, by default CI's on 127.0.0.1); every
 * section has a count limit and a time limit. The sections' time limits add up to 580 s (450 s
 * SQLite and the rest, 130 s PostgreSQL); the target for the whole run is under 5 minutes.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { AckLatencyResult, AckLayout } from './ack-latency.js';
import type { AlertScaleResult } from './alert-scale.js';
import { alertSection, alertTargetRows, alertWhy } from './lib/alert-report.js';
import { loadBenchDatabaseUrl } from '../src/config.js';
import type { ClientOverheadResult } from './client-overhead.js';
import { createBenchDatabase, PgUnavailable, probeServer, type PgServer } from './lib/pg-database.js';
import { forkSection, type ForkOptions } from './lib/section.js';
import { fmt } from './lib/stats.js';
import { notMeasured, storeComparison, table, type PgRun } from './lib/store-comparison.js';
import type { WatchScaleResult } from './watch-scale.js';
import type { StartReadyResult } from './start-ready.js';
import { RSS_TARGET_MB, startSection, startTargetRows } from './lib/footprint-report.js';
import { startFlags } from './lib/start-flags.js';

const TARGETS = {
  ackRatio: 1.5,
  eventLoopMs: 50,
  rssMb: 200,
  clientRatio: 1.3,
  totalMinutes: 5,
};
/** The heap cap of the diagnostic watch-scale run (what the RSS is without V8's lazy growth). */
const DIAGNOSTIC_HEAP_FLAG = '--max-old-space-size=128';

const here = (file: string) => new URL(file, import.meta.url);
/** Where bench/tsconfig.compiled.json puts the compiled src and bench (gitignored). */
const COMPILED_DIR = './.compiled/';
const mbToGb = (bytes: number) => bytes / 1024 ** 3;

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { cwd: fileURLToPath(here('..')), encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

function plainNodeRssMb(): number {
  const out = execFileSync(process.execPath, ['-e', 'setTimeout(() => console.log(process.memoryUsage().rss), 200)'], { encoding: 'utf8' });
  return Number(out.trim()) / (1024 * 1024);
}

/** Compiles src and bench to JavaScript with the repo's tsc; the error text when that fails. */
function compile(): { ok: true; ms: number } | { ok: false; error: string } {
  const t0 = performance.now();
  rmSync(here(COMPILED_DIR), { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [fileURLToPath(here('../node_modules/typescript/bin/tsc')), '-p', fileURLToPath(here('./tsconfig.compiled.json'))], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, ms: performance.now() - t0 };
  } catch (e) {
    const out = e as { stdout?: string; stderr?: string; message?: string };
    return { ok: false, error: `${out.stdout ?? ''}${out.stderr ?? ''}`.trim() || String(out.message) };
  }
}

async function section<T>(name: string, file: string, timeoutMs: number, flags: string[] = [], options: ForkOptions = {}): Promise<T> {
  const t0 = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  const result = await forkSection<T>(here(file), timeoutMs, flags, options);
  process.stderr.write(`bench: ${name} done in ${fmt((performance.now() - t0) / 1000)} s\n`);
  return result;
}

const pass = (ok: boolean) => (ok ? 'PASS' : '**MISS**');
const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** The PostgreSQL server of this run: probed once; once unreachable, later sections are not tried. */
const pgServerUrl = loadBenchDatabaseUrl();
let pgServer: PgServer | undefined;
let pgDown: string | undefined;

/**
 * A section on PostgreSQL: a fresh database for it (its URL is the section's last argument),
 * dropped afterwards whatever happened. Never throws: a PostgreSQL failure leaves the SQLite
 * figures standing and is reported as such.
 */
async function pgSection<T>(name: string, file: string, timeoutMs: number, flags: string[], args: string[], tag: string): Promise<PgRun<T>> {
  if (pgDown) {
    process.stderr.write(`bench: ${name} skipped (${pgDown})\n`);
    return { ok: false, unreachable: true, why: pgDown };
  }
  let db: Awaited<ReturnType<typeof createBenchDatabase>>;
  try {
    pgServer ??= await probeServer(pgServerUrl);
    db = await createBenchDatabase(pgServerUrl, tag);
  } catch (e) {
    const why = firstLine(e);
    if (e instanceof PgUnavailable) pgDown = why;
    process.stderr.write(`bench: ${name} not run: ${why}\n`);
    return { ok: false, unreachable: e instanceof PgUnavailable, why };
  }
  try {
    return { ok: true, result: await section<T>(name, file, timeoutMs, flags, { args: [...args, db.url] }) };
  } catch (e) {
    process.stderr.write(`bench: ${name} failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return { ok: false, unreachable: false, why: firstLine(e) };
  } finally {
    await db.drop().catch((e: unknown) => process.stderr.write(`bench: could not drop the bench database: ${firstLine(e)}\n`));
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const date = new Date();
  const loadStart = os.loadavg();

  // The issue's reference layout first: the load generator (and fake Slack, sandbox) beside the apps.
  const ack = await section<AckLatencyResult>('ack latency (load generator in the same process, reference)', './ack-latency.ts', 60_000, ['--expose-gc'], { args: ['same'] });
  const ackPg = await pgSection<AckLatencyResult>('ack latency on PostgreSQL (reference layout)', './ack-latency.ts', 60_000, ['--expose-gc'], ['same'], 'ack');
  const ackSeparate = await section<AckLatencyResult>('ack latency (load generator in a separate process)', './ack-latency.ts', 60_000, ['--expose-gc'], {
    args: ['separate'],
  });
  const watch = await section<WatchScaleResult>('watch scale', './watch-scale.ts', 70_000, ['--expose-gc']);
  const watchPg = await pgSection<WatchScaleResult>('watch scale on PostgreSQL', './watch-scale.ts', 70_000, ['--expose-gc'], [], 'watch');
  process.stderr.write('bench: compiling src and bench (bench/tsconfig.compiled.json)…\n');
  const compiled = compile();
  const watchCompiled = compiled.ok
    ? await section<WatchScaleResult>('watch scale (compiled JavaScript, plain node, `npm start` flags)', `${COMPILED_DIR}bench/watch-scale.js`, 70_000, ['--expose-gc', ...startFlags()], { plainNode: true })
    : undefined;
  // 1,000 watches and 1,000 subscriptions, as the compiled bot would run them.
  const alertsCompiled = compiled.ok
    ? await section<AlertScaleResult>('alert scale (compiled JavaScript, `npm start` flags)', `${COMPILED_DIR}bench/alert-scale.js`, 60_000, startFlags(), { plainNode: true }).catch(() => undefined)
    : undefined;
  rmSync(here(COMPILED_DIR), { recursive: true, force: true });
  const watchCapped = await section<WatchScaleResult>(`watch scale (diagnostic, ${DIAGNOSTIC_HEAP_FLAG})`, './watch-scale.ts', 70_000, [
    '--expose-gc',
    DIAGNOSTIC_HEAP_FLAG,
  ]);
  const alerts = await section<AlertScaleResult>('alert scale', './alert-scale.ts', 60_000);
  // The bot as `npm start` runs it: dist/ built as `npm run build` does, then spawned (bench/start-ready.ts).
  execFileSync(process.execPath, [fileURLToPath(here('../scripts/start.mjs')), '--build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const startReady = await section<StartReadyResult>('start to ready and time to answer (compiled bot)', './start-ready.ts', 60_000).catch(() => undefined);
  const startReadyPg = await pgSection<StartReadyResult>('start to ready and time to answer on PostgreSQL', './start-ready.ts', 60_000, [], [], 'start');
  const client = await section<ClientOverheadResult>('client overhead', './client-overhead.ts', 45_000);
  const idleTsx = await section<{ rssMb: number }>('runtime floor', './lib/idle.ts', 15_000);
  const idleNode = plainNodeRssMb();
  const loadEnd = os.loadavg();
  const totalS = (performance.now() - started) / 1000;

  // ── targets
  const ackOk = ack.p99Ratio <= TARGETS.ackRatio;
  const allFinished = watch.finished === watch.watches;
  const boundOk = allFinished && watch.requestsPerWatch.overBound === 0;
  const quietOk = allFinished && watch.postsWithoutChange === 0;
  const capOk = watch.peak.limiter <= watch.cap && watch.peak.server <= watch.cap && watch.peak.transport <= watch.cap;
  const loopOk = watch.eventLoop.p99Ms < TARGETS.eventLoopMs;
  const rssOk = watch.rss.peakMb < TARGETS.rssMb;
  const compiledRssOk = watchCompiled !== undefined && watchCompiled.rss.peakMb < TARGETS.rssMb;
  const compiledSame = watchCompiled !== undefined && watchCompiled.finished === watch.finished && watchCompiled.requestsPerWatch.total === watch.requestsPerWatch.total;
  const clientOk = client.ratio <= TARGETS.clientRatio && client.errors === 0;
  const timeOk = totalS < TARGETS.totalMinutes * 60;
  // The same targets on PostgreSQL (undefined: not measured).
  const pgAckOk = ackPg.ok ? ackPg.result.p99Ratio <= TARGETS.ackRatio : undefined;
  const pgW = watchPg.ok ? watchPg.result : undefined;
  const pgWatchOk = pgW
    ? pgW.finished === pgW.watches && pgW.requestsPerWatch.overBound === 0 && pgW.postsWithoutChange === 0 && Math.max(pgW.peak.limiter, pgW.peak.server, pgW.peak.transport) <= pgW.cap
    : undefined;
  const pgLoopOk = pgW ? pgW.eventLoop.p99Ms < TARGETS.eventLoopMs : undefined;
  const pgRssOk = pgW ? pgW.rss.peakMb < TARGETS.rssMb : undefined;
  const pgPass = (ok: boolean | undefined) => (ok === undefined ? '**NOT MEASURED**' : pass(ok));
  const pgMeasured = <T>(run: PgRun<T>, f: (r: T) => string) => (run.ok ? f(run.result) : notMeasured(run));

  const targets = table(
    ['Target', 'Measured', 'Limit', 'Result'],
    [
      [
        'Ack p99 under load, bot ÷ bare Bolt (same run), load generator beside the apps (the issue\'s reference layout)',
        `${fmt(ack.p99Ratio, 2)}× (${fmt(ack.bot.p99)} ms ÷ ${fmt(ack.bare.p99)} ms)`,
        `≤ ${TARGETS.ackRatio}×`,
        pass(ackOk),
      ],
      [
        '… the same on PostgreSQL (reference layout)',
        pgMeasured(ackPg, (r) => `${fmt(r.p99Ratio, 2)}× (${fmt(r.bot.p99)} ms ÷ ${fmt(r.bare.p99)} ms)`),
        `≤ ${TARGETS.ackRatio}×`,
        pgPass(pgAckOk),
      ],
      [
        '… the same with the load generator in a separate process (for comparison, not the target)',
        `${fmt(ackSeparate.p99Ratio, 2)}× (${fmt(ackSeparate.bot.p99)} ms ÷ ${fmt(ackSeparate.bare.p99)} ms)`,
        `(≤ ${TARGETS.ackRatio}×)`,
        `(${ackSeparate.p99Ratio <= TARGETS.ackRatio ? 'would pass' : 'would miss'})`,
      ],
      [
        'Cloud requests per finished watch ≤ duration ÷ interval + 2',
        `mean ${fmt(watch.requestsPerWatch.mean, 2)} (bound mean ${fmt(watch.requestsPerWatch.boundMean, 1)}), max ${watch.requestsPerWatch.max}; ${watch.requestsPerWatch.overBound} of ${watch.finished} over`,
        'every watch',
        pass(boundOk),
      ],
      ['No Slack post without a state change', `${watch.postsWithoutChange} such posts in ${watch.slack.calls} Slack calls`, '0', pass(quietOk)],
      ['Peak concurrent cloud requests vs the cap', `limiter ${watch.peak.limiter}, client ${watch.peak.transport}, server ${watch.peak.server}`, `≤ ${watch.cap}`, pass(capOk)],
      ['Event-loop delay p99 (watch scale)', `${fmt(watch.eventLoop.p99Ms)} ms`, `< ${TARGETS.eventLoopMs} ms`, pass(loopOk)],
      ['RSS peak (watch scale, 1,000 watches), under tsx as `npm start` runs the bot', `${fmt(watch.rss.peakMb)} MB`, `< ${TARGETS.rssMb} MB`, pass(rssOk)],
      [
        'RSS peak (watch scale, 1,000 watches) as `npm start` runs it: compiled JS, plain node, the start script\'s flags',
        watchCompiled ? `${fmt(watchCompiled.rss.peakMb)} MB (${watchCompiled.nodeFlags.join(' ')})` : 'compile failed (see below)',
        `≤ ${RSS_TARGET_MB} MB`,
        watchCompiled ? pass(watchCompiled.rss.peakMb <= RSS_TARGET_MB) : '**MISS**',
      ],
      [
        'Watch scale on PostgreSQL: every watch finished, requests within the bound, no post without a change, peak concurrency ≤ cap',
        pgMeasured(
          watchPg,
          (r) => `${r.finished} of ${r.watches} finished; requests mean ${fmt(r.requestsPerWatch.mean, 2)}, ${r.requestsPerWatch.overBound} over; ${r.postsWithoutChange} posts without a change; peak ${r.peak.limiter} / ${r.peak.transport} / ${r.peak.server}`,
        ),
        `bound; 0; ≤ ${watch.cap}`,
        pgPass(pgWatchOk),
      ],
      ['Event-loop delay p99 (watch scale, PostgreSQL)', pgMeasured(watchPg, (r) => `${fmt(r.eventLoop.p99Ms)} ms`), `< ${TARGETS.eventLoopMs} ms`, pgPass(pgLoopOk)],
      ['RSS peak (watch scale, PostgreSQL, tsx)', pgMeasured(watchPg, (r) => `${fmt(r.rss.peakMb)} MB`), `< ${TARGETS.rssMb} MB`, pgPass(pgRssOk)],
      ...alertTargetRows(alerts),
      ...startTargetRows(startReady, startReadyPg),
      ['Client overhead, cloud client ÷ raw undici', `${fmt(client.ratio, 2)}× (${fmt(client.client.perRequestUs)} µs ÷ ${fmt(client.raw.perRequestUs)} µs per GET)`, `≤ ${TARGETS.clientRatio}×`, pass(clientOk)],
      ['`npm run bench` wall time', `${fmt(totalS)} s`, `< ${TARGETS.totalMinutes * 60} s`, pass(timeOk)],
    ],
  );

  // ── sections
  const layoutName: Record<AckLayout, string> = {
    same: 'load generator in the same process (reference)',
    separate: 'load generator in a separate process',
  };
  const layoutLabel = (r: AckLatencyResult) => `${layoutName[r.layout]}${r.store === 'postgres' ? ', **store on PostgreSQL**' : ''}`;
  const ackRows = (r: AckLatencyResult) =>
    (['bare', 'bot'] as const).map((app) => {
      const f = r[app];
      return [
        layoutLabel(r),
        app === 'bare' ? 'bare Bolt app (ack only)' : 'cloudbot (createRuntime)',
        fmt(f.p50),
        fmt(f.p95),
        fmt(f.p99),
        fmt(f.max),
        fmt(f.p99AfterFirstWave),
        fmt(f.acksPerSecond, 0),
        fmt(f.cpuMsPerCommand, 2),
        fmt(f.loopP99Ms),
        f.roundP99.map((x) => fmt(x)).join(', '),
      ];
    });
  const ackTable = table(
    ['Layout', 'App', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'p99 ms without each round\'s first 50', 'acks/s while sending', 'CPU ms per command (app process)', 'app event-loop p99 ms', 'p99 per round (ms)'],
    [...ackRows(ack), ...(ackPg.ok ? ackRows(ackPg.result) : []), ...ackRows(ackSeparate)],
  );
  const ackBullets = (r: AckLatencyResult) => {
    const a = r.answers;
    const viewErrors = Object.entries(a.viewErrors).map(([k, v]) => `${k} × ${v}`).join(', ') || 'none';
    return [
      `- **${layoutLabel(r).replaceAll('**', '')}**: p99 ratio bot ÷ bare **${fmt(r.p99Ratio, 2)}×** over all rounds (${fmt(r.bot.p99)} ÷ ${fmt(r.bare.p99)} ms); per adjacent pair of rounds: ${r.pairRatios.map((x) => `${fmt(x, 2)}×`).join(', ')}; without each round's first ${r.concurrency} requests ${fmt(r.p99RatioAfterFirstWave, 2)}× (${fmt(r.bot.p99AfterFirstWave)} ÷ ${fmt(r.bare.p99AfterFirstWave)} ms).`,
      `  Non-200 acks: ${r.errors.non200}; transport errors: ${r.errors.transport}. The bot's answers: reads ${a.readsAnswered}/${a.reads} answered through their response_url (${a.readsFailed} showing an error, ${a.slowNotices} "cloud is slow" notices); forms ${a.viewsOpened}/${a.modals} opened, ${a.viewsFilled}/${a.modals} filled with choices from the cloud; Slack refusals: ${viewErrors}; response_url refusals: ${a.responseUrlRefusals}; Block Kit violations: ${a.blockKitViolations}; every round drained: ${a.allDrained ? 'yes' : 'NO'} (longest ${fmt(a.maxDrainMs / 1000, 1)} s after the last ack).`,
      `  Load generator's event-loop delay p99 (ms late${r.layout === 'same' ? ', the apps\' own loop in this layout' : ''}): ${fmt(r.generatorLoopP99Ms.bare)} during bare rounds, ${fmt(r.generatorLoopP99Ms.bot)} during bot rounds. App process RSS peak ${fmt(r.rssPeakMb)} MB. Section wall time ${fmt(r.wallMs / 1000)} s.`,
    ].join('\n');
  };
  const ackSection = [
    '## Ack latency under load',
    '',
    `Per layout: ${ack.rounds} measured rounds per app of ${ack.perRound} signed \`/cloud\` commands (reads and form openers), ${ack.concurrency} in flight, order ${ack.order.join(' → ')} (after a warm-up of 4 × 500); the cloud answers every request after ${ack.cloudLatencyMs} ms. Ack time = request sent → response status received, over ${ack.bot.n} requests per app and layout. Two layouts, each in a process of its own: the **reference** (the issue's "load generator beside it") runs the load generator, the fake Slack Web API, the response_url endpoints and the sandbox cloud in the same process as both apps, as the e2e rig does; the other runs them in a separate process, so the apps' event loop carries only the apps. The reference layout runs twice, the bot's store a SQLite file, then PostgreSQL (the bare app has no store; it is measured again beside each). In the reference layout the "CPU per command" column includes the load generator, fake Slack and sandbox.`,
    '',
    ackTable,
    '',
    ackBullets(ack),
    ...(ackPg.ok ? [ackBullets(ackPg.result)] : [`- **${layoutName.same}, store on PostgreSQL**: ${notMeasured(ackPg)} (${ackPg.why}).`]),
    ackBullets(ackSeparate),
  ].join('\n');

  const w = watch;
  const watchRows: (string | number)[][] = [
    ['Watches (finished: succeeded / failed / other)', `${w.watches} (${w.finished}: ${w.succeeded} / ${w.failed} / ${w.otherEnds})`],
    ['Simulated time / steps', `${fmt(w.simulatedMs / 1000, 0)} s in ${w.steps} steps of ${w.stepMs} ms; builds ${w.buildMs.min / 1000}–${w.buildMs.max / 1000} s, deploys spread over the first 30 s`],
    ['Cloud requests per finished watch', `mean ${fmt(w.requestsPerWatch.mean, 2)}, max ${w.requestsPerWatch.max} (bound duration ÷ ${w.baseIntervalMs / 1000} s + 2: mean ${fmt(w.requestsPerWatch.boundMean, 1)}; highest share of its bound ${fmt(w.requestsPerWatch.maxShareOfBound * 100, 0)} %); total ${w.requestsPerWatch.total}`],
    ['Peak concurrent cloud requests (cap ' + w.cap + ')', `limiter ${w.peak.limiter}, cloud client ${w.peak.transport}, at the server ${w.peak.server}`],
    ['State change → Slack post, simulated (all posts)', `p50 ${fmt(w.delayMs.all.p50 / 1000)} s, p99 ${fmt(w.delayMs.all.p99 / 1000)} s, max ${fmt(w.delayMs.all.max / 1000)} s (n ${w.delayMs.all.n})`],
    ['… in_progress posts / final posts', `p50 ${fmt(w.delayMs.progress.p50 / 1000)} s, p99 ${fmt(w.delayMs.progress.p99 / 1000)} s / p50 ${fmt(w.delayMs.final.p50 / 1000)} s, p99 ${fmt(w.delayMs.final.p99 / 1000)} s`],
    ['Slack calls per watch', `${fmt(w.slack.perWatch, 2)} (${fmt(w.slack.threadPostsPerWatch, 2)} thread posts + ${fmt(w.slack.updatesPerWatch, 2)} message edits; ${w.slack.ephemerals} ephemerals); plus 1 parent message each, posted by the bench`],
    ['Posts without a state change', `${w.postsWithoutChange} (in_progress seen and posted for ${w.progressSeen} of ${w.finished} builds)`],
    ['Event-loop delay (ms late, 10 ms timer)', `p50 ${fmt(w.eventLoop.p50Ms)}, p99 ${fmt(w.eventLoop.p99Ms)}, max ${fmt(w.eventLoop.maxMs)} (raw histogram p99 ${fmt(w.eventLoop.rawP99Ms)})`],
    ['watcher.tick() wall time', `p50 ${fmt(w.tickMs.p50)} ms, p99 ${fmt(w.tickMs.p99)} ms, max ${fmt(w.tickMs.max)} ms`],
    ['RSS', `${fmt(w.rss.startMb)} MB at start (modules loaded) → peak ${fmt(w.rss.peakMb)} MB; ${w.rss.afterGcMb === null ? '' : `${fmt(w.rss.afterGcMb)} MB after a full GC; `}heap peak ${fmt(w.heapPeakMb)} MB, ${w.heapAfterGcMb === null ? 'n/a' : fmt(w.heapAfterGcMb)} MB live after a full GC`],
    [`Diagnostic re-run with ${DIAGNOSTIC_HEAP_FLAG}`, `RSS peak ${fmt(watchCapped.rss.peakMb)} MB, heap peak ${fmt(watchCapped.heapPeakMb)} MB, event-loop p99 ${fmt(watchCapped.eventLoop.p99Ms)} ms, requests per watch ${fmt(watchCapped.requestsPerWatch.mean, 2)}, wall ${fmt(watchCapped.wallMs / 1000)} s`],
    [
      'RSS peak as compiled JS under node (same section: `tsc -p bench/tsconfig.compiled.json`, run with `node --expose-gc`)',
      watchCompiled
        ? `peak ${fmt(watchCompiled.rss.peakMb)} MB (tsx: ${fmt(w.rss.peakMb)} MB); ${fmt(watchCompiled.rss.startMb)} MB at start (tsx: ${fmt(w.rss.startMb)} MB); ${watchCompiled.rss.afterGcMb === null ? '' : `${fmt(watchCompiled.rss.afterGcMb)} MB after a full GC; `}heap peak ${fmt(watchCompiled.heapPeakMb)} MB, ${watchCompiled.heapAfterGcMb === null ? 'n/a' : fmt(watchCompiled.heapAfterGcMb)} MB live after a full GC; event-loop p99 ${fmt(watchCompiled.eventLoop.p99Ms)} ms; requests per watch ${fmt(watchCompiled.requestsPerWatch.mean, 2)} (${compiledSame ? 'same run as under tsx' : 'DIFFERS from the tsx run'}); wall ${fmt(watchCompiled.wallMs / 1000)} s; compile ${compiled.ok ? fmt(compiled.ms / 1000) : 'n/a'} s`
        : `not measured: compilation failed — ${compiled.ok ? '' : compiled.error.replace(/\s*\n\s*/g, ' / ').replace(/\|/g, '\\|').slice(0, 600)}`,
    ],
    ['Runtime floor (empty program)', `tsx ${fmt(idleTsx.rssMb)} MB, plain node ${fmt(idleNode)} MB`],
    ['Section wall time', `${fmt(w.wallMs / 1000)} s`],
  ];
  const watchSection = ['## Watch scale', '', table(['Figure', 'Value'], watchRows)].join('\n');

  const clientSection = [
    '## Client overhead',
    '',
    `${client.requests.toLocaleString('en')} GET /account/usage each way, ${client.concurrency} in flight, ${client.batches} alternating batches after a warm-up of 1,000 each, against one local node:http server in its own process answering a fixed ${client.bodyBytes}-byte body.`,
    '',
    table(
      ['Path', 'total ms', 'µs per request (wall)', 'client-process CPU µs per request'],
      [
        ['cloud client (`createCloudClient`, `account.usage()`)', fmt(client.client.totalMs, 0), fmt(client.client.perRequestUs), fmt(client.client.cpuUs)],
        ['raw undici `request` + `JSON.parse`', fmt(client.raw.totalMs, 0), fmt(client.raw.perRequestUs), fmt(client.raw.cpuUs)],
        ['ratio', `${fmt(client.ratio, 2)}×`, '', `${fmt(client.cpuRatio, 2)}× (CPU)`],
      ],
    ),
    '',
    `Errors: ${client.errors}.`,
  ].join('\n');

  // ── why, where a target was missed
  const why: string[] = [];
  {
    const sep = ackSeparate;
    const ackPhaseCpu = 1000 / sep.bot.acksPerSecond; // ms of its one thread per ack while sending
    why.push(
      [
        `- **Ack p99: ${fmt(ack.p99Ratio, 2)}× the bare app's in the reference layout (${pass(ackOk)}), ${fmt(sep.p99Ratio, 2)}× with the load generator in a separate process.** The bot acks before doing anything (\`await ack()\` is the handler's first line, the 1 s cloud is never waited on: the bot's p99 is ${fmt(ack.bot.p99)} / ${fmt(sep.bot.p99)} ms against a 1,000 ms cloud and Slack's 3,000 ms limit), but everything after the ack runs on the same event loop: parsing, the access check, \`views.open\` through Bolt's WebClient (fetch), the cloud request, and 1 s later the answer (schema check, Block Kit, response_url post, audit row). With the apps alone on their loop (separate layout) that costs ${fmt(sep.bot.cpuMsPerCommand, 2)} ms of CPU per command against ${fmt(sep.bare.cpuMsPerCommand, 2)} ms for an ack alone. With ${sep.concurrency} commands in flight and each sent as soon as the previous is acked, the load is a closed loop that saturates whichever app it hits: the bare app acked ${fmt(sep.bare.acksPerSecond, 0)} commands/s, the bot ${fmt(sep.bot.acksPerSecond, 0)}/s (≈ ${fmt(ackPhaseCpu, 2)} ms of its one thread per command while sending), and an ack waits behind the work of the commands ahead of it. In steady state (each round without its first 50 acks, see the table) the ratio follows that CPU per command, not a wait on the cloud; the all-rounds figure also depends on whether a bare round happens to start slowly, which is why it moves between runs.`,
        `  In the reference layout (the issue's: load generator, fake Slack and sandbox beside the apps, one thread for all) every ack also waits behind Slack's side's work — building, signing and sending the commands and reading the acks, and in bot rounds the fake Web API, the response_url endpoints and the sandbox — so the bare app loses its head start: bare p99 ${fmt(ack.bare.p99)} ms here against ${fmt(sep.bare.p99)} ms separate, the bot's ${fmt(ack.bot.p99)} against ${fmt(sep.bot.p99)} ms. The bare app's p99 in this layout is set by how some rounds open: per round ${ack.bare.roundP99.map((x) => fmt(x, 0)).join(', ')} ms, and without each round's first ${ack.concurrency} requests ${fmt(ack.bare.p99AfterFirstWave)} ms (bot ${fmt(ack.bot.p99AfterFirstWave)} ms, ratio ${fmt(ack.p99RatioAfterFirstWave, 2)}×). When this layout was added, a dump of one run showed the slow acks of a slow bare round to be its first requests, rising evenly (~3 ms apart) to ~110 ms, with no long event-loop stall (app event-loop p99 here ≤ ${fmt(ack.bare.loopP99Ms)} ms); which bare rounds open slowly changed from run to run (three trial runs: bare p99 120–171 ms, ratio 0.77–1.01×), and the cause was not pinned down. ${ackOk ? `So the reference ratio passes only through the bare app\'s slow opening waves (the issue\'s "near 90 ms at 50 in flight" for the bare app is what those waves look like), and the pass is not robust: per adjacent pair of rounds the ratio is ${ack.pairRatios.map((x) => `${fmt(x, 2)}×`).join(', ')}, and without the opening waves ${fmt(ack.p99RatioAfterFirstWave, 2)}×` : 'The reference ratio misses even so'}; the ratio without the opening waves is the sterner figure.`,
        `  Investigated when this bench was written (CPU profile of bot-only rounds): no single hot spot in src — our own code is about a tenth of the bot's CPU; the rest is Bolt's WebClient and global fetch for views.open/update and response_url posts, undici for the cloud, HTTP parsing and GC. Yielding once after \`ack()\` (\`setImmediate\`) so queued acks go first was tried: p50 −15 %, p99 unchanged, so src was left as it is.`,
      ].join('\n'),
    );
  }
  if (!rssOk) {
    why.push(
      `- **RSS peak ${fmt(w.rss.peakMb)} MB.** Not the watches' own memory: ${w.heapAfterGcMb === null ? 'n/a' : fmt(w.heapAfterGcMb)} MB of heap is live after a full GC at the end. The floor is the runtime — an empty program is ${fmt(idleTsx.rssMb)} MB under tsx (how \`npm start\` runs the bot) against ${fmt(idleNode)} MB on plain node — plus the bot's modules (${fmt(w.rss.startMb)} MB before the first watch). The rest is V8 letting the heap grow to ${fmt(w.heapPeakMb)} MB of mostly garbage before a full collection (allocation from ~${fmt(w.requestsPerWatch.total / 1000, 1)}k polls, their SQLite rows and JSON). With the old space capped (${DIAGNOSTIC_HEAP_FLAG}) the same run peaks at ${fmt(watchCapped.rss.peakMb)} MB with the same event-loop delay (${fmt(watchCapped.eventLoop.p99Ms)} ms p99). ${watchCompiled ? `Run as compiled JavaScript under plain node (no tsx, no heap cap), the same section peaks at ${fmt(watchCompiled.rss.peakMb)} MB (${compiledRssOk ? 'under' : 'over'} the ${TARGETS.rssMb} MB target), starting at ${fmt(watchCompiled.rss.startMb)} MB instead of ${fmt(w.rss.startMb)} MB, with ${fmt(watchCompiled.heapAfterGcMb ?? Number.NaN)} MB live after a full GC: the miss is tsx's cost, not the watcher's.` : 'The compiled-JavaScript run could not be measured (compilation failed, see the watch-scale table).'} Remedies outside this bench's scope (src and \`npm start\` were not changed): run compiled JavaScript instead of tsx, or start the bot with a heap cap (\`NODE_OPTIONS=${DIAGNOSTIC_HEAP_FLAG}\`).`,
    );
  }
  if (pgAckOk === false) {
    const r = (ackPg as { result: AckLatencyResult }).result;
    why.push(
      `- **Ack p99 on PostgreSQL: ${fmt(r.p99Ratio, 2)}× (bot ${fmt(r.bot.p99)} ms ÷ bare ${fmt(r.bare.p99)} ms; on SQLite ${fmt(ack.bot.p99)} ÷ ${fmt(ack.bare.p99)} ms).** Without each round's first ${r.concurrency} acks ${fmt(r.p99RatioAfterFirstWave, 2)}× (SQLite ${fmt(ack.p99RatioAfterFirstWave, 2)}×); CPU per command in the apps' process ${fmt(r.bot.cpuMsPerCommand, 2)} ms (SQLite ${fmt(ack.bot.cpuMsPerCommand, 2)} ms), and the PostgreSQL server's own CPU is on the same cores. The acks themselves wait on no query (\`ack()\` comes first); no further cause was investigated.`,
    );
  }
  if (pgW && pgRssOk === false) {
    why.push(
      `- **RSS peak on PostgreSQL ${fmt(pgW.rss.peakMb)} MB** (SQLite ${fmt(w.rss.peakMb)} MB): the same shape as above — ${fmt(pgW.rss.startMb)} MB before the first watch under tsx (SQLite ${fmt(w.rss.startMb)} MB), heap peak ${fmt(pgW.heapPeakMb)} MB, ${pgW.heapAfterGcMb === null ? 'n/a' : fmt(pgW.heapAfterGcMb)} MB live after a full GC (SQLite ${w.heapAfterGcMb === null ? 'n/a' : fmt(w.heapAfterGcMb)} MB). The compiled and heap-capped re-runs were made on SQLite only.`,
    );
  }
  if (pgWatchOk === false || pgLoopOk === false) {
    why.push('- Watch scale on PostgreSQL missed a target: see "SQLite and PostgreSQL side by side"; no explanation was prepared for it.');
  }
  why.push(...alertWhy(alerts));
  if (!boundOk || !quietOk || !capOk || !loopOk || !clientOk || !timeOk || (watchCompiled !== undefined && !compiledSame)) {
    why.push('- Other misses: see the figures above; no explanation was prepared for them.');
  }

  const commit = git(['rev-parse', '--short', 'HEAD']);
  const dirty = git(['status', '--porcelain', '--', 'src']);
  const cpus = os.cpus();
  const machine = table(
    ['', ''],
    [
      ['Date', date.toISOString()],
      ['CPU', `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`],
      ['Memory', `${fmt(mbToGb(os.totalmem()), 1)} GB total, ${fmt(mbToGb(os.freemem()), 1)} GB free at the end`],
      ['Node', `${process.version} (${os.platform()} ${os.release()}, ${os.arch()}), run through tsx as \`npm start\` does (one watch-scale re-run: compiled JavaScript under plain node)`],
      ['Load average (1/5/15 min)', `start ${loadStart.map((l) => fmt(l, 2)).join(' / ')}, end ${loadEnd.map((l) => fmt(l, 2)).join(' / ')}`],
      ['PostgreSQL', pgServer ? `${pgServer.description}, server ${pgServer.version} (a fresh database per section, dropped after it)` : (pgDown ?? 'not reached')],
      ['Commit', `${commit ?? 'unknown'}${dirty ? ' + uncommitted changes in src/' : ''}`],
      ['Total wall time of `npm run bench`', `${fmt(totalS)} s`],
    ],
  );

  const method = [
    '## Method and caveats',
    '',
    "- Each section runs in a process of its own. Ack latency runs three times (both layouts on SQLite, the reference layout again on PostgreSQL), both apps in one process each time. Reference layout (the issue's \"load generator beside it\"): Slack's side (load generator, fake Web API, response_url endpoints) and the sandbox cloud in that same process, as the e2e rig runs them, so one thread carries everything. Separate layout: Slack's side and the sandbox in a second process, so the apps' event loop carries only the apps; on 2 cores the two processes each get one. Rounds alternate ABBA/BAAB and each starts on a collected heap (`--expose-gc`), so no round pays for the previous round's garbage, and a bot round ends only when every command was answered. Bare rounds follow bot rounds that last seconds longer (the wait for the answers), so the two apps do not start their rounds alike; the \"without each round's first 50\" column shows how much a round's opening wave weighs.",
    "- RSS as compiled JavaScript: `bench/tsconfig.compiled.json` (the repo's tsconfig with `noEmit: false`, src and bench) is compiled by the repo's tsc into bench/.compiled (gitignored; inside the repo so node_modules resolves; removed after the run), and the compiled watch-scale section runs with plain `node --expose-gc`, its sandbox child too.",
    '- The load is a closed loop (a new command as soon as one is acked), i.e. a saturation test: figures are for the apps at their own maximum rate, not at a fixed arrival rate.',
    '- Watch scale: simulated time (manual clocks, 250 ms steps calling `watcher.tick()` as the watcher\'s loop would); the sandbox runs in its own process with its clock moved over IPC before each pass, and answers after 2 ms of real time so concurrent polls overlap at the server. Delays are in simulated time and include up to one step (250 ms) of quantisation; they come from the poll interval backing off 10 s → 60 s while nothing changes (by design). Event-loop delay is how late a 10 ms timer fired (Node\'s histogram minus the 10 ms).',
    "- Alert scale (bench/alert-scale.ts): the watcher and the monitor as runtime.ts builds them, sharing one request budget, on manual clocks in 250 ms steps (each step starts a pass of each unless one is still running, as their loops do, and ends when no cloud request is in flight); the sandbox in its own process (bench/lib/watch-cloud.ts) powers servers off and on at known instants, and \"flaps\" others (off until the next poll, on right after it). Alerts go through the real post queue (1 s per channel) on the manual clock to a recording Slack; delays are simulated time from the change to the Slack call showing it, with up to one step of quantisation. Requests per minute are counted at the sandbox by simulated instant.",
    '- PostgreSQL: the reference ack-latency run and the watch-scale run repeated with the store on PostgreSQL (the bot through `createRuntime` with `database: { kind: \'postgres\' }`, the watcher on `createStore(postgres://…)`: the production pool, timeouts and migrations), each in a database created for it and dropped after it (`DROP DATABASE … WITH (FORCE)`, also when the section fails). The server is whatever BENCH_DATABASE_URL / TEST_DATABASE_URL names (by default CI\'s, postgres://postgres@127.0.0.1:5432/test); on this machine it shares the cores with the bench, and its memory is outside the RSS figures. If it cannot be reached, the PostgreSQL rows say so and the rest of the bench runs as usual.',
    '- Client overhead: both sides use an undici Agent with the same options; the raw side does the least any caller must (request, read the body, JSON.parse); the cloud client adds URL building, headers, retry bookkeeping, `{ data }` envelope and schema validation and error scrubbing. The server is another process, so the client process\'s CPU per request is shown too.',
    '- Noise: other work on the machine (see the load average) moves the absolute figures by tens of percent between runs; the alternating rounds and same-run ratios are meant to cancel most of it.',
    '- `src/cloud/envelope.ts` builds each `{ data: … }` envelope schema once per item schema (it used to build one per call, ~20 µs): before that change this section measured 1.68–1.80× (CPU 1.82–2.00×); after it 0.93–0.96×.',
  ].join('\n');

  const md = [
    '# cloudbot benchmarks',
    '',
    `Written by \`npm run bench\` (bench/run.ts) on ${date.toISOString()}. Not part of \`npm test\`.`,
    '',
    '## Machine',
    '',
    machine,
    '',
    '## Targets',
    '',
    targets,
    '',
    storeComparison({ ack, watch }, { ack: ackPg, watch: watchPg }, pgServer),
    '',
    ackSection,
    '',
    watchSection,
    '',
    alertSection(alerts),
    '',
    startSection(startReady, startReadyPg, alertsCompiled),
    '',
    clientSection,
    '',
    ...(why.length > 0 ? ['## Why targets were missed, and what decides the ack ratio', '', ...why, ''] : []),
    method,
    '',
  ].join('\n');

  writeFileSync(here('./results.md'), md);
  process.stdout.write(`${md}\n`);
  process.stderr.write(`bench: wrote bench/results.md (${fmt(totalS)} s)\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
