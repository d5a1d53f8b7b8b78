/**
 * Issue 20 item 8: `npm run bench` says in its last line whether every target was met and
 * exits non-zero when one was not; it writes bench/results.md only with `--record`.
 */
import { describe, expect, it } from 'vitest';
import { benchVerdict, BenchUsageError, missedTargets, parseBenchArgs } from '../../bench/lib/verdict.js';

const ROWS = [
  ['Ack p99 ratio, SQLite', '1.01×', '≤ 1.5×', 'PASS'],
  ['… the same on PostgreSQL', 'not measured: PostgreSQL unreachable', '≤ 1.5×', '**NOT MEASURED**'],
  ['Ack p99 ratio, same process (for comparison)', '1.7×', '(≤ 1.5×)', '(would miss)'],
  ['`npm run bench` wall time', '433.0 s', '< 300 s', '**MISS**'],
];
const passing = ROWS.map((r) => (r[3]!.startsWith('(') ? r : [r[0]!, r[1]!, r[2]!, 'PASS']));

describe('the bench verdict', () => {
  it('a missed target exits non-zero and its last line says MISS, naming each target not met', () => {
    const v = benchVerdict(ROWS, false, 433);
    expect(v.exitCode).toBe(1);
    expect(v.line).toBe(
      'bench: MISS: 2 of 3 targets not met in 433.0 s: … the same on PostgreSQL (not measured); `npm run bench` wall time (miss); bench/results.md not touched (add -- --record to write it).',
    );
  });

  it('every target met exits 0 and says PASS; a comparison in parentheses is no target', () => {
    const v = benchVerdict(passing, true, 222.1);
    expect(v).toEqual({ exitCode: 0, line: 'bench: PASS: all 3 targets met in 222.1 s; written to bench/results.md.' });
    expect(missedTargets(passing)).toEqual([]);
  });

  it('records bench/results.md only with --record; anything else is a usage error before any section runs', () => {
    expect(parseBenchArgs([])).toEqual({ record: false });
    expect(parseBenchArgs(['--record'])).toEqual({ record: true });
    expect(() => parseBenchArgs(['--recrod'])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(['--recrod'])).toThrow('usage: npm run bench [-- --record]');
  });
});
