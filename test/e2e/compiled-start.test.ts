/**
 * The production path: `npm run build` compiles src/ to JavaScript and `node dist/main.js`
 * runs it without tsx (less memory: see bench/results.md). Built here into a temporary folder
 * inside the repo (so node_modules resolves) and started as the local shell.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const out = mkdtempSync(join(ROOT, 'dist-test-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

it('compiles with the build config and runs under plain node', async () => {
  execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out], {
    cwd: ROOT,
    stdio: 'pipe',
  });
  const child = spawn(process.execPath, [join(out, 'main.js')], { env: { PATH: process.env.PATH ?? '' }, cwd: out, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  child.stdin.write('/cloud account usage\n');
  const deadline = Date.now() + 60_000; // a bound on waiting, generous for a busy machine; nothing is timed
  while (!output.includes('IP addresses') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  child.stdin.end();
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(output).toContain('cloudbot shell — sandbox cloud');
  expect(output).toContain('Account usage');
  expect(code).toBe(0);
}, 240_000);
