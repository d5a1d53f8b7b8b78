import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // A PostgreSQL server for the store tests (TEST_DATABASE_URL, or a throwaway one started once).
    globalSetup: ['test/store/postgres-global-setup.ts'],
    // Loopback servers and a real SQLite file per test: keep workers modest for 2-core CI.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
