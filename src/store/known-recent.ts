/**
 * Remembering without a write per answer (issue 15: every read upserted its resources, ~0.05 ms
 * of synchronous SQLite per command). An entry written the same way within `windowMs` is not
 * written again: last_seen is then at most that much behind, which "last seen" can afford.
 * Anything new — another name, uuid or resource — is written at once.
 */
import type { KnownEntry, KnownResourceStore } from './known-types.js';

export const RECENT_WINDOW_MS = 60_000;

export function skipRecentlyRemembered(store: KnownResourceStore, windowMs = RECENT_WINDOW_MS, maxKept = 10_000): KnownResourceStore {
  const written = new Map<string, number>();
  const keyOf = (account: string | null, e: KnownEntry) => JSON.stringify([account ?? '', e.kind, e.id, e.uuid ?? null, e.name ?? null, e.field ?? 'name', e.via ?? null]);
  return {
    find: (...a) => store.find(...a),
    list: (...a) => store.list(...a),
    names: (...a) => store.names(...a),
    async remember(account, entries, now) {
      const fresh = entries.filter((e) => {
        const at = written.get(keyOf(account, e));
        return at === undefined || now - at >= windowMs || now < at;
      });
      if (!fresh.length) return;
      await store.remember(account, fresh, now);
      if (written.size > maxKept) written.clear(); // a bound, not an LRU: the next write refills it
      for (const e of fresh) written.set(keyOf(account, e), now);
    },
  };
}
