/**
 * `npm run bench`: runs every section in a process of its own — ack latency in the reference
 * layout (load generator in its own process) on SQLite, with the I/O floor (bench/lib/floor-app.ts),
 * and on PostgreSQL; watch scale and alert scale as compiled JavaScript under plain node with
 * the start script's flags, on both stores (their targets and the memory as `npm start` runs
 * the bot); the compiled bot's start to ready and time to answer
 * on both stores; client overhead; runtime floors — then prints the report (machine, commit, a
 * PASS/MISS per target, the last runs' headline figures) built by bench/lib/report-*.ts, writes
 * it to bench/results.md only with `--record`, and ends with one line saying whether every
 * target was met; the exit code is non-zero when one was not (bench/lib/verdict.ts).
 *
 * Everything talks to 127.0.0.1 only (PostgreSQL: the server BENCH_DATABASE_URL /
 * TEST_DATABASE_URL names, by default CI's on 127.0.0.1); every section has a count limit and a
 * time limit. The target for the whole run is under 5 minutes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { loadBenchDatabaseUrl } from '../src/config.js';
import type { AckLatencyResult } from './ack-latency.js';
import type { AlertScaleResult } from './alert-scale.js';
import type { ClientOverheadResult } from './client-overhead.js';
import type { StartReadyResult } from './start-ready.js';
import type { WatchScaleResult } from './watch-scale.js';
import { alertSection } from './lib/alert-report.js';
import type { BenchResults } from './lib/bench-results.js';
import { startSection } from './lib/footprint-report.js';
import { formatHistory, HISTORY_HEADING, HISTORY_KEEP, parseHistory, prependRun } from './lib/history.js';
import { createBenchDatabase, PgUnavailable, probeServer, type PgServer } from './lib/pg-database.js';
import { ackSection } from './lib/report-ack.js';
import { clientSection } from './lib/report-client.js';
import { commitLabel, machineTable } from './lib/report-machine.js';
import { methodSection } from './lib/report-method.js';
import { memorySection } from './lib/memory-report.js';
import { historyRowOf, targetsReport } from './lib/report-targets.js';
import { watchSection, watchVerdicts } from './lib/report-watch.js';
import { forkSection, type ForkOptions } from './lib/section.js';
import { startFlags } from './lib/start-flags.js';
import { fmt } from './lib/stats.js';
import { storeComparison, type PgRun } from './lib/store-comparison.js';
import { benchVerdict, BenchUsageError, parseBenchArgs, RESULTS_FILE } from './lib/verdict.js';
import type { RollingRestartResult } from './rolling-restart.js';
import { cleanRun, mergeSection, rollingSection } from './lib/rolling-report.js';

const here = (file: string) => new URL(file, import.meta.url);
/** Where bench/tsconfig.compiled.json puts the compiled src and bench (gitignored). */
const COMPILED_DIR = './.compiled/';
const RESULTS = here('./results.md');

function plainNodeRssMb(): number {
  const out = execFileSync(process.execPath, ['-e', 'setTimeout(() => console.log(process.memoryUsage().rss), 200)'], { encoding: 'utf8' });
  return Number(out.trim()) / (1024 * 1024);
}

/** Compiles src and bench to JavaScript with the repo's tsc; the error text when that fails. */
function compile(): BenchResults['compiled'] {
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

/** The previous bench/results.md, if any (its "Recent runs" rows are carried over). */
function previousResults(): string | undefined {
  try {
    return readFileSync(RESULTS, 'utf8');
  } catch {
    return undefined;
  }
}

async function section<T>(name: string, file: string, timeoutMs: number, flags: string[] = [], options: ForkOptions = {}): Promise<T> {
  const t0 = performance.now();
  process.stderr.write(`bench: ${name}…\n`);
  const result = await forkSection<T>(here(file), timeoutMs, flags, options);
  process.stderr.write(`bench: ${name} done in ${fmt((performance.now() - t0) / 1000)} s\n`);
  return result;
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

/** The PostgreSQL server of this run: probed once; once unreachable, later sections are not tried. */
const pgServerUrl = loadBenchDatabaseUrl();
let pgServer: PgServer | undefined;
let pgDown: string | undefined;

/**
 * A section on PostgreSQL: a fresh database for it (its URL is the section's last argument),
 * dropped afterwards whatever happened; `plainNode` runs the compiled copy (bench/.compiled).
 * Never throws: a PostgreSQL failure leaves the SQLite figures standing and is reported as such.
 */
async function pgSection<T>(name: string, file: string, timeoutMs: number, flags: string[], args: string[], tag: string, plainNode = false): Promise<PgRun<T>> {
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
    return { ok: true, result: await section<T>(name, file, timeoutMs, flags, { args: [...args, db.url], plainNode }) };
  } catch (e) {
    process.stderr.write(`bench: ${name} failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return { ok: false, unreachable: false, why: firstLine(e) };
  } finally {
    await db.drop().catch((e: unknown) => process.stderr.write(`bench: could not drop the bench database: ${firstLine(e)}\n`));
  }
}

/** Every section, in order; the figures the report is written from. */
async function measure(started: number): Promise<BenchResults> {
  // The issue's reference layout: the load generator (and fake Slack, sandbox) in a process of its own; the I/O floor in the SQLite run.
  const ack = await section<AckLatencyResult>('ack latency (load generator in its own process, reference, with the I/O floor)', './ack-latency.ts', 75_000, ['--expose-gc'], { args: ['separate'] });
  const ackPg = await pgSection<AckLatencyResult>('ack latency on PostgreSQL (reference layout)', './ack-latency.ts', 60_000, ['--expose-gc'], ['separate'], 'ack');
  process.stderr.write('bench: compiling src and bench (bench/tsconfig.compiled.json)…\n');
  const compiled = compile();
  // Watch scale runs once per store, as `npm start` runs the bot (compiled JavaScript under plain
  // node with its flags); its targets and its memory come from that one run. Under tsx only when
  // compilation failed, so the watch targets are still judged.
  const watchCompiled = compiled.ok
    ? await section<WatchScaleResult>('watch scale (compiled JavaScript, plain node, `npm start` flags)', `${COMPILED_DIR}bench/watch-scale.js`, 70_000, ['--expose-gc', ...startFlags()], { plainNode: true })
    : undefined;
  const watch = watchCompiled ?? (await section<WatchScaleResult>('watch scale (under tsx: compilation failed)', './watch-scale.ts', 70_000, ['--expose-gc']));
  // 1,000 watches and 1,000 subscriptions, as the compiled bot would run them (also the alert targets' run).
  const alertsCompiled = compiled.ok
    ? await section<AlertScaleResult>('alert scale (compiled JavaScript, `npm start` flags)', `${COMPILED_DIR}bench/alert-scale.js`, 60_000, startFlags(), { plainNode: true }).catch(() => undefined)
    : undefined;
  // The same two on PostgreSQL: the memory as `npm start` runs the bot on either store.
  const notCompiled: PgRun<never> = { ok: false, unreachable: false, why: 'compilation failed' };
  const watchCompiledPg = compiled.ok
    ? await pgSection<WatchScaleResult>('watch scale on PostgreSQL (compiled JavaScript, `npm start` flags)', `${COMPILED_DIR}bench/watch-scale.js`, 70_000, ['--expose-gc', ...startFlags()], [], 'watch_compiled', true)
    : notCompiled;
  const watchPg = compiled.ok ? watchCompiledPg : await pgSection<WatchScaleResult>('watch scale on PostgreSQL (under tsx: compilation failed)', './watch-scale.ts', 70_000, ['--expose-gc'], [], 'watch');
  const alertsCompiledPg = compiled.ok
    ? await pgSection<AlertScaleResult>('alert scale on PostgreSQL (compiled JavaScript, `npm start` flags)', `${COMPILED_DIR}bench/alert-scale.js`, 60_000, startFlags(), [], 'alert_compiled', true)
    : notCompiled;
  rmSync(here(COMPILED_DIR), { recursive: true, force: true });
  // The bot as `npm start` runs it: dist/ built as `npm run build` does, then spawned (bench/start-ready.ts).
  execFileSync(process.execPath, [fileURLToPath(here('../scripts/start.mjs')), '--build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const startReady = await section<StartReadyResult>('start to ready and time to answer (compiled bot)', './start-ready.ts', 60_000).catch(() => undefined);
  const startReadyPg = await pgSection<StartReadyResult>('start to ready and time to answer on PostgreSQL', './start-ready.ts', 60_000, [], [], 'start');
  const client = await section<ClientOverheadResult>('client overhead', './client-overhead.ts', 45_000);
  const idleTsx = await section<{ rssMb: number }>('runtime floor', './lib/idle.ts', 15_000);
  const idle = { tsxMb: idleTsx.rssMb, nodeMb: plainNodeRssMb() };
  const totalS = (performance.now() - started) / 1000;
  return { ack, ackPg, watch, watchPg, compiled, watchCompiled, watchCompiledPg, alertsCompiled, alertsCompiledPg, startReady, startReadyPg, client, idle, pgServer, pgDown, totalS };
}

/** Rolling restart (issue 24): three runs on PostgreSQL, three-plus minutes; its own report section. */
const rollingRestart = () => pgSection<RollingRestartResult>('rolling restart (two replicas on PostgreSQL)', './rolling-restart.ts', 600_000, [], [], 'rolling');

/** `--only rolling-restart`: that section alone; `--record` replaces only it in bench/results.md. */
async function rollingOnly(record: boolean): Promise<number> {
  const run = await rollingRestart();
  const md = rollingSection(run, new Date());
  if (record) writeFileSync(RESULTS, mergeSection(previousResults(), md));
  const clean = run.ok && run.result.runs.every(cleanRun);
  process.stdout.write(`${md}\n\nbench: rolling restart ${clean ? 'PASS' : 'MISS'}; ${record ? `written to ${RESULTS_FILE}` : `${RESULTS_FILE} not touched (add -- --record to write it)`}.\n`);
  return clean ? 0 : 1;
}

async function main(): Promise<number> {
  const args = parseBenchArgs(process.argv.slice(2));
  if (args.only === 'rolling-restart') return rollingOnly(args.record);
  const started = performance.now();
  const date = new Date();
  const loadStart = os.loadavg();
  const previous = parseHistory(previousResults());
  const r = await measure(started);
  const rolling = await rollingRestart();
  const loadEnd = os.loadavg();
  const commit = commitLabel(fileURLToPath(here('..')));

  const history = prependRun(previous, historyRowOf(r, date, commit));
  const targets = targetsReport(r, history);
  const md = [
    '# cloudbot benchmarks',
    '',
    `Written by \`npm run bench -- --record\` (bench/run.ts) on ${date.toISOString()}. Not part of \`npm test\`.`,
    '',
    '## Machine',
    '',
    machineTable({ date, loadStart, loadEnd, pgServer: r.pgServer, pgDown: r.pgDown, commit, totalS: r.totalS }),
    '',
    '## Targets',
    '',
    targets.table,
    '',
    HISTORY_HEADING,
    '',
    `One row per recorded run (\`npm run bench -- --record\`), newest first, the last ${HISTORY_KEEP} kept (read back from the previous bench/results.md). Ack ratios and CPU are the reference layout (load generator in its own process); time to answer and RSS are the compiled bot as \`npm start\` runs it.`,
    '',
    formatHistory(history),
    '',
    storeComparison({ ack: r.ack, watch: r.watch }, { ack: r.ackPg, watch: r.watchPg }, r.pgServer),
    '',
    ackSection(r.ack, r.ackPg),
    '',
    watchSection(r, watchVerdicts(r)),
    '',
    memorySection(r),
    '',
    alertSection(r.alertsCompiled, r.alertsCompiledPg),
    '',
    startSection(r.startReady, r.startReadyPg),
    '',
    clientSection(r.client),
    '',
    rollingSection(rolling, date),
    '',
    ...(targets.why.length > 0 ? ['## Why targets were missed, and what decides the ack ratio', '', ...targets.why, ''] : []),
    methodSection(),
    '',
  ].join('\n');

  // The tracked report changes only when asked, so a run leaves a clone clean.
  if (args.record) writeFileSync(RESULTS, md);
  process.stdout.write(`${md}\n`);
  const verdict = benchVerdict(targets.rows, args.record, r.totalS);
  process.stdout.write(`${verdict.line}\n`);
  const rollingClean = rolling.ok && rolling.result.runs.every(cleanRun);
  if (!rollingClean) process.stdout.write('bench: rolling restart MISS (see its section): something failed, doubled or was lost, or it was not measured.\n');
  return rollingClean ? verdict.exitCode : 1;
}

main().then(
  (code) => void (process.exitCode = code),
  (e: unknown) => {
    if (!(e instanceof BenchUsageError)) process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.stdout.write(`bench: FAILED: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}; no target judged; ${RESULTS_FILE} not touched.\n`);
    process.exit(e instanceof BenchUsageError ? 2 : 1);
  },
);
