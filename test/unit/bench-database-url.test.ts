import { describe, expect, it } from 'vitest';
import { DEFAULT_BENCH_DATABASE_URL, loadBenchDatabaseUrl } from '../../src/config.js';

describe('loadBenchDatabaseUrl (npm run bench)', () => {
  it('prefers BENCH_DATABASE_URL, then TEST_DATABASE_URL, then CI’s server', () => {
    const bench = 'postgres://bench@db.internal:5433/bench';
    const test = 'postgres://postgres@127.0.0.1:5432/other';
    expect(loadBenchDatabaseUrl({ BENCH_DATABASE_URL: bench, TEST_DATABASE_URL: test })).toBe(bench);
    expect(loadBenchDatabaseUrl({ TEST_DATABASE_URL: test })).toBe(test);
    expect(loadBenchDatabaseUrl({})).toBe('postgres://postgres@127.0.0.1:5432/test');
    expect(DEFAULT_BENCH_DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/test');
  });

  it('treats a blank variable as not set, and trims', () => {
    expect(loadBenchDatabaseUrl({ BENCH_DATABASE_URL: '  ', TEST_DATABASE_URL: ' postgres://x@h/db ' })).toBe('postgres://x@h/db');
  });
});
