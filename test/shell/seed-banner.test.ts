/**
 * Issue 14: a new user cannot find ids (the API lists no servers, groups or workers), so the
 * shell's banner and the README list what the built-in sandbox seeds.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_WORKER_UUID, seedSummary } from '../../src/sandbox/index.js';
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

describe('the names the banner shows work in a fresh shell (issue 20)', () => {
  it('a server, a group and the worker by name, before any answer taught them', async () => {
    const sandbox = h.shell.sandbox!;
    let from = sandbox.requests.length;
    let mark = h.mark();
    h.type('/cloud server status web-1');
    await h.waitFor(/Server `?101`?/, mark);
    expect(h.since(mark)).not.toContain("I don't know");
    expect(sandbox.requests.slice(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['GET /v2/servers/101/status']);

    from = sandbox.requests.length;
    mark = h.mark();
    h.type('/cloud sg show web-default');
    await h.waitFor(/Public web traffic/, mark);
    expect(sandbox.requests.slice(from).map((r) => r.rawPath)).toEqual(['/v2/security-groups/7']);

    from = sandbox.requests.length;
    mark = h.mark();
    h.type('/cloud worker status docs-site');
    await h.waitFor(/^(?!cloud>).*docs-site/m, mark); // the answer, not the echo of the typed line
    expect(sandbox.requests.slice(from).map((r) => r.rawPath)).toEqual([`/v2/workers/${SEED_WORKER_UUID}/status`]);
  });

  it('`server known` says these names come from the sandbox seed', async () => {
    const mark = h.mark();
    h.type('/cloud server known');
    await h.waitFor(/Servers known/, mark);
    await h.waitFor(/staging-1/, mark);
    expect(h.since(mark)).toMatch(/web-1.*sandbox seed/);
  });
});
