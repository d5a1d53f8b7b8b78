/**
 * `npm start` on a fresh clone: with an empty environment the entry point starts the local
 * shell on the built-in sandbox, answers what is typed, and exits 0 when input ends.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const REPO = new URL('../..', import.meta.url).pathname;

it('an empty environment starts the shell; piped commands are answered; end of input exits 0', async () => {
  // An empty folder as the working directory: no .env, and nothing written anywhere.
  const cwd = mkdtempSync(join(tmpdir(), 'cloudbot-shell-'));
  const child = spawn(process.execPath, ['--import', join(REPO, 'node_modules/tsx/dist/loader.mjs'), join(REPO, 'src/main.ts')], {
    env: { PATH: process.env.PATH ?? '' },
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdin.end('/cloud account usage\n');
  const code = await exited;
  rmSync(cwd, { recursive: true, force: true });
  expect(err).toBe('');
  expect(code).toBe(0);
  const lines = out.split('\n');
  expect(lines[0]).toMatch(/^cloudbot shell — sandbox cloud at http:\/\/127\.0\.0\.1:\d+\/v2 \(not Slack\)\. Type \/cloud help; Ctrl-D quits\. To connect to Slack, see README › Connect to Slack\.$/);
  expect(out).toContain('cloudbot (only you):\n  == Account usage ==\n    Servers: 4');
  // Nothing else was printed: no log lines, no warnings.
  expect(out).not.toMatch(/\[(warn|error)\]|"level"/);
});

/** src/main.ts in an empty folder with only `env`, `input` piped in; its output and exit code. */
async function runMain(env: Record<string, string>, input: string): Promise<{ out: string; err: string; code: number | null }> {
  const cwd = mkdtempSync(join(tmpdir(), 'cloudbot-shell-'));
  const child = spawn(process.execPath, ['--import', join(REPO, 'node_modules/tsx/dist/loader.mjs'), join(REPO, 'src/main.ts')], {
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  child.stdin.end(input);
  const code = await exited;
  rmSync(cwd, { recursive: true, force: true });
  return { out, err, code };
}

it('ACCESS_POLICY=examples/policy.sandbox.yaml runs as is: two sandbox accounts, `channel` switches between them', async () => {
  const { out, err, code } = await runMain({ ACCESS_POLICY: join(REPO, 'examples/policy.sandbox.yaml') }, 'channel prod-ops\n/cloud server status 101\n');
  expect(err).toBe('');
  expect(code).toBe(0);
  expect(out.split('\n')[0]).toMatch(/^cloudbot shell — accounts: prod \(sandbox at http:\/\/127\.0\.0\.1:\d+\/v2\), staging \(default, sandbox at /);
  expect(out).toContain('Now in #prod-ops (CPRODOPS01) — account prod');
  expect(out).toContain('Account: `prod`');
  expect(out).not.toMatch(/\[(warn|error)\]|"level"/);
});

it('a bad policy file ends start-up with its one message and exit code 2', async () => {
  const { out, err, code } = await runMain({ ACCESS_POLICY: 'nowhere.yaml' }, '');
  expect(err).toBe('ACCESS_POLICY: cannot read nowhere.yaml (ENOENT)\n');
  expect(code).toBe(2);
  expect(out).toBe('');
});
