/**
 * The heap limit `npm start` sets and the after-ack shedding agree (issue 21, item 1): under the
 * start script's own node flags, a burst of live data is shed well above what the bot needs, and
 * the heap left after the first shed still holds what the work already admitted may take, so V8
 * never kills the process. The bench judges the other side, the RSS peak (README, Run it).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startFlags } from '../../bench/lib/start-flags.js';

const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url));
const CHILD = fileURLToPath(new URL('./heap-burst-child.ts', import.meta.url));
/** Heap peak with 1,000 watches, compiled, as `npm start` runs the bot (bench: 45–52 MB). */
const NEEDED_MB = 52;
/** What work already admitted may still take after the first shed: far more than 256 running commands at their ~2 KB each. */
const ROOM_MB = 64;

describe('heap headroom under the start flags', () => {
  it('sheds a burst only well above what the bot needs, and early enough that admitted work still fits', () => {
    const run = spawnSync(process.execPath, ['--import', TSX, ...startFlags(), CHILD, String(ROOM_MB)], { encoding: 'utf8', timeout: 60_000 });
    // Killed by V8 ("heap out of memory") is a non-zero exit and no line on stdout.
    expect(run.stderr.match(/heap out of memory/)?.[0], run.stderr.slice(0, 400)).toBeUndefined();
    expect(run.status).toBe(0);
    const r = JSON.parse(run.stdout.trim()) as { shedAtMb: number | null; limitMb: number; keptMb: number };
    expect(r.shedAtMb).not.toBeNull();
    expect(r.shedAtMb!).toBeGreaterThanOrEqual(3 * NEEDED_MB);
    expect(r.keptMb).toBeGreaterThan(ROOM_MB);
  }, 60_000);
});
