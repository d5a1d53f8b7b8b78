/**
 * Whether dist/ is the compiled form of src/ as it is now, and building it when not: `npm start`
 * (scripts/start.mjs) runs the compiled bot, so an edited or freshly cloned src/ is built once
 * first. Freshness is a hash of src/'s contents and the tsc configs, stored in dist/ at build
 * time: a checkout that touches mtimes without changing a file does not rebuild.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';

export const STAMP = '.src-hash';
const CONFIGS = ['tsconfig.json', 'tsconfig.build.json'];

/** sha256 over every file under src/ (relative path and content, sorted) and the tsc configs. */
export function sourceHash(root) {
  const hash = createHash('sha256');
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .sort();
  for (const file of [...files, ...CONFIGS]) {
    const path = join(root, file);
    hash.update(`${file}\0`);
    if (existsSync(path)) hash.update(readFileSync(path));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash dist/ was built from, or undefined when there is no complete build. */
export function builtHash(root) {
  const stamp = join(root, 'dist', STAMP);
  return existsSync(stamp) && existsSync(join(root, 'dist', 'main.js')) ? readFileSync(stamp, 'utf8').trim() : undefined;
}

/** The TypeScript compiler's entry script, or undefined when typescript is not installed (`npm ci --omit=dev`). */
export function findTsc(root) {
  try {
    return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

/**
 * Compiles src/ with tsconfig.build.json into a fresh folder and swaps it in for dist/, so a
 * failed or interrupted build never leaves a half-written dist/ that looks fresh. tsc's
 * messages go to stderr (stdout is the local shell's). Throws when tsc reports errors.
 */
export function build(root, tsc, hash) {
  const out = join(root, `dist-build-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  try {
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', out], { cwd: root, stdio: ['ignore', 2, 2] });
    writeFileSync(join(out, STAMP), `${hash}\n`);
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    renameSync(out, join(root, 'dist'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
