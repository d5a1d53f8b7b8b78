/** Mapping and checks shared by both known-resource stores (SQLite and PostgreSQL). */
import {
  KNOWN_KINDS,
  KNOWN_LIST_MAX,
  MULTI_FIELDS,
  NAME_FIELDS,
  type KnownEntry,
  type KnownKind,
  type KnownName,
  type KnownResource,
  type NameField,
} from './known-types.js';
import { assertInteger } from './operation-rows.js';

export interface KnownRow {
  account: string;
  kind: string;
  id: string;
  uuid: string | null;
  first_seen: number | string;
  last_seen: number | string;
}

export interface KnownNameRow {
  id: string;
  field: string;
  name: string;
  via: string | null;
  last_seen: number | string;
}

/** The default account is stored as '' so that (account, kind, id) is a plain unique key. */
export const accountKey = (account: string | null): string => account ?? '';

export function assertKind(kind: unknown): asserts kind is KnownKind {
  if (!(KNOWN_KINDS as readonly unknown[]).includes(kind)) throw new TypeError(`unknown resource kind: ${String(kind)}`);
}

function assertField(field: unknown): asserts field is NameField {
  if (!(NAME_FIELDS as readonly unknown[]).includes(field)) throw new TypeError(`unknown name field: ${String(field)}`);
}

const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null);

export interface CleanResource {
  kind: KnownKind;
  id: string;
  uuid: string | null;
}
export interface CleanName {
  kind: KnownKind;
  id: string;
  field: NameField;
  name: string;
  via: string | null;
}

/**
 * Entries fit to store: known kind, non-empty id; empty uuids become null and empty names are
 * not names. One resource row per (kind, id) and one name per (kind, id, field): the last wins.
 */
export function cleanEntries(entries: readonly KnownEntry[], now: number): { resources: CleanResource[]; names: CleanName[] } {
  assertInteger(now, 'now');
  const resources = new Map<string, CleanResource>();
  const names = new Map<string, CleanName>();
  for (const e of entries) {
    assertKind(e.kind);
    const field = e.field ?? 'name';
    assertField(field);
    const id = text(e.id, 100);
    if (!id) continue;
    const key = `${e.kind}|${id}`;
    const uuid = text(e.uuid, 100) ?? resources.get(key)?.uuid ?? null;
    resources.set(key, { kind: e.kind, id, uuid });
    const name = text(e.name, 200);
    if (name) names.set(MULTI_FIELDS.includes(field) ? `${key}|${field}|${name}` : `${key}|${field}`, { kind: e.kind, id, field, name, via: text(e.via, 60) });
  }
  return { resources: [...resources.values()], names: [...names.values()] };
}

export function clampKnownLimit(limit: number): number {
  const n = Math.trunc(limit);
  return Number.isFinite(n) ? Math.max(1, Math.min(n, KNOWN_LIST_MAX)) : KNOWN_LIST_MAX;
}

/** The order names are shown and the first one is chosen in. */
export const FIELD_ORDER: readonly KnownName['field'][] = ['inventory', 'name', 'hostname', 'rdns', 'seed', 'ip'];

export function byField(a: KnownName, b: KnownName): number {
  return FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field) || b.lastSeen - a.lastSeen;
}

/** A resource row with its name rows (those of other ids are ignored). */
export function toKnown(row: KnownRow, nameRows: readonly KnownNameRow[]): KnownResource {
  assertKind(row.kind);
  const names: KnownName[] = nameRows
    .filter((n) => n.id === row.id && (NAME_FIELDS as readonly string[]).includes(n.field))
    .map((n) => ({ name: n.name, field: n.field as NameField, via: n.via, lastSeen: Number(n.last_seen) }))
    .sort(byField);
  return {
    account: row.account === '' ? null : row.account,
    kind: row.kind,
    id: row.id,
    uuid: row.uuid,
    // An address is how it is found, not what it is called.
    name: names.find((n) => n.field !== 'ip')?.name ?? null,
    names,
    firstSeen: Number(row.first_seen),
    lastSeen: Number(row.last_seen),
  };
}
