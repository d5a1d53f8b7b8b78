/**
 * bench/results.md's "Targets" table (issue 15's targets with a PASS/MISS each) and the "Why"
 * bullets for what was missed, from every section's results and the run history.
 */
import { alertTargetRows, alertWhy } from './alert-report.js';
import { pass, type BenchResults } from './bench-results.js';
import { clientOk, clientTargetRow } from './report-client.js';
import { answerOk, startTargetRows } from './footprint-report.js';
import type { HistoryRow } from './history.js';
import { memoryTargetRows, memoryVerdicts, memoryWhy } from './memory-report.js';
import { ackTargetRows, ackVerdicts, ackWhy } from './report-ack.js';
import { watchTargetRows, watchVerdicts, watchWhy } from './report-watch.js';
import { fmt } from './stats.js';
import { table } from './store-comparison.js';

export const TOTAL_TARGET_S = 300;

/** This run's row for "Recent runs". */
export function historyRowOf(r: BenchResults, date: Date, commit: string): HistoryRow {
  return {
    date: date.toISOString(),
    commit,
    ackRatioSqlite: r.ack.p99Ratio,
    ackRatioPg: r.ackPg.ok ? r.ackPg.result.p99Ratio : null,
    cpuMsPerCommandSqlite: r.ack.bot.cpuMsPerCommand,
    ttaP99Sqlite: r.startReady ? r.startReady.answers.ms.p99 : null,
    ttaP99Pg: r.startReadyPg.ok ? r.startReadyPg.result.answers.ms.p99 : null,
    rssCompiledMb: r.watchCompiled ? r.watchCompiled.rss.peakMb : null,
  };
}

/** The targets table (and its rows, for the verdict) and the "why" bullets; `history` is "Recent runs" with this run first. */
export function targetsReport(r: BenchResults, history: readonly HistoryRow[]): { table: string; rows: string[][]; why: string[] } {
  const ackV = ackVerdicts(r.ack, r.ackPg, history);
  const watchV = watchVerdicts(r);
  const memoryV = memoryVerdicts(r);
  const timeOk = r.totalS < TOTAL_TARGET_S;
  const rows = [
    ...ackTargetRows(r.ack, r.ackPg, ackV),
    ...startTargetRows(r.startReady, r.startReadyPg),
    ...watchTargetRows(r, watchV),
    ...memoryTargetRows(r, memoryV),
    ...alertTargetRows(r.alertsCompiled),
    clientTargetRow(r.client),
    ['`npm run bench` wall time', `${fmt(r.totalS)} s`, `< ${TOTAL_TARGET_S} s`, pass(timeOk)],
  ];
  const why = [...ackWhy(r.ack, r.ackPg, ackV), ...watchWhy(r, watchV), ...memoryWhy(r, memoryV), ...alertWhy(r.alertsCompiled)];
  const answersOk = r.startReady !== undefined && answerOk(r.startReady) && (!r.startReadyPg.ok || answerOk(r.startReadyPg.result));
  const unmeasured = memoryV.sqlite === undefined || r.alertsCompiled === undefined;
  if (!answersOk || unmeasured || !watchV.bound || !watchV.quiet || !watchV.cap || !watchV.loop || !clientOk(r.client) || !timeOk) {
    why.push('- Other misses: see the figures above; no explanation was prepared for them.');
  }
  return { table: table(['Target', 'Measured', 'Limit', 'Result'], rows), rows, why };
}
