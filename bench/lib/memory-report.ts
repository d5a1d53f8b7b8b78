/**
 * bench/results.md's memory as `npm start` runs the bot (issue 15: "memory with 1,000 watches and
 * 1,000 subscriptions … on SQLite and PostgreSQL", "RSS peak with 1,000 watches ≤ 150 MB"): the
 * compiled watch-scale and alert-scale runs (plain node, the start script's flags) on each store,
 * their target rows, and the explanation when one is missed.
 */
import type { AlertScaleResult } from '../alert-scale.js';
import type { WatchScaleResult } from '../watch-scale.js';
import { pass, pgPass, type BenchResults } from './bench-results.js';
import { RSS_TARGET_MB } from './footprint-report.js';
import { fmt } from './stats.js';
import { notMeasured, table, type PgRun } from './store-comparison.js';

type MemoryInput = Pick<BenchResults, 'watchCompiled' | 'watchCompiledPg' | 'alertsCompiled' | 'alertsCompiledPg' | 'compiled'>;

const pgResult = <T>(run: PgRun<T>): T | undefined => (run.ok ? run.result : undefined);
/** Why a PostgreSQL run has no figures, for a cell (unreachable is said as every PG row says it). */
const pgMissing = (run: PgRun<unknown>) => (run.ok ? '' : run.unreachable ? notMeasured(run) : `not measured: ${run.why.replace(/\|/g, '\\|').slice(0, 200)}`);
const startPeak = (r: { rss: { startMb: number; peakMb: number } }) => `${fmt(r.rss.startMb)} → **${fmt(r.rss.peakMb)}**`;
/** The heap flags of a compiled run (the start script's), without --expose-gc (only for the after-GC figure). */
const heapFlags = (runs: ({ nodeFlags: string[] } | undefined)[]) => [...new Set(runs.flatMap((r) => r?.nodeFlags.filter((f) => f !== '--expose-gc') ?? []))].join(' ') || '—';

/** undefined: no figures (compile failed, section failed, or PostgreSQL unreachable). */
export function memoryVerdicts({ watchCompiled, watchCompiledPg }: MemoryInput) {
  const pg = pgResult(watchCompiledPg);
  return {
    sqlite: watchCompiled ? watchCompiled.rss.peakMb <= RSS_TARGET_MB : undefined,
    pg: pg ? pg.rss.peakMb <= RSS_TARGET_MB : undefined,
  };
}
export type MemoryVerdicts = ReturnType<typeof memoryVerdicts>;

export function memoryTargetRows(r: MemoryInput, v: MemoryVerdicts): string[][] {
  const label = "RSS peak with 1,000 watches as `npm start` runs it (compiled JS, plain node, the start script's flags)";
  const figure = (w: WatchScaleResult) => `${fmt(w.rss.peakMb)} MB (${w.nodeFlags.join(' ')})`;
  return [
    [`${label}, SQLite`, r.watchCompiled ? figure(r.watchCompiled) : 'compile failed (see the watch-scale table)', `≤ ${RSS_TARGET_MB} MB`, v.sqlite === undefined ? '**MISS**' : pass(v.sqlite)],
    [
      `${label}, PostgreSQL (the bot's process: the \`pg\` pool inside, the server outside)`,
      r.watchCompiledPg.ok ? figure(r.watchCompiledPg.result) : pgMissing(r.watchCompiledPg),
      `≤ ${RSS_TARGET_MB} MB`,
      pgPass(v.pg),
    ],
  ];
}

export function memorySection(r: MemoryInput): string {
  const sqliteMissing = r.compiled.ok ? 'not measured: the section failed (see stderr)' : 'not measured: compilation failed';
  const sqliteCell = (x: WatchScaleResult | AlertScaleResult | undefined) => (x ? startPeak(x) : sqliteMissing);
  const pgCell = (x: PgRun<WatchScaleResult | AlertScaleResult>) => (x.ok ? startPeak(x.result) : pgMissing(x));
  const rows = [
    ['SQLite (file)', sqliteCell(r.watchCompiled), sqliteCell(r.alertsCompiled), heapFlags([r.watchCompiled, r.alertsCompiled])],
    ['PostgreSQL', pgCell(r.watchCompiledPg), pgCell(r.alertsCompiledPg), heapFlags([pgResult(r.watchCompiledPg), pgResult(r.alertsCompiledPg)])],
  ];
  return [
    '## Memory as `npm start` runs it',
    '',
    `RSS of the bot's process (MB, sampled every 50 ms and after every pass), the watch-scale and alert-scale sections compiled to JavaScript and run under plain node with the start script's flags, on each store. "Start" is after the modules are loaded, before the first watch. The sandbox cloud runs in a process of its own and is outside the figures. On PostgreSQL the \`pg\` pool (its connections, buffers and parsed rows) is inside the figure; the PostgreSQL server's own memory is outside it (it is another process, on this machine or elsewhere). The watch-scale runs also have \`--expose-gc\`, used once at the end for the after-GC figures. Target: RSS peak with 1,000 watches ≤ ${RSS_TARGET_MB} MB.`,
    '',
    table(['Store', '1,000 watches: RSS start → peak', '1,000 watches + 1,000 subscriptions: RSS start → peak', 'Heap flags'], rows),
  ].join('\n');
}

/** "Why" bullets for a missed RSS target. */
export function memoryWhy(r: MemoryInput & Pick<BenchResults, 'watch'>, v: MemoryVerdicts): string[] {
  const why: string[] = [];
  const runs: [string, WatchScaleResult | undefined, boolean | undefined][] = [
    ['SQLite', r.watchCompiled, v.sqlite],
    ['PostgreSQL', pgResult(r.watchCompiledPg), v.pg],
  ];
  for (const [store, c, ok] of runs) {
    if (!c || ok !== false) continue;
    why.push(
      `- **RSS peak ${fmt(c.rss.peakMb)} MB with 1,000 watches on ${store} as \`npm start\` runs the bot (target ≤ ${RSS_TARGET_MB} MB).** Not the watches' own memory: ${c.heapAfterGcMb === null ? 'n/a' : fmt(c.heapAfterGcMb)} MB of heap is live after a full GC at the end. The floor is the runtime and the bot's modules (${fmt(c.rss.startMb)} MB before the first watch); the rest is V8 letting the heap grow to ${fmt(c.heapPeakMb)} MB of mostly garbage before a full collection (allocation from ~${fmt(r.watch.requestsPerWatch.total / 1000, 1)}k polls, their store rows and JSON). V8 lets the heap grow 1.3–2× between full collections under a heap limit below 2 GB and 4× at 2 GB or more (also without a limit on a machine with much memory): check the start script's \`--max-old-space-size\`.`,
    );
  }
  return why;
}
