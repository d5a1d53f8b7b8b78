/** Small numeric helpers for the benchmarks (no dependencies). */

/** Nearest-rank percentile (p in 0..100) of unsorted samples; NaN when empty. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(samples: readonly number[]): Summary {
  const n = samples.length;
  const mean = n === 0 ? Number.NaN : samples.reduce((a, b) => a + b, 0) / n;
  return {
    n,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    max: n === 0 ? Number.NaN : Math.max(...samples),
    mean,
  };
}

/** `1234.5` → `1234.5`, with a fixed number of decimals and no exponent. */
export const fmt = (n: number, decimals = 1): string => (Number.isFinite(n) ? n.toFixed(decimals) : 'n/a');

/** A deterministic PRNG (mulberry32), so every run deploys the same fleet. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Runs `task(i)` for i in [0, total) with at most `concurrency` in flight. Stops starting new
 * tasks once `deadline` (performance.now() ms) has passed; returns how many were started.
 */
export async function runBounded(
  total: number,
  concurrency: number,
  deadline: number,
  task: (i: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const lane = async () => {
    while (next < total && performance.now() < deadline) {
      const i = next++;
      await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, lane));
  return next;
}
