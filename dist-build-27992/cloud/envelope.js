/**
 * Reads success envelopes ("What the service does" §3: every success body has `data`;
 * "Pagination envelope": `data` + `meta`) with the tolerant schemas of cloud-api/schemas.ts. A body that
 * does not fit is INVALID_RESPONSE, with the failing paths named but no values echoed — never
 * a raw ZodError.
 */
import { z } from 'zod';
import { localCloudError } from './errors.js';
import { PageMeta } from '../cloud-api/schemas.js';
function formatPath(path) {
    let out = '';
    for (const key of path)
        out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
    return out || '(body)';
}
/** "data.uuid: invalid_type (expected string)" — paths and expectations, never the values. */
export function summariseIssues(issues, max = 5) {
    const parts = issues.slice(0, max).map((issue) => {
        const expected = 'expected' in issue && typeof issue.expected === 'string' ? ` (expected ${issue.expected})` : '';
        return `${formatPath(issue.path)}: ${issue.code}${expected}`;
    });
    const more = issues.length > max ? `; and ${issues.length - max} more` : '';
    return parts.join('; ') + more;
}
/**
 * Envelope schemas, built once per item schema: building a zod object costs far more than
 * parsing with it (about 20 µs against 0.5 µs per call, bench/results.md "Client overhead").
 */
function memo(build) {
    const cache = new WeakMap();
    return (key) => {
        let value = cache.get(key);
        if (value === undefined)
            cache.set(key, (value = build(key)));
        return value;
    };
}
const dataEnvelope = memo((schema) => z.object({ data: schema }));
const pageEnvelope = memo((item) => z.object({ data: z.array(item), meta: PageMeta }));
const listEnvelope = memo((item) => z.object({ data: z.array(item), meta: z.unknown().optional() }));
const listWithMetaEnvelope = memo((item) => memo((meta) => z.object({ data: z.array(item), meta })));
function decode(res, schema) {
    if (res.body === undefined) {
        throw localCloudError('INVALID_RESPONSE', `${res.request}: the cloud API answered with an empty body`, {
            request: res.request,
        });
    }
    const parsed = schema.safeParse(res.body);
    if (parsed.success)
        return parsed.data;
    throw localCloudError('INVALID_RESPONSE', `${res.request}: unexpected response shape: ${summariseIssues(parsed.error.issues)}`, { request: res.request });
}
/** `{ data: T }` */
export function readData(res, schema) {
    return decode(res, dataEnvelope(schema)).data;
}
/**
 * `{ data: T }`, or nothing at all, for operations whose answer is "not shown" and carries
 * nothing we must act on (POST /security-groups/{id}/deploy): empty body or `data: null`
 * reads as `{}`.
 */
export function readOptionalData(res, schema) {
    const body = res.body;
    const data = body !== null && typeof body === 'object' ? body.data : undefined;
    return readData({ ...res, body: { data: data ?? {} } }, schema);
}
/** `{ data: T[], meta: PageMeta }` ("Pagination envelope"). */
export function readPage(res, item) {
    return decode(res, pageEnvelope(item));
}
/**
 * For lists whose shape is "not shown" (subnets, worker locations and templates, SSH keys):
 * `{ data: T[] }` or `{ data: T[], meta }`. `meta` is returned unread; paginate.ts follows it
 * when it turns out to be a pagination `meta`.
 */
export function readList(res, item) {
    return decode(res, listEnvelope(item));
}
/** `{ data: T[], meta: M }` with a `meta` of its own kind (Reserve IPs); missing meta reads as `{}`. */
export function readListWithMeta(res, item, meta) {
    const body = res.body;
    const withMeta = body !== null && typeof body === 'object' && body.meta == null ? { ...body, meta: {} } : body;
    return decode({ ...res, body: withMeta }, listWithMetaEnvelope(item)(meta));
}
//# sourceMappingURL=envelope.js.map