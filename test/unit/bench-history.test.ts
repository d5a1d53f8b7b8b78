import { describe, expect, it } from 'vitest';
import { consecutiveAckPasses, formatHistory, HISTORY_HEADING, HISTORY_KEEP, parseHistory, prependRun, type HistoryRow } from '../../bench/lib/history.js';

const row = (n: number, over: Partial<HistoryRow> = {}): HistoryRow => ({
  date: new Date(Date.UTC(2026, 10, 20 + n)).toISOString(),
  commit: `abc${n}def`,
  ackRatioSqlite: 1.03,
  ackRatioPg: 0.9,
  cpuMsPerCommandSqlite: 1.91,
  ttaP99Sqlite: 1191,
  ttaP99Pg: 1245.5,
  rssCompiledMb: 144.1,
  ...over,
});

const file = (rows: HistoryRow[]) => ['# cloudbot benchmarks', '', '## Targets', '', '| a | b |', '| --- | --- |', '| 1 | 2 |', '', HISTORY_HEADING, '', 'One row per run.', '', formatHistory(rows), '', '## Next', '', '| x |'].join('\n');

describe('bench history (Recent runs in bench/results.md)', () => {
  it('round-trips rows, newest first, with unmeasured figures as n/a', () => {
    const rows = [row(3), row(2, { ackRatioPg: null, ttaP99Pg: null, commit: 'abc2def + uncommitted changes in src/' }), row(1)];
    expect(parseHistory(file(rows))).toEqual(rows);
    expect(file(rows)).toContain('| n/a |');
  });

  it('has no history when the file, the heading or the table is missing, or the header differs', () => {
    expect(parseHistory(undefined)).toEqual([]);
    expect(parseHistory('')).toEqual([]);
    expect(parseHistory('# cloudbot benchmarks\n\n## Targets\n\n| a | b |\n| --- | --- |\n')).toEqual([]);
    expect(parseHistory(`${HISTORY_HEADING}\n\nnothing here\n`)).toEqual([]);
    expect(parseHistory(file([row(1)]).replace('| Date |', '| When |'))).toEqual([]);
  });

  it('reads up to the first malformed row, so the rows kept are consecutive', () => {
    const text = file([row(3), row(2), row(1)]).replace(/\| abc2def \| 1\.03 \|/, '| abc2def | fast |');
    expect(parseHistory(text)).toEqual([row(3)]);
  });

  it('keeps the last runs only', () => {
    const many = Array.from({ length: HISTORY_KEEP + 3 }, (_, i) => row(i));
    const kept = prependRun(many, row(99));
    expect(kept).toHaveLength(HISTORY_KEEP);
    expect(kept[0]).toEqual(row(99));
    expect(parseHistory(file(kept))).toEqual(kept);
  });

  it('judges "three consecutive runs" on both stores', () => {
    expect(consecutiveAckPasses([row(3), row(2), row(1)], 1.5)).toEqual({ passed: 3, considered: 3, ok: true });
    expect(consecutiveAckPasses([row(3), row(2, { ackRatioPg: 1.6 }), row(1)], 1.5)).toEqual({ passed: 2, considered: 3, ok: false });
    expect(consecutiveAckPasses([row(3), row(2, { ackRatioPg: null })], 1.5)).toEqual({ passed: 1, considered: 2, ok: false });
    expect(consecutiveAckPasses([row(4), row(3), row(2), row(1, { ackRatioSqlite: 9 })], 1.5).ok).toBe(true);
  });
});
