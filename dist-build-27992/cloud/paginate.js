import { readList, readPage } from './envelope.js';
import { localCloudError } from './errors.js';
import { PageMeta } from '../cloud-api/schemas.js';
/** More than this and the server is not paginating, it is looping. */
export const MAX_PAGES = 1000;
/** GET one page: `{ data: T[], meta }`. `query.page` absent → the server's first page. */
export async function fetchPage(transport, path, item, query = {}, signal) {
    const res = await transport.send({ method: 'GET', path, query, ...(signal ? { signal } : {}) });
    return readPage(res, item);
}
/**
 * Every item from `firstPage` to `meta.last_page`. Guards: the server must answer the page
 * asked for (one that never advances would loop), an empty page ends the walk, and at most
 * MAX_PAGES are read; a broken guard is INVALID_RESPONSE rather than a silently short list.
 */
export async function* iteratePages(fetch, label, firstPage = 1) {
    let page = firstPage;
    for (let read = 0;; read++) {
        if (read >= MAX_PAGES) {
            throw localCloudError('INVALID_RESPONSE', `${label}: stopped after ${MAX_PAGES} pages`, { request: label });
        }
        const { data, meta } = await fetch(page);
        if (meta.current_page !== page) {
            throw localCloudError('INVALID_RESPONSE', `${label}: asked for page ${page} but the cloud API answered page ${meta.current_page}`, { request: label });
        }
        yield* data;
        if (data.length === 0 || meta.current_page >= meta.last_page)
            return;
        page += 1;
    }
}
/**
 * A list whose shape is "not shown": `{data}` or `{data, meta}`. When `meta` turns out to be a
 * pagination meta with pages left, the rest are fetched too, so the caller gets everything.
 */
export async function collectList(transport, path, item, signal) {
    const first = readList(await transport.send({ method: 'GET', path, ...(signal ? { signal } : {}) }), item);
    const meta = PageMeta.safeParse(first.meta);
    if (!meta.success || meta.data.current_page >= meta.data.last_page || first.data.length === 0)
        return first.data;
    const all = [...first.data];
    const rest = iteratePages((page) => fetchPage(transport, path, item, { page }, signal), `GET ${path}`, meta.data.current_page + 1);
    for await (const x of rest)
        all.push(x);
    return all;
}
//# sourceMappingURL=paginate.js.map