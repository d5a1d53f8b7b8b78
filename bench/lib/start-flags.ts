/**
 * The node flags `npm start` runs the bot with, read from package.json's start script
 * (`node <flags> scripts/start.mjs`), so the bench's compiled runs use exactly those.
 */
import { readFileSync } from 'node:fs';

export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url.replace('/.compiled/bench/', '/')), 'utf8')) as { scripts: { start: string } };
  const words = pkg.scripts.start.split(/\s+/);
  if (words[0] !== 'node' || !words.at(-1)?.endsWith('start.mjs')) throw new Error(`unexpected start script: ${pkg.scripts.start}`);
  return words.slice(1, -1);
}
