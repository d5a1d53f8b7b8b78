/**
 * The known-resource store seen through an account's inventory (policy file, issue 20): the
 * inventory's names are found, suggested and listed with the names answers taught, each marked
 * as the inventory's. Nothing of the inventory is written to the store, so a policy reload that
 * drops an entry drops its name at once.
 */
import { isUuid } from '../cloud/ids.js';
import type { KnownKind, KnownName, KnownResource, KnownResourceStore } from '../store/known-types.js';
import type { InventoryItem } from './inventory.js';

const sameId = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function inventoryName(item: InventoryItem): KnownName {
  return { name: item.name, field: 'inventory', via: null, lastSeen: 0, ...(item.home ? { home: item.home } : {}) };
}

/** Store rows with the inventory's names added; inventory entries no row has become rows never seen. */
function merge(account: string | null, kind: KnownKind, rows: readonly KnownResource[], items: readonly InventoryItem[]): KnownResource[] {
  const out = rows.map((r) => ({ ...r, names: [...r.names] }));
  for (const item of items) {
    const row = out.find((r) => sameId(r.id, item.id) || (r.uuid !== null && sameId(r.uuid, item.id)));
    if (row) {
      row.names.unshift(inventoryName(item));
      row.name = row.names[0]!.name;
    } else {
      out.push({ account, kind, id: item.id, uuid: isUuid(item.id) ? item.id.toLowerCase() : null, name: item.name, names: [inventoryName(item)], firstSeen: null, lastSeen: null });
    }
  }
  return out;
}

export function withInventory(store: KnownResourceStore, inventoryOf: (account: string | null) => readonly InventoryItem[]): KnownResourceStore {
  const items = (account: string | null, kind: KnownKind) => inventoryOf(account).filter((i) => i.kind === kind);
  return {
    remember: (...a) => store.remember(...a),
    async find(account, kind, name) {
      const all = items(account, kind);
      const named = all.filter((i) => i.name.toLowerCase() === name.trim().toLowerCase());
      const rows = await store.find(account, kind, name);
      // A row found by another name still gets its inventory name; an entry named so joins them.
      const own = all.filter((i) => rows.some((r) => sameId(r.id, i.id) || (r.uuid !== null && sameId(r.uuid, i.id))));
      return merge(account, kind, rows, [...new Set([...named, ...own])]);
    },
    async list(account, kind, limit) {
      return merge(account, kind, await store.list(account, kind, limit), items(account, kind));
    },
    async names(account, kind) {
      return [...new Set([...items(account, kind).map((i) => i.name), ...(await store.names(account, kind))])];
    },
  };
}
