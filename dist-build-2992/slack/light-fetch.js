/**
 * A `fetch` for Bolt's WebClient and its `respond` (both take `clientOptions.fetch`): undici's
 * `request` on one shared keep-alive Agent instead of Node's WHATWG fetch, whose streams,
 * Request/Response objects and body cloning cost more CPU per call than the rest of a command
 * (issue 15: profiled at ~1 ms per Web API call on the event loop every ack waits on).
 * The clients' own rules (timeouts through `signal`, retries, 429 handling) are unchanged:
 * this only carries the bytes. Bodies are read whole before the promise resolves (Slack's
 * answers are small), so the timeout covers the body as it does with fetch.
 */
import { STATUS_CODES } from 'node:http';
import { Agent, request } from 'undici';
import { nextTurn } from '../turns.js';
/** The parts of Headers the clients read (get, has, entries), over undici's lower-cased record. */
class LightHeaders {
    raw;
    constructor(raw) {
        this.raw = raw;
    }
    get(name) {
        const v = this.raw[name.toLowerCase()];
        return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    }
    has(name) {
        return this.raw[name.toLowerCase()] !== undefined;
    }
    *entries() {
        for (const k of Object.keys(this.raw)) {
            const v = this.get(k);
            if (v !== null)
                yield [k, v];
        }
    }
    [Symbol.iterator]() {
        return this.entries();
    }
}
/** The parts of a Response the WebClient and `respond` read. */
class LightResponse {
    status;
    statusText;
    body;
    url;
    ok;
    headers;
    constructor(status, statusText, headers, body, url) {
        this.status = status;
        this.statusText = statusText;
        this.body = body;
        this.url = url;
        this.ok = status >= 200 && status < 300;
        // Node's Headers validates every name and value; the clients only read a few.
        this.headers = new LightHeaders(headers);
    }
    async text() {
        return this.body.toString('utf8');
    }
    async json() {
        return JSON.parse(this.body.toString('utf8'));
    }
    async arrayBuffer() {
        return this.body.buffer.slice(this.body.byteOffset, this.body.byteOffset + this.body.byteLength);
    }
}
/** One Agent for every Slack call of the app (Web API and response_url posts), keep-alive. */
export function createLightFetch(agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 })) {
    const fetchFn = async (input, init = {}) => {
        const body = init.body;
        // Anything but a string body (a file upload's FormData) goes through Node's fetch as before.
        if ((body !== undefined && body !== null && typeof body !== 'string') || typeof input !== 'string')
            return fetch(input, init);
        const signal = init.signal ?? undefined;
        try {
            const res = await request(input, {
                dispatcher: agent,
                method: (init.method ?? 'GET'),
                headers: init.headers,
                ...(body !== undefined && body !== null ? { body } : {}),
                ...(signal ? { signal } : {}),
            });
            const buf = Buffer.from(await res.body.arrayBuffer());
            await nextTurn(); // `respond`'s caller continues on its own turn: acks first (turns.ts)
            // fetch with redirect: 'error' (the WebClient's) fails on a redirect instead of returning it.
            if (init.redirect === 'error' && res.statusCode >= 300 && res.statusCode < 400)
                throw new TypeError('fetch failed: unexpected redirect');
            return new LightResponse(res.statusCode, STATUS_CODES[res.statusCode] ?? '', res.headers, buf, input);
        }
        catch (e) {
            // As with fetch, an aborted call rejects with the signal's reason (a TimeoutError for AbortSignal.timeout).
            if (signal?.aborted)
                throw signal.reason;
            throw e;
        }
    };
    return { fetch: fetchFn, agent, close: () => agent.close() };
}
//# sourceMappingURL=light-fetch.js.map