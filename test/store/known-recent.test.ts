import { describe, expect, it } from 'vitest';
import { skipRecentlyRemembered } from '../../src/store/known-recent.js';
import type { KnownEntry, KnownResourceStore } from '../../src/store/known-types.js';

function recording(): KnownResourceStore & { writes: [string | null, KnownEntry[], number][] } {
  const writes: [string | null, KnownEntry[], number][] = [];
  return {
    writes,
    async remember(account, entries, now) {
      writes.push([account, [...entries], now]);
    },
    find: async () => [],
    list: async () => [],
    names: async () => [],
  };
}

describe('remembering without a write per answer', () => {
  const web: KnownEntry = { kind: 'server', id: '101', name: 'web-1' };

  it('writes an entry once per minute while it stays the same', async () => {
    const inner = recording();
    const known = skipRecentlyRemembered(inner, 60_000);
    await known.remember(null, [web], 1_000);
    await known.remember(null, [web], 30_000);
    await known.remember(null, [web], 60_999);
    expect(inner.writes.map((w) => w[2])).toEqual([1_000]);
    await known.remember(null, [web], 61_000);
    expect(inner.writes.map((w) => w[2])).toEqual([1_000, 61_000]);
  });

  it('writes at once what is new: another name, another resource, another account', async () => {
    const inner = recording();
    const known = skipRecentlyRemembered(inner, 60_000);
    await known.remember(null, [web], 1_000);
    await known.remember(null, [{ ...web, name: 'web-2' }, web], 2_000);
    await known.remember('prod', [web], 3_000);
    await known.remember(null, [{ kind: 'sg', id: '7', name: 'web-default' }], 4_000);
    expect(inner.writes).toEqual([
      [null, [web], 1_000],
      [null, [{ ...web, name: 'web-2' }], 2_000],
      ['prod', [web], 3_000],
      [null, [{ kind: 'sg', id: '7', name: 'web-default' }], 4_000],
    ]);
  });

  it('a failed write is tried again next time', async () => {
    const inner = recording();
    let fail = true;
    const flaky: KnownResourceStore = { ...inner, remember: async (...a) => (fail ? Promise.reject(new Error('locked')) : inner.remember(...a)) };
    const known = skipRecentlyRemembered(flaky, 60_000);
    await expect(known.remember(null, [web], 1_000)).rejects.toThrow('locked');
    fail = false;
    await known.remember(null, [web], 2_000);
    expect(inner.writes.map((w) => w[2])).toEqual([2_000]);
  });
});
