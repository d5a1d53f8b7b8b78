/**
 * `npm start` (scripts/start.mjs): runs the compiled entry point in its own process, building
 * dist/ first when it is missing or was built from another src/. Run on a tiny project laid out
 * like this one (inside the repo, so the repo's typescript resolves), so the test builds in a
 * second and leaves the repo's own dist/ alone.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(ROOT, 'dist-test-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

mkdirSync(join(dir, 'scripts'));
mkdirSync(join(dir, 'src'));
for (const f of ['start.mjs', 'build-stamp.mjs']) copyFileSync(join(ROOT, 'scripts', f), join(dir, 'scripts', f));
writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  join(dir, 'tsconfig.build.json'),
  JSON.stringify({
    compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'], skipLibCheck: true, outDir: 'dist', rootDir: 'src' },
    include: ['src'],
  }),
);
// The entry point echoes its first line of stdin and sets an exit code: both must pass through.
writeFileSync(
  join(dir, 'src', 'main.ts'),
  "import { greeting } from './greeting.js';\nprocess.stdin.once('data', (d) => {\n  process.stdout.write(`${greeting}: ${String(d).trim()}\\n`);\n  process.exitCode = 3;\n  process.stdin.pause();\n});\n",
);
const setGreeting = (text: string) => writeFileSync(join(dir, 'src', 'greeting.ts'), `export const greeting: string = ${text};\n`);

function npmStart(input: string): Promise<{ out: string; err: string; code: number | null }> {
  const child = spawn(process.execPath, [join(dir, 'scripts/start.mjs')], { cwd: dir, env: { PATH: process.env.PATH ?? '' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (err += String(d)));
  child.stdin.end(input);
  return new Promise((resolve) => child.on('exit', (code) => resolve({ out, err, code })));
}

it('builds once, then runs the compiled code as it is; rebuilds when src changes; refuses a failed build', async () => {
  setGreeting("'hello'");
  const first = await npmStart('one\n');
  expect(first.err).toContain('building src/ into dist/');
  expect(first.out).toBe('hello: one\n');
  expect(first.code).toBe(3);
  const stamp = readFileSync(join(dir, 'dist', '.src-hash'), 'utf8');

  const second = await npmStart('two\n');
  expect(second.err).toBe('');
  expect(second.out).toBe('hello: two\n');
  expect(second.code).toBe(3);

  setGreeting("'bonjour'");
  const changed = await npmStart('three\n');
  expect(changed.err).toContain('building src/ into dist/');
  expect(changed.out).toBe('bonjour: three\n');
  const rebuiltStamp = readFileSync(join(dir, 'dist', '.src-hash'), 'utf8');
  expect(rebuiltStamp).not.toBe(stamp);

  // A type error: nothing starts, and the last good dist/ stays as it was (still stale, so the next start retries).
  setGreeting('42');
  const broken = await npmStart('four\n');
  expect(broken.code).toBe(1);
  expect(broken.out).toBe('');
  expect(broken.err).toContain("Type 'number' is not assignable to type 'string'");
  expect(broken.err).toContain('the build failed');
  expect(readFileSync(join(dir, 'dist', '.src-hash'), 'utf8')).toBe(rebuiltStamp);
}, 60_000);
