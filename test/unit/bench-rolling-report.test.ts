/**
 * The rolling-restart section of bench/results.md: written from its figures, judged (one failure,
 * doubling or loss in any run is a MISS), and merged into the file without touching other sections.
 */
import { describe, expect, it } from 'vitest';
import { cleanRun, mergeSection, rollingSection, ROLLING_HEADING } from '../../bench/lib/rolling-report.js';
import type { RollingRestartResult, RollingRun } from '../../bench/rolling-restart.js';
import { parseBenchArgs, BenchUsageError } from '../../bench/lib/verdict.js';

const run = (over: Partial<RollingRun> = {}): RollingRun => ({
  commands: 170,
  clicks: 25,
  toldRetry: 1,
  failed: 0,
  unanswered: 0,
  why: [],
  deploys: 25,
  mutationsDoubled: 0,
  mutationsMissing: 0,
  finalsDoubled: 0,
  finalsLost: 0,
  restartAcks: { n: 100, p50: 26.4, p99: 149.6, max: 219 },
  takeoverMs: [1017, 437],
  stopMs: [285, 241],
  wallMs: 66_000,
  ...over,
});
const result = (runs: RollingRun[]): RollingRestartResult => ({
  runs,
  settings: { readProbeMs: 200, commandEveryMs: 250, deployEveryMs: 1500, buildMs: 6000, watchIntervalMs: 1000, leaseMs: 10_000, shutdownTimeoutMs: 15_000, shutdownDelayMs: 2000 },
});
const when = new Date('2026-11-25T16:00:00Z');

describe('the rolling-restart section', () => {
  it('PASS only when every run failed, doubled and lost nothing', () => {
    expect(rollingSection({ ok: true, result: result([run(), run(), run()]) }, when)).toContain('PASS: 0 failed');
    for (const bad of [{ failed: 1 }, { unanswered: 1 }, { mutationsDoubled: 1 }, { mutationsMissing: 1 }, { finalsDoubled: 1 }, { finalsLost: 1 }]) {
      expect(cleanRun(run(bad))).toBe(false);
      expect(rollingSection({ ok: true, result: result([run(), run(bad), run()]) }, when)).toContain('**MISS**');
    }
    expect(cleanRun(run({ toldRetry: 5 }))).toBe(true); // a true "try again" whose retry succeeded is no failure
    const md = rollingSection({ ok: true, result: result([run()]) }, when);
    expect(md).toContain('| 1 | 170 / 25 | 0 | 0 | 1 | 25 | 0 / 0 | 0 / 0 | 26 ms / 150 ms / 219 ms (n 100) | 1017 ms, 437 ms | 285 ms, 241 ms |');
    expect(rollingSection({ ok: false, unreachable: true, why: 'PostgreSQL unreachable' }, when)).toContain('Not measured: PostgreSQL unreachable.');
  });

  it('merges into bench/results.md: replaces its own section, leaves every other one as it was', () => {
    const file = ['# cloudbot benchmarks', '', '## Targets', '', 'targets', '', '## Client overhead', '', 'client', '', '## Method and caveats', '', 'method', ''].join('\n');
    const first = mergeSection(file, `${ROLLING_HEADING}\n\nfirst`);
    expect(first).toBe(['# cloudbot benchmarks', '', '## Targets', '', 'targets', '', '## Client overhead', '', 'client', '', ROLLING_HEADING, '', 'first', '', '## Method and caveats', '', 'method', ''].join('\n'));
    const second = mergeSection(first, `${ROLLING_HEADING}\n\nsecond`);
    expect(second).toBe(first.replace('first', 'second'));
    expect(mergeSection(undefined, `${ROLLING_HEADING}\n\nx`)).toBe(`# cloudbot benchmarks\n\n${ROLLING_HEADING}\n\nx\n`);
    // At the end of the file too.
    const last = mergeSection('# b\n\n## A\n\na\n', `${ROLLING_HEADING}\n\none`);
    expect(mergeSection(last, `${ROLLING_HEADING}\n\ntwo`)).toBe('# b\n\n## A\n\na\n\n' + `${ROLLING_HEADING}\n\ntwo\n`);
  });

  it('--only rolling-restart runs that section alone; anything else is a usage error', () => {
    expect(parseBenchArgs(['--only', 'rolling-restart', '--record'])).toEqual({ record: true, only: 'rolling-restart' });
    expect(parseBenchArgs(['--only', 'rolling-restart'])).toEqual({ record: false, only: 'rolling-restart' });
    expect(() => parseBenchArgs(['--only', 'watch-scale'])).toThrow(BenchUsageError);
    expect(() => parseBenchArgs(['--only'])).toThrow('--only takes one of rolling-restart');
  });
});
