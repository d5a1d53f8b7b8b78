/**
 * What `npm run bench` concludes, pure so it can be unit-tested: its flags (`--record` writes
 * bench/results.md; without it the tracked file is left alone), which targets were not met
 * (a MISS, or not measured: a target not shown to hold is not met), the last line it prints,
 * and its exit code — non-zero whenever a target was not met, so a script or CI sees it.
 */

export const RESULTS_FILE = 'bench/results.md';

export interface BenchArgs {
  /** Write bench/results.md (the tracked report and its "Recent runs"). */
  record: boolean;
  /** Run one section alone (`--only rolling-restart`); with --record it replaces only that section of the file. */
  only?: 'rolling-restart';
}

export class BenchUsageError extends Error {
  override readonly name = 'BenchUsageError';
}

const SECTIONS = ['rolling-restart'] as const;

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const usage = 'usage: npm run bench [-- --record] [--only rolling-restart]';
  const at = argv.indexOf('--only');
  const only = at >= 0 ? argv[at + 1] : undefined;
  if (at >= 0 && !SECTIONS.includes(only as (typeof SECTIONS)[number])) throw new BenchUsageError(`bench: --only takes one of ${SECTIONS.join(', ')} (${usage})`);
  const unknown = argv.filter((a, i) => a !== '--record' && (at < 0 || (i !== at && i !== at + 1)));
  if (unknown.length) throw new BenchUsageError(`bench: unknown argument ${unknown.join(' ')} (${usage})`);
  return { record: argv.includes('--record'), ...(only ? { only: only as BenchArgs['only'] } : {}) };
}

/** A "Targets" row: target, measured, limit, result (`PASS`, `**MISS**`, `**NOT MEASURED**`, or a parenthesised comparison). */
export type TargetRow = readonly string[];

/** The targets not met: a MISS or NOT MEASURED result; a comparison in parentheses is no target. */
export function missedTargets(rows: readonly TargetRow[]): string[] {
  return rows.filter((r) => /^\*\*(MISS|NOT MEASURED)\*\*$/.test((r[3] ?? '').trim())).map((r) => `${r[0]} (${r[3]!.replace(/\*/g, '').toLowerCase()})`);
}

/** Rows that are targets (a comparison's result is in parentheses). */
export const targetCount = (rows: readonly TargetRow[]) => rows.filter((r) => !(r[3] ?? '').trim().startsWith('(')).length;

export interface Verdict {
  exitCode: 0 | 1;
  /** The last line printed. */
  line: string;
}

export function benchVerdict(rows: readonly TargetRow[], recorded: boolean, totalS: number): Verdict {
  const missed = missedTargets(rows);
  const total = targetCount(rows);
  const where = recorded ? `written to ${RESULTS_FILE}` : `${RESULTS_FILE} not touched (add -- --record to write it)`;
  const time = `${totalS.toFixed(1)} s`;
  if (!missed.length) return { exitCode: 0, line: `bench: PASS: all ${total} targets met in ${time}; ${where}.` };
  return { exitCode: 1, line: `bench: MISS: ${missed.length} of ${total} targets not met in ${time}: ${missed.join('; ')}; ${where}.` };
}
