/**
 * The "SQLite and PostgreSQL side by side" part of bench/results.md: the ack-latency run in the
 * reference layout (load generator in its own process) and the watch-scale run, once per store,
 * with the same load and seeds. A PostgreSQL run that could not happen (server unreachable, or
 * the section failed) is said so in its cells and in one plain sentence; the SQLite column is
 * there either way.
 */
import type { AckLatencyResult } from '../ack-latency.js';
import type { WatchScaleResult } from '../watch-scale.js';
import type { PgServer } from './pg-database.js';
import { fmt } from './stats.js';

/** One PostgreSQL section: its result, or why there is none. */
export type PgRun<T> = { ok: true; result: T } | { ok: false; unreachable: boolean; why: string };

export const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** A table cell for a PostgreSQL run that has no figures. */
export const notMeasured = (run: { ok: false; unreachable: boolean }) => (run.unreachable ? 'not measured: PostgreSQL unreachable' : 'not measured: the section failed');

/** Where the PostgreSQL figures came from, or plainly why there are none. */
export function pgServerLine(server: PgServer | undefined, runs: PgRun<unknown>[]): string {
  const missing = runs.filter((r): r is Extract<PgRun<unknown>, { ok: false }> => !r.ok);
  const unreachable = missing.find((r) => r.unreachable);
  if (unreachable) {
    return `**PostgreSQL was not measured: ${unreachable.why}.** The SQLite figures ran as usual. Set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a reachable server to fill the PostgreSQL column.`;
  }
  const failed = missing.map((r) => `**a PostgreSQL section failed:** ${r.why}`);
  return [
    `PostgreSQL: ${server ? `${server.description} (server ${server.version})` : 'unknown server'}, from BENCH_DATABASE_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/test. Each PostgreSQL section ran in a database of its own, created before it and dropped after it; the bot's pool and migrations are the production ones (\`createStore\` on a postgres:// URL). The server runs on the same machine: its CPU shares the same cores, and its memory is not in the RSS figures (the \`pg\` pool's is).`,
    ...failed,
  ].join(' ');
}

export function storeComparison(sqlite: { ack: AckLatencyResult; watch: WatchScaleResult }, pg: { ack: PgRun<AckLatencyResult>; watch: PgRun<WatchScaleResult> }, server: PgServer | undefined): string {
  const ackRow = (label: string, f: (r: AckLatencyResult) => string) => [label, f(sqlite.ack), pg.ack.ok ? f(pg.ack.result) : notMeasured(pg.ack)];
  const watchRow = (label: string, f: (r: WatchScaleResult) => string) => [label, f(sqlite.watch), pg.watch.ok ? f(pg.watch.result) : notMeasured(pg.watch)];
  const answers = (r: AckLatencyResult) => {
    const a = r.answers;
    return `reads ${a.readsAnswered}/${a.reads} answered (${a.readsFailed} errors, ${a.slowNotices} "slow" notices), forms ${a.viewsFilled}/${a.modals} filled, all drained: ${a.allDrained ? 'yes' : 'NO'}`;
  };
  const rows = [
    ackRow('Ack p50 / p99, cloudbot (ms)', (r) => `${fmt(r.bot.p50)} / **${fmt(r.bot.p99)}**`),
    ackRow('Ack p99, bare Bolt app in the same run (ms)', (r) => fmt(r.bare.p99)),
    ackRow('Ack p99 ratio, bot ÷ bare Bolt (target ≤ 1.5×)', (r) => `**${fmt(r.p99Ratio, 2)}×**`),
    ackRow('… without each round\'s first 50 acks', (r) => `${fmt(r.p99RatioAfterFirstWave, 2)}× (${fmt(r.bot.p99AfterFirstWave)} ÷ ${fmt(r.bare.p99AfterFirstWave)} ms)`),
    ackRow('… per adjacent pair of rounds', (r) => r.pairRatios.map((x) => `${fmt(x, 2)}×`).join(', ')),
    ackRow('CPU ms per command, bot app process (target: ≤ 3× bare Bolt in the same run)', (r) => `${fmt(r.bot.cpuMsPerCommand, 2)} (${fmt(r.bot.cpuMsPerCommand / r.bare.cpuMsPerCommand, 2)}×)`),
    ackRow('Non-200 acks / transport errors', (r) => `${r.errors.non200} / ${r.errors.transport}`),
    ackRow("The bot's answers", answers),
    ackRow('Ack section: app process RSS peak, wall time', (r) => `${fmt(r.rssPeakMb)} MB, ${fmt(r.wallMs / 1000)} s`),
    watchRow('Watches finished (of 1,000): succeeded / failed / other', (w) => `${w.finished}: ${w.succeeded} / ${w.failed} / ${w.otherEnds}`),
    watchRow('Cloud requests per finished watch', (w) => `**mean ${fmt(w.requestsPerWatch.mean, 2)}**, max ${w.requestsPerWatch.max}; ${w.requestsPerWatch.overBound} over the bound (mean bound ${fmt(w.requestsPerWatch.boundMean, 1)})`),
    watchRow('Posts without a state change', (w) => String(w.postsWithoutChange)),
    watchRow(`Peak concurrent cloud requests (cap ${sqlite.watch.cap}): limiter / client / server`, (w) => `**${w.peak.limiter} / ${w.peak.transport} / ${w.peak.server}**`),
    watchRow('Event-loop delay p99 / max (ms late, target p99 < 50)', (w) => `**${fmt(w.eventLoop.p99Ms)}** / ${fmt(w.eventLoop.maxMs)}`),
    watchRow('watcher.tick() p50 / p99 / max (ms)', (w) => `${fmt(w.tickMs.p50)} / ${fmt(w.tickMs.p99)} / ${fmt(w.tickMs.max)}`),
    watchRow('RSS at start → peak (MB, compiled JS as `npm start` runs it)', (w) => `${fmt(w.rss.startMb)} → **${fmt(w.rss.peakMb)}**`),
    watchRow('Heap peak / live after a full GC (MB)', (w) => `${fmt(w.heapPeakMb)} / ${w.heapAfterGcMb === null ? 'n/a' : fmt(w.heapAfterGcMb)}`),
    watchRow('Watch section wall time (s)', (w) => fmt(w.wallMs / 1000)),
  ];
  return [
    '## SQLite and PostgreSQL side by side',
    '',
    `The same two sections once per store: ack latency in the reference layout (load generator in its own process, the apps alone on their event loop, as in "Ack latency under load" below) and watch scale (1,000 watches, as in "Watch scale" below). Only the store differs.`,
    '',
    pgServerLine(server, [pg.ack, pg.watch]),
    '',
    table(['Figure', 'SQLite (file)', 'PostgreSQL'], rows),
  ].join('\n');
}
