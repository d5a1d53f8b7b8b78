/**
 * Path safety. Every value that goes into a URL path is checked here first, so a user's
 * "../../account" or "1%2Fbackups" can never address another endpoint (cloud-client.ts:
 * "validated locally … before any request"). Validators return the value branded, and
 * `path` only takes branded values, so the compiler refuses an unchecked segment.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { CloudApiError } from './errors.js';
// "Server identifier": numeric `id`, `uuid_short` (8 characters) or `uuid` (36 characters).
const NUMERIC_ID = /^[1-9][0-9]{0,18}$/;
const UUID_SHORT = /^[A-Za-z0-9]{8}$/;
const UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;
/** Canonical decimal, no sign, no leading zero, within Number.MAX_SAFE_INTEGER's 16 digits. */
const DECIMAL = /^[1-9][0-9]{0,15}$/;
export const isServerId = (v) => NUMERIC_ID.test(v) || UUID_SHORT.test(v) || UUID.test(v);
export const isServerUuid = (v) => UUID_SHORT.test(v) || UUID.test(v);
export const isUuid = (v) => UUID.test(v);
/** A literal IPv4/IPv6 address; no zone id (`%eth0`), brackets, port or whitespace. */
export const isIpAddress = (v) => !/[%[\]\s]/.test(v) && isIP(v) !== 0;
/** Quote user input in a message: escaped, short. */
function shown(value) {
    if (typeof value === 'number')
        return `“${String(value)}”`;
    if (typeof value !== 'string')
        return `a value of type ${value === null ? 'null' : typeof value}`;
    // Curly quotes inside become straight ones, so the quoted part can always be told apart
    // (views/input-message.ts shows it as an inert value).
    const escaped = JSON.stringify(value).slice(1, -1).replace(/[“”]/g, '"');
    return `“${escaped.length > 40 ? `${escaped.slice(0, 39)}…` : escaped}”`;
}
const HINTS = {
    'server id': 'use a numeric id, an 8-character short uuid or a 36-character uuid',
    'server uuid': 'use an 8-character short uuid or a 36-character uuid',
    'IP address': 'use a literal IPv4 or IPv6 address, without brackets, port or zone',
    uuid: 'use a 36-character uuid such as 123e4567-e89b-12d3-a456-426614174000',
    'path segment': 'only checked identifiers may go into a URL path',
};
const article = (kind) => (/^(?:[aeio]|SSH|IP)/.test(kind) ? 'an' : 'a');
export function identifierMessage(value, kind) {
    const hint = HINTS[kind] ?? 'use a positive whole number';
    return `${shown(value)} is not ${article(kind)} ${kind}: ${hint}`;
}
function refuse(value, kind) {
    throw new CloudApiError({ status: 0, code: 'INVALID_IDENTIFIER', message: identifierMessage(value, kind) });
}
function check(value, kind, ok) {
    if (typeof value !== 'string' || !ok(value))
        refuse(value, kind);
    return value;
}
/** `{server}`: numeric id, uuid_short or uuid. */
export const serverId = (value) => check(value, 'server id', isServerId);
/** Attach body `server_uuid`: "server uuid or short uuid" (spec, Security groups). */
export const serverUuid = (value) => check(value, 'server uuid', isServerUuid);
/** `{address}` of DELETE /servers/{server}/ips/{address}. */
export const ipAddress = (value) => check(value, 'IP address', isIpAddress);
/** Backup uuids and worker uuids. */
export const uuid = (value) => check(value, 'uuid', isUuid);
/**
 * Numeric ids (security group, rule, SSH key, location) and page numbers: a safe integer
 * ≥ 1, given as a number or as canonical decimal text (what a chat command carries).
 */
export function positiveInt(value, kind = 'id') {
    const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1)
        refuse(value, kind);
    return n;
}
/**
 * Builds a path from validated segments, each `encodeURIComponent`-ed:
 * path`/servers/${serverId(s)}/ips/${ipAddress(a)}`. The runtime check is a second line of
 * defence for callers that cast around the types.
 */
export function path(strings, ...segments) {
    let out = strings[0] ?? '';
    segments.forEach((segment, i) => {
        const encoded = encodeURIComponent(String(segment));
        if (encoded === '' || encoded === '.' || encoded === '..')
            refuse(segment, 'path segment');
        out += encoded + (strings[i + 1] ?? '');
    });
    return out;
}
// ── zod schemas for the command parser (same rules, same messages) ──────────────────────────
function schemaOf(validate) {
    return z.string({ error: 'must be an identifier, typed as text' }).transform((value, ctx) => {
        try {
            return validate(value);
        }
        catch (e) {
            ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'invalid identifier' });
            return z.NEVER;
        }
    });
}
export const ServerIdSchema = schemaOf(serverId);
export const ServerUuidSchema = schemaOf(serverUuid);
export const IpAddressSchema = schemaOf(ipAddress);
export const UuidSchema = schemaOf(uuid);
/** Accepts a number or decimal text; outputs the number. */
export const PositiveIntSchema = z
    .union([z.number(), z.string()], { error: 'must be a positive whole number' })
    .transform((value, ctx) => {
    try {
        return positiveInt(value);
    }
    catch (e) {
        ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'invalid id' });
        return z.NEVER;
    }
});
//# sourceMappingURL=ids.js.map