import { readData, readListWithMeta, readOptionalData } from './envelope.js';
import { path, positiveInt } from './ids.js';
import { collectList, fetchPage, iteratePages } from './paginate.js';
/** `{ data: T }` */
export const data = (schema) => ({ kind: 'one', read: (res) => readData(res, schema), expectBody: true });
/** `{ data: T }`, or nothing at all (envelope.ts `readOptionalData`). */
export const optionalData = (schema) => ({
    kind: 'one',
    read: (res) => readOptionalData(res, schema),
    expectBody: true,
});
/** `{ data: T[], meta: M }` */
export const listWithMeta = (item, meta) => ({
    kind: 'one',
    read: (res) => readListWithMeta(res, item, meta),
    expectBody: true,
});
/** Any answer of a read whose shape depends on the segments asked about. */
export const reading = (read) => ({ kind: 'one', read, expectBody: true });
/** 204, or a 200 with any body: success, nothing read. */
export const noContent = { kind: 'one', read: () => undefined, expectBody: false };
/** A list whose shape is "not shown": every item, whole (paginate.ts `collectList`). */
export const list = (item) => ({ kind: 'list', item });
/**
 * A paginated list: the method reads one page (`page`, and each filter: query name → what a bad
 * value is called), and a second method named `all` walks every page.
 */
export const pages = (item, opts) => ({ kind: 'pages', item, filters: opts.filters ?? {}, all: opts.all });
export function endpoint(method, template, segments, reply, body) {
    return { method, template, segments, body: body?.schema, input: body?.input, reply };
}
/** `/servers/{server}/ips/{address}` → literal parts and segment names, in order. */
export function splitTemplate(template) {
    const parts = template.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/);
    return { literals: parts.filter((_, i) => i % 2 === 0), names: parts.filter((_, i) => i % 2 === 1) };
}
/**
 * The concrete request for an endpoint: segments validated in template order (the first bad
 * one throws INVALID_IDENTIFIER), then the body made from the input, as it will be serialized.
 */
export function requestOf(e, params, input) {
    const { literals, names } = splitTemplate(e.template);
    const validated = {};
    const values = names.map((n) => {
        const validate = e.segments[n];
        if (!validate)
            throw new TypeError(`${e.template}: no validator for {${n}}`);
        return (validated[n] = validate(params[n]));
    });
    const strings = Object.assign([...literals], { raw: literals });
    const request = { method: e.method, path: path(strings, ...values) };
    const body = e.input && input !== undefined ? e.input(input) : input;
    // A JSON round trip: what the transport serializes, so what is shown is byte-for-byte what is sent.
    if (body !== undefined)
        request.body = JSON.parse(JSON.stringify(body));
    return { request, segments: validated };
}
/** Page and filters, each a positive whole number, checked before anything is sent. */
function queryOf(filters, query, withPage) {
    const out = {};
    for (const [name, kind] of Object.entries(filters)) {
        const v = query?.[name];
        out[name] = v === undefined ? undefined : positiveInt(v, kind);
    }
    if (withPage)
        out.page = query?.page === undefined ? undefined : positiveInt(query.page, 'page number');
    return out;
}
/** The methods one entry gives its group (two for a paginated list). */
function methodsOf(e, method, t) {
    const { names } = splitTemplate(e.template);
    const split = (args) => ({ params: Object.fromEntries(names.map((n, i) => [n, args[i]])), rest: args.slice(names.length) });
    const r = e.reply;
    if (r.kind === 'one') {
        return {
            [method]: async (...args) => {
                const { params, rest } = split(args);
                const [input, opts] = (e.body === undefined ? [undefined, rest[0]] : rest);
                const { request, segments } = requestOf(e, params, input);
                const res = await t.send({ ...request, signal: opts?.signal, ...(r.expectBody ? {} : { expectBody: false }) });
                return r.read(res, segments);
            },
        };
    }
    if (r.kind === 'list') {
        return {
            [method]: async (...args) => {
                const { params, rest } = split(args);
                return collectList(t, requestOf(e, params).request.path, r.item, rest[0]?.signal);
            },
        };
    }
    return {
        [method]: async (...args) => {
            const { params, rest } = split(args);
            const p = requestOf(e, params).request.path;
            const query = rest[0];
            return fetchPage(t, p, r.item, queryOf(r.filters, query, true), query?.signal);
        },
        [r.all]: async function* (...args) {
            const { params, rest } = split(args);
            const p = requestOf(e, params).request.path;
            const query = rest[0];
            const filters = queryOf(r.filters, query, false);
            const shown = Object.entries(filters).filter(([, v]) => v !== undefined).map(([k, v]) => `${k}=${v}`).join('&');
            const label = `GET ${p}${shown ? `?${shown}` : ''}`;
            yield* iteratePages((page) => fetchPage(t, p, r.item, { ...filters, page }, query?.signal), label);
        },
    };
}
/** The client over `t`, one group per key prefix; `guard` wraps each group (redaction.ts). */
export function clientFrom(table, t, guard = (g) => g) {
    const groups = {};
    for (const [name, e] of Object.entries(table)) {
        const [group, method] = name.split('.');
        groups[group] = { ...groups[group], ...methodsOf(e, method, t) };
    }
    return Object.fromEntries(Object.entries(groups).map(([g, methods]) => [g, guard(methods)]));
}
//# sourceMappingURL=define-endpoints.js.map