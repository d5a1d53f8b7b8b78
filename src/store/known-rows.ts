/** Mapping and checks shared by both known-resource stores (SQLite and PostgreSQL). */
import { KNOWN_KINDS, KNOWN_LIST_MAX, type KnownEntry, type KnownKind, type KnownResource } from './known-types.js';
import { assertInteger } from './operation-rows.js';

export interface KnownRow {
  account: string;
  kind: string;
  id: string;
  uuid: string | null;
  name: string | null;
  first_seen: number | string;
  last_seen: number | string;
}

/** The default account is stored as '' so that (account, kind, id) is a plain unique key. */
export const accountKey = (account: string | null): string => account ?? '';

export function assertKind(kind: unknown): asserts kind is KnownKind {
  if (!(KNOWN_KINDS as readonly unknown[]).includes(kind)) throw new TypeError(`unknown resource kind: ${String(kind)}`);
}

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null);

/** Entries fit to store: known kind, non-empty id; empty names and uuids become null. Duplicates: the last wins. */
export function cleanEntries(entries: readonly KnownEntry[], now: number): Array<{ kind: KnownKind; id: string; uuid: string | null; name: string | null }> {
  assertInteger(now, 'now');
  const out = new Map<string, { kind: KnownKind; id: string; uuid: string | null; name: string | null }>();
  for (const e of entries) {
    assertKind(e.kind);
    const id = text(e.id, 100);
    if (!id) continue;
    out.set(`${e.kind}|${id}`, { kind: e.kind, id, uuid: text(e.uuid, 100), name: text(e.name, 200) });
  }
  return [...out.values()];
}

export function clampKnownLimit(limit: number): number {
  const n = Math.trunc(limit);
  return Number.isFinite(n) ? Math.max(1, Math.min(n, KNOWN_LIST_MAX)) : KNOWN_LIST_MAX;
}

export function toKnown(row: KnownRow): KnownResource {
  assertKind(row.kind);
  return {
    account: row.account === '' ? null : row.account,
    kind: row.kind,
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    firstSeen: Number(row.first_seen),
    lastSeen: Number(row.last_seen),
  };
}
