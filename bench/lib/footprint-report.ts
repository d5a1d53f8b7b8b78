/**
 * bench/results.md's rows for the bot as `npm start` runs it (bench/start-ready.ts: start time
 * to ready, time to answer, RSS), SQLite and PostgreSQL. The memory with 1,000 watches and
 * subscriptions: bench/lib/memory-report.ts.
 */
import type { StartReadyResult } from '../start-ready.js';
import { fmt } from './stats.js';
import { notMeasured, table, type PgRun } from './store-comparison.js';

export const TIME_TO_ANSWER_SLACK_MS = 100;
export const RSS_TARGET_MB = 150;

const pass = (ok: boolean) => (ok ? 'PASS' : '**MISS**');
const max = (xs: number[]) => Math.max(...xs);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function answerOk(r: StartReadyResult): boolean {
  return r.answers.answered === r.answers.commands && r.answers.ms.p99 <= r.answers.cloudLatencyMs + TIME_TO_ANSWER_SLACK_MS;
}

/** Target rows: time to answer on both stores (PostgreSQL may be unmeasured). */
export function startTargetRows(sqlite: StartReadyResult | undefined, pg: PgRun<StartReadyResult>): string[][] {
  const row = (label: string, r: StartReadyResult) => [
    label,
    `p50 ${fmt(r.answers.ms.p50)} ms, p99 ${fmt(r.answers.ms.p99)} ms (${r.answers.answered} of ${r.answers.commands} answered)`,
    `≤ ${r.answers.cloudLatencyMs + TIME_TO_ANSWER_SLACK_MS} ms`,
    pass(answerOk(r)),
  ];
  const label = 'Time to answer p99 (command → answer at the response_url), cloud at 1 s, 50 in flight, compiled bot as `npm start` runs it';
  return [
    sqlite ? row(label, sqlite) : [label, 'not measured (see stderr)', '', '**MISS**'],
    pg.ok ? row('… the same on PostgreSQL', pg.result) : ['… the same on PostgreSQL', notMeasured(pg), '', '**NOT MEASURED**'],
  ];
}

/** The section: one row per store. */
export function startSection(sqlite: StartReadyResult | undefined, pg: PgRun<StartReadyResult>): string {
  const rows = [sqlite, pg.ok ? pg.result : undefined]
    .filter((r): r is StartReadyResult => r !== undefined)
    .map((r) => [
      r.store === 'postgres' ? 'PostgreSQL' : 'SQLite',
      `median ${fmt(median(r.readyMs), 0)}, max ${fmt(max(r.readyMs), 0)} (${r.starts} starts)`,
      fmt(median(r.readyRssMb)),
      `${fmt(r.answers.ms.p50)} / ${fmt(r.answers.ms.p99)} / ${fmt(r.answers.ms.max)}`,
      r.firstWave ? `${fmt(r.firstWave.ms.p50)} / ${fmt(r.firstWave.ms.max)} (${r.firstWave.answered} of ${r.firstWave.commands})` : '—',
      String(r.answers.slowNotices),
      fmt(r.answers.rssPeakMb),
    ]);
  const flags = (sqlite ?? (pg.ok ? pg.result : undefined))?.nodeFlags.join(' ') ?? '';
  return [
    '## The bot as `npm start` runs it',
    '',
    `Compiled \`dist/main.js\` under plain node with the start script's flags (\`${flags}\`), HTTP mode, in a process of its own, against the rig's fake Slack, response_url endpoints and the sandbox (bench/start-ready.ts). Ready = spawn → first 200 from \`/readyz\`, each start on a fresh database. Time to answer: ${sqlite?.answers.commands ?? 300} reads (account usage, server status, plan list), ${sqlite?.answers.concurrency ?? 50} in flight (a lane sends its next command when its answer came), the cloud answering after 1 s; command sent → its answer at the response_url. The first wave after start (one command per lane, ${sqlite?.firstWave?.commands ?? 50} in all) is shown apart and not in the target: those commands pay once for V8 compiling the paths they take (the bot is not warmed up by anything else). RSS of the bot process from /proc.`,
    '',
    table(['Store', 'Start to ready (ms)', 'RSS at ready (MB)', 'Time to answer p50 / p99 / max (ms)', 'First wave after start p50 / max (ms)', '"cloud is slow" notices', 'RSS peak while answering (MB)'], rows),
    ...(pg.ok ? [] : ['', `PostgreSQL: ${notMeasured(pg)} (${pg.why}).`]),
  ].join('\n');
}
