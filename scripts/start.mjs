/**
 * `npm start`: the compiled bot (dist/main.js) in this very process — same signals, exit codes
 * and stdin as `node dist/main.js` — built first when dist/ is missing or not built from the
 * src/ of now (scripts/build-stamp.mjs), so a fresh clone needs no separate step. Compiled
 * JavaScript, not tsx: tsx's loader alone costs ~40 MB of RSS (bench/results.md).
 *
 * Without typescript (`npm ci --omit=dev`) a stale or missing dist/ cannot be built: the bot
 * then runs from src/ through tsx (a dependency) and says so; build where dev dependencies are
 * installed (`npm run build`) to ship dist/ instead.
 */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, builtHash, findTsc, sourceHash } from './build-stamp.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const say = (line) => process.stderr.write(`cloudbot: ${line}\n`);

async function start() {
  const hash = sourceHash(root);
  if (builtHash(root) !== hash) {
    const tsc = findTsc(root);
    if (!tsc) {
      say('dist/ is missing or older than src/ and typescript is not installed: running src/ through tsx (more memory; see README › Connect to Slack).');
      const { register } = await import('tsx/esm/api');
      register();
      return import(pathToFileURL(join(root, 'src', 'main.ts')).href);
    }
    say('building src/ into dist/ (once per change of src/)…');
    try {
      build(root, tsc, hash);
    } catch {
      say('the build failed (the compiler\'s messages are above); nothing started.');
      process.exit(1);
    }
  }
  return import(pathToFileURL(join(root, 'dist', 'main.js')).href);
}

// `npm run build`: build now (also when fresh), start nothing.
if (process.argv.includes('--build')) {
  const tsc = findTsc(root);
  if (!tsc) {
    say('typescript is not installed (npm ci without --omit=dev installs it).');
    process.exit(1);
  }
  try {
    build(root, tsc, sourceHash(root));
  } catch {
    process.exit(1);
  }
} else await start();
