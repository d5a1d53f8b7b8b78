/** Mapping and checks shared by both known-resource stores (SQLite and PostgreSQL). */
import { KNOWN_KINDS, KNOWN_LIST_MAX, NAME_FIELDS, } from './known-types.js';
import { assertInteger } from './operation-rows.js';
/** The default account is stored as '' so that (account, kind, id) is a plain unique key. */
export const accountKey = (account) => account ?? '';
export function assertKind(kind) {
    if (!KNOWN_KINDS.includes(kind))
        throw new TypeError(`unknown resource kind: ${String(kind)}`);
}
function assertField(field) {
    if (!NAME_FIELDS.includes(field))
        throw new TypeError(`unknown name field: ${String(field)}`);
}
const text = (v, max) => (typeof v === 'string' && v.trim() !== '' ? v.trim().slice(0, max) : null);
/**
 * Entries fit to store: known kind, non-empty id; empty uuids become null and empty names are
 * not names. One resource row per (kind, id) and one name per (kind, id, field): the last wins.
 */
export function cleanEntries(entries, now) {
    assertInteger(now, 'now');
    const resources = new Map();
    const names = new Map();
    for (const e of entries) {
        assertKind(e.kind);
        const field = e.field ?? 'name';
        assertField(field);
        const id = text(e.id, 100);
        if (!id)
            continue;
        const key = `${e.kind}|${id}`;
        const uuid = text(e.uuid, 100) ?? resources.get(key)?.uuid ?? null;
        resources.set(key, { kind: e.kind, id, uuid });
        const name = text(e.name, 200);
        if (name)
            names.set(`${key}|${field}`, { kind: e.kind, id, field, name, via: text(e.via, 60) });
    }
    return { resources: [...resources.values()], names: [...names.values()] };
}
export function clampKnownLimit(limit) {
    const n = Math.trunc(limit);
    return Number.isFinite(n) ? Math.max(1, Math.min(n, KNOWN_LIST_MAX)) : KNOWN_LIST_MAX;
}
/** The order names are shown and the first one is chosen in. */
export const FIELD_ORDER = ['inventory', 'name', 'hostname', 'rdns', 'seed'];
export function byField(a, b) {
    return FIELD_ORDER.indexOf(a.field) - FIELD_ORDER.indexOf(b.field) || b.lastSeen - a.lastSeen;
}
/** A resource row with its name rows (those of other ids are ignored). */
export function toKnown(row, nameRows) {
    assertKind(row.kind);
    const names = nameRows
        .filter((n) => n.id === row.id && NAME_FIELDS.includes(n.field))
        .map((n) => ({ name: n.name, field: n.field, via: n.via, lastSeen: Number(n.last_seen) }))
        .sort(byField);
    return {
        account: row.account === '' ? null : row.account,
        kind: row.kind,
        id: row.id,
        uuid: row.uuid,
        name: names[0]?.name ?? null,
        names,
        firstSeen: Number(row.first_seen),
        lastSeen: Number(row.last_seen),
    };
}
//# sourceMappingURL=known-rows.js.map