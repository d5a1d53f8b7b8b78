/**
 * bench/results.md's watch-scale parts: the target rows (SQLite, PostgreSQL), the "Watch scale"
 * section and the explanation when a target is missed. The section runs once per store as
 * `npm start` runs the bot, compiled JavaScript under plain node (its RSS rows:
 * bench/lib/memory-report.ts); under tsx only when compilation failed.
 */
import { pass, pgPass, type BenchResults } from './bench-results.js';
import { fmt } from './stats.js';
import { notMeasured, table } from './store-comparison.js';

export const WATCH_TARGETS = { eventLoopMs: 50 };

type WatchInput = Pick<BenchResults, 'watch' | 'watchPg' | 'watchCompiled' | 'watchCompiledPg' | 'compiled' | 'idle'>;

export function watchVerdicts({ watch, watchPg }: WatchInput) {
  const w = watch;
  const allFinished = w.finished === w.watches;
  const pgW = watchPg.ok ? watchPg.result : undefined;
  return {
    bound: allFinished && w.requestsPerWatch.overBound === 0,
    quiet: allFinished && w.postsWithoutChange === 0,
    cap: w.peak.limiter <= w.cap && w.peak.server <= w.cap && w.peak.transport <= w.cap,
    loop: w.eventLoop.p99Ms < WATCH_TARGETS.eventLoopMs,
    pgWatch: pgW
      ? pgW.finished === pgW.watches && pgW.requestsPerWatch.overBound === 0 && pgW.postsWithoutChange === 0 && Math.max(pgW.peak.limiter, pgW.peak.server, pgW.peak.transport) <= pgW.cap
      : undefined,
    pgLoop: pgW ? pgW.eventLoop.p99Ms < WATCH_TARGETS.eventLoopMs : undefined,
  };
}
export type WatchVerdicts = ReturnType<typeof watchVerdicts>;

export function watchTargetRows({ watch: w, watchPg }: WatchInput, v: WatchVerdicts): string[][] {
  return [
    [
      'Cloud requests per finished watch ≤ duration ÷ interval + 2',
      `mean ${fmt(w.requestsPerWatch.mean, 2)} (bound mean ${fmt(w.requestsPerWatch.boundMean, 1)}), max ${w.requestsPerWatch.max}; ${w.requestsPerWatch.overBound} of ${w.finished} over`,
      'every watch',
      pass(v.bound),
    ],
    ['No Slack post without a state change', `${w.postsWithoutChange} such posts in ${w.slack.calls} Slack calls`, '0', pass(v.quiet)],
    ['Peak concurrent cloud requests vs the cap', `limiter ${w.peak.limiter}, client ${w.peak.transport}, server ${w.peak.server}`, `≤ ${w.cap}`, pass(v.cap)],
    ['Event-loop delay p99 (watch scale)', `${fmt(w.eventLoop.p99Ms)} ms`, `< ${WATCH_TARGETS.eventLoopMs} ms`, pass(v.loop)],
    [
      'Watch scale on PostgreSQL: every watch finished, requests within the bound, no post without a change, peak concurrency ≤ cap',
      watchPg.ok
        ? `${watchPg.result.finished} of ${watchPg.result.watches} finished; requests mean ${fmt(watchPg.result.requestsPerWatch.mean, 2)}, ${watchPg.result.requestsPerWatch.overBound} over; ${watchPg.result.postsWithoutChange} posts without a change; peak ${watchPg.result.peak.limiter} / ${watchPg.result.peak.transport} / ${watchPg.result.peak.server}`
        : notMeasured(watchPg),
      `bound; 0; ≤ ${w.cap}`,
      pgPass(v.pgWatch),
    ],
    ['Event-loop delay p99 (watch scale, PostgreSQL)', watchPg.ok ? `${fmt(watchPg.result.eventLoop.p99Ms)} ms` : notMeasured(watchPg), `< ${WATCH_TARGETS.eventLoopMs} ms`, pgPass(v.pgLoop)],
  ];
}

export function watchSection({ watch: w, watchCompiled: c, watchCompiledPg, compiled, idle }: WatchInput, v: WatchVerdicts): string {
  const afterGc = (mb: number | null) => (mb === null ? 'n/a' : fmt(mb));
  const rows: (string | number)[][] = [
    ['Watches (finished: succeeded / failed / other)', `${w.watches} (${w.finished}: ${w.succeeded} / ${w.failed} / ${w.otherEnds})`],
    ['Simulated time / steps', `${fmt(w.simulatedMs / 1000, 0)} s in ${w.steps} steps of ${w.stepMs} ms; builds ${w.buildMs.min / 1000}–${w.buildMs.max / 1000} s, deploys spread over the first 30 s`],
    [
      'Cloud requests per finished watch',
      `mean ${fmt(w.requestsPerWatch.mean, 2)}, max ${w.requestsPerWatch.max} (bound duration ÷ ${w.baseIntervalMs / 1000} s + 2: mean ${fmt(w.requestsPerWatch.boundMean, 1)}; highest share of its bound ${fmt(w.requestsPerWatch.maxShareOfBound * 100, 0)} %); total ${w.requestsPerWatch.total}`,
    ],
    [`Peak concurrent cloud requests (cap ${w.cap})`, `limiter ${w.peak.limiter}, cloud client ${w.peak.transport}, at the server ${w.peak.server}`],
    ['State change → Slack post, simulated (all posts)', `p50 ${fmt(w.delayMs.all.p50 / 1000)} s, p99 ${fmt(w.delayMs.all.p99 / 1000)} s, max ${fmt(w.delayMs.all.max / 1000)} s (n ${w.delayMs.all.n})`],
    [
      '… in_progress posts / final posts',
      `p50 ${fmt(w.delayMs.progress.p50 / 1000)} s, p99 ${fmt(w.delayMs.progress.p99 / 1000)} s / p50 ${fmt(w.delayMs.final.p50 / 1000)} s, p99 ${fmt(w.delayMs.final.p99 / 1000)} s`,
    ],
    [
      'Slack calls per watch',
      `${fmt(w.slack.perWatch, 2)} (${fmt(w.slack.threadPostsPerWatch, 2)} thread posts + ${fmt(w.slack.updatesPerWatch, 2)} message edits; ${w.slack.ephemerals} ephemerals); plus 1 parent message each, posted by the bench`,
    ],
    ['Posts without a state change', `${w.postsWithoutChange} (in_progress seen and posted for ${w.progressSeen} of ${w.finished} builds)`],
    ['Event-loop delay (ms late, 10 ms timer)', `p50 ${fmt(w.eventLoop.p50Ms)}, p99 ${fmt(w.eventLoop.p99Ms)}, max ${fmt(w.eventLoop.maxMs)} (raw histogram p99 ${fmt(w.eventLoop.rawP99Ms)})`],
    ['watcher.tick() wall time', `p50 ${fmt(w.tickMs.p50)} ms, p99 ${fmt(w.tickMs.p99)} ms, max ${fmt(w.tickMs.max)} ms`],
    [
      'RSS, SQLite (compiled JS under node with `node --expose-gc` and the start script\'s flags, as `npm start` runs it: `tsc -p bench/tsconfig.compiled.json`)',
      c
        ? `peak ${fmt(c.rss.peakMb)} MB; ${fmt(c.rss.startMb)} MB at start (modules loaded); ${c.rss.afterGcMb === null ? '' : `${fmt(c.rss.afterGcMb)} MB after a full GC; `}heap peak ${fmt(c.heapPeakMb)} MB, ${afterGc(c.heapAfterGcMb)} MB live after a full GC; compile ${compiled.ok ? fmt(compiled.ms / 1000) : 'n/a'} s`
        : `compilation failed, so this section ran under tsx (peak ${fmt(w.rss.peakMb)} MB under tsx, not the target's figure) — ${compiled.ok ? '' : compiled.error.replace(/\s*\n\s*/g, ' / ').replace(/\|/g, '\\|').slice(0, 600)}`,
    ],
    [
      '… the same compiled run on PostgreSQL (the `pg` pool inside the RSS, the server outside; see "Memory as `npm start` runs it")',
      watchCompiledPg.ok
        ? `peak ${fmt(watchCompiledPg.result.rss.peakMb)} MB; ${fmt(watchCompiledPg.result.rss.startMb)} MB at start; heap peak ${fmt(watchCompiledPg.result.heapPeakMb)} MB, ${afterGc(watchCompiledPg.result.heapAfterGcMb)} MB live after a full GC; event-loop p99 ${fmt(watchCompiledPg.result.eventLoop.p99Ms)} ms; requests per watch ${fmt(watchCompiledPg.result.requestsPerWatch.mean, 2)}; wall ${fmt(watchCompiledPg.result.wallMs / 1000)} s`
        : watchCompiledPg.unreachable
          ? notMeasured(watchCompiledPg)
          : `not measured: ${watchCompiledPg.why.replace(/\|/g, '\\|').slice(0, 200)}`,
    ],
    ['Runtime floor (empty program)', `tsx ${fmt(idle.tsxMb)} MB, plain node ${fmt(idle.nodeMb)} MB`],
    ['Section wall time', `${fmt(w.wallMs / 1000)} s`],
  ];
  return ['## Watch scale', '', table(['Figure', 'Value'], rows)].join('\n');
}

/** "Why" bullets for the watch-scale misses. */
export function watchWhy(_r: WatchInput, v: WatchVerdicts): string[] {
  const why: string[] = [];
  if (v.pgWatch === false || v.pgLoop === false) {
    why.push('- Watch scale on PostgreSQL missed a target: see "SQLite and PostgreSQL side by side"; no explanation was prepared for it.');
  }
  return why;
}
