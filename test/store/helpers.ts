import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteStore } from '../../src/store/index.js';
import type { NewOperation, Store } from '../../src/store/index.js';

export const T0 = Date.parse('2026-11-22T12:00:00Z');

/** A mutable clock for createdAt/updatedAt. */
export function fixedClock(start = T0) {
  let now = start;
  return {
    now: () => now,
    set: (ms: number) => {
      now = ms;
    },
  };
}

/** A temp folder per test file, and every store opened in it, cleaned up by `cleanup()`. */
export function tempStores() {
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-store-'));
  const open: Store[] = [];
  return {
    dir,
    file: (name = 'cloudbot.db') => join(dir, name),
    open(path: string, clock = fixedClock()): Store {
      const store = createSqliteStore({ path, clock });
      open.push(store);
      return store;
    },
    async cleanup() {
      for (const s of open) await s.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function newOp(over: Partial<NewOperation> = {}): NewOperation {
  return {
    opId: 'server.reinstall',
    args: { server: 'srv-123', image: 'ubuntu-24.04', tags: ['a', 'b'], nested: { n: 1, ok: true } },
    requestedBy: 'U_ALICE',
    teamId: 'T_ACME',
    channelId: 'C_OPS',
    expiresAt: T0 + 5 * 60_000,
    ...over,
  };
}
