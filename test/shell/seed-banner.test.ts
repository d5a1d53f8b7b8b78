/**
 * Issue 14: a new user cannot find ids (the API lists no servers, groups or workers), so the
 * shell's banner and the README list what the built-in sandbox seeds.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedSummary } from '../../src/sandbox/index.js';
import { startShellHarness, type ShellHarness } from './harness.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

let h: ShellHarness;
beforeAll(async () => {
  h = await startShellHarness();
});
afterAll(async () => {
  await h?.end();
});

describe('the seeded ids and names', () => {
  it('are summed up from the seed itself', () => {
    const text = seedSummary();
    for (const part of ['101 web-1', '102 db-1', '103 build-1 (installing)', '104 staging-1 (stopped)', '7 web-default', '8 db-internal', 'docs-site', '11 alice@laptop', '1 AMS'])
      expect(text).toContain(part);
  });

  it('are listed by the shell banner, after its first line', () => {
    const lines = h.output().split('\n');
    expect(lines[0]).toMatch(/^cloudbot shell — sandbox cloud at /);
    expect(lines[1]).toBe(seedSummary());
    expect(h.shell.banner).toContain(seedSummary());
  });

  it('are listed by the README as the seed has them', () => {
    expect(readme).toContain(seedSummary());
  });
});
