/**
 * The "Recent runs" table of bench/results.md: one row per recorded `npm run bench -- --record`, newest first, the
 * last HISTORY_KEEP kept. bench/run.ts reads the previous file, parses the rows it finds here,
 * and writes them back with this run on top; that is how "in three consecutive runs" is judged.
 * Pure (text in, text out) so it can be unit-tested. A missing or malformed table is no history:
 * a run never fails because results.md was edited by hand.
 */

export const HISTORY_HEADING = '## Recent runs';
export const HISTORY_KEEP = 10;

/** One run's headline figures; null where that run did not measure it. */
export interface HistoryRow {
  /** ISO 8601. */
  date: string;
  /** Short hash, possibly with a note (e.g. "+ src changes"). */
  commit: string;
  /** Ack p99 ratio bot ÷ bare Bolt, separate layout, SQLite. */
  ackRatioSqlite: number | null;
  /** The same on PostgreSQL. */
  ackRatioPg: number | null;
  /** Bot app process CPU ms per command, separate layout, SQLite. */
  cpuMsPerCommandSqlite: number | null;
  /** Time to answer p99 (ms), compiled bot, SQLite. */
  ttaP99Sqlite: number | null;
  /** The same on PostgreSQL. */
  ttaP99Pg: number | null;
  /** RSS peak (MB), 1,000 watches, compiled JavaScript as `npm start` runs it. */
  rssCompiledMb: number | null;
}

const COLUMNS = [
  'Date',
  'Commit',
  'Ack p99 ratio, separate, SQLite',
  'Ack p99 ratio, separate, PostgreSQL',
  'Bot CPU ms per command, separate, SQLite',
  'Time to answer p99 ms, SQLite',
  'Time to answer p99 ms, PostgreSQL',
  'RSS peak MB, 1,000 watches, compiled',
] as const;

const NUMBER_KEYS = ['ackRatioSqlite', 'ackRatioPg', 'cpuMsPerCommandSqlite', 'ttaP99Sqlite', 'ttaP99Pg', 'rssCompiledMb'] as const;
/** Decimals each number is written with (parsing accepts any). */
const DECIMALS: Record<(typeof NUMBER_KEYS)[number], number> = {
  ackRatioSqlite: 2,
  ackRatioPg: 2,
  cpuMsPerCommandSqlite: 2,
  ttaP99Sqlite: 1,
  ttaP99Pg: 1,
  rssCompiledMb: 1,
};

const cells = (line: string): string[] | undefined => {
  const t = line.trim();
  if (!t.startsWith('|') || !t.endsWith('|') || t.length < 2) return undefined;
  return t
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
};

/** "1.03", "1.03×", "**1.03×**" → 1.03; "n/a", "—", "" → null; anything else → undefined (malformed). */
function parseNumber(cell: string): number | null | undefined {
  const c = cell.replaceAll('*', '').replace(/×$/, '').trim();
  if (c === '' || c === 'n/a' || c === '—' || c === '-') return null;
  if (!/^-?\d+(\.\d+)?$/.test(c)) return undefined;
  return Number(c);
}

/**
 * The rows of the "Recent runs" table in `markdown` (a whole results.md), newest first as written.
 * No heading, a different header row, or no table: []. Rows are read up to the first malformed
 * one, so what is returned is always a run of consecutive rows from the newest.
 */
export function parseHistory(markdown: string | undefined): HistoryRow[] {
  if (!markdown) return [];
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex((l) => l.trim() === HISTORY_HEADING);
  if (start < 0) return [];
  // The table is the first one under the heading (a line of text may come before it).
  let i = start + 1;
  while (i < lines.length && !lines[i]!.trim().startsWith('|') && !lines[i]!.startsWith('#')) i++;
  const head = cells(lines[i] ?? '');
  if (!head || head.length !== COLUMNS.length || head.some((h, k) => h !== COLUMNS[k])) return [];
  const rule = cells(lines[i + 1] ?? '');
  if (!rule || rule.length !== COLUMNS.length || rule.some((c) => !/^:?-{3,}:?$/.test(c))) return [];
  const rows: HistoryRow[] = [];
  for (const line of lines.slice(i + 2)) {
    const c = cells(line);
    if (!c || c.length !== COLUMNS.length) break;
    const [date, commit, ...numbers] = c as [string, string, ...string[]];
    if (Number.isNaN(Date.parse(date)) || commit === '') break;
    const parsed = numbers.map(parseNumber);
    if (parsed.some((n) => n === undefined)) break;
    const row: HistoryRow = { date, commit } as HistoryRow;
    NUMBER_KEYS.forEach((k, n) => (row[k] = parsed[n] as number | null));
    rows.push(row);
  }
  return rows;
}

/** The "Recent runs" table (no heading) for `rows`, newest first, at most HISTORY_KEEP. */
export function formatHistory(rows: readonly HistoryRow[]): string {
  const line = (c: readonly string[]) => `| ${c.join(' | ')} |`;
  const num = (k: (typeof NUMBER_KEYS)[number], v: number | null) => (v === null || !Number.isFinite(v) ? 'n/a' : v.toFixed(DECIMALS[k]));
  const clean = (s: string) => s.replaceAll('|', '/').replace(/\s+/g, ' ').trim();
  return [
    line(COLUMNS),
    line(COLUMNS.map(() => '---')),
    ...rows.slice(0, HISTORY_KEEP).map((r) => line([clean(r.date), clean(r.commit) || 'unknown', ...NUMBER_KEYS.map((k) => num(k, r[k]))])),
  ].join('\n');
}

/** This run on top of the previous rows, the last HISTORY_KEEP kept. */
export function prependRun(previous: readonly HistoryRow[], run: HistoryRow): HistoryRow[] {
  return [run, ...previous].slice(0, HISTORY_KEEP);
}

/** Whether a run's ack ratio, separate layout, is within `limit` on both stores. */
export const ackRatiosPass = (r: HistoryRow, limit: number) => r.ackRatioSqlite !== null && r.ackRatioPg !== null && r.ackRatioSqlite <= limit && r.ackRatioPg <= limit;

/**
 * "Ack ratio ≤ limit in `n` consecutive runs": over the newest `n` rows (this run first), how
 * many passed on both stores, and whether all `n` exist and passed.
 */
export function consecutiveAckPasses(rows: readonly HistoryRow[], limit: number, n = 3): { passed: number; considered: number; ok: boolean } {
  const last = rows.slice(0, n);
  const passed = last.filter((r) => ackRatiosPass(r, limit)).length;
  return { passed, considered: last.length, ok: last.length === n && passed === n };
}
