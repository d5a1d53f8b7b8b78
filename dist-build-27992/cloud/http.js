/**
 * The HTTP transport of the Cloud API v2 client: one request, its retries and its failures.
 * Knows the wire ("What the service does": JSON bodies, `{data}` / `{error}` envelopes;
 * "Authentication": bearer header), not the resources. Decoding `data` is envelope.ts's job.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { systemClock } from '../clock.js';
import { CloudApiError, cloudErrorFromResponse, localCloudError } from './errors.js';
import { decideRetry, resolveRetryPolicy } from './retry.js';
import { redact } from './redaction.js';
import { abortedError, transportFailure } from './transport-failures.js';
import { nextTurn } from '../turns.js';
export const DEFAULT_TIMEOUTS = Object.freeze({
    connectMs: 5000,
    headersMs: 20_000,
    bodyMs: 20_000,
});
function normaliseBaseUrl(raw) {
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        throw new TypeError('cloud client: baseUrl is not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
        throw new TypeError('cloud client: baseUrl must be http(s)');
    if (url.search || url.hash)
        throw new TypeError('cloud client: baseUrl must not have a query or fragment');
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
function queryString(query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {}))
        if (value !== undefined)
            params.set(key, String(value));
    const qs = params.toString();
    return qs ? `?${qs}` : '';
}
/** `clock.sleep`, cut short by the caller's signal. */
function pause(clock, ms, signal, request) {
    if (!signal)
        return clock.sleep(ms);
    return new Promise((resolve, reject) => {
        const onAbort = () => reject(abortedError(request, signal));
        if (signal.aborted)
            return onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
        void clock.sleep(ms).then(() => {
            signal.removeEventListener('abort', onAbort);
            resolve();
        });
    });
}
export function createTransport(options) {
    const base = normaliseBaseUrl(options.baseUrl);
    const token = options.token;
    // A header value with CR/LF or spaces would be refused by undici with a message we do not control.
    if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
        throw new TypeError('cloud client: the API token must be non-empty printable ASCII without spaces');
    }
    const clock = options.clock ?? systemClock;
    const timeouts = {
        connectMs: options.timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
        headersMs: options.timeouts?.headersMs ?? DEFAULT_TIMEOUTS.headersMs,
        bodyMs: options.timeouts?.bodyMs ?? DEFAULT_TIMEOUTS.bodyMs,
    };
    const policy = resolveRetryPolicy(options.retry);
    const owned = options.dispatcher
        ? undefined
        : new Agent({ connect: { timeout: timeouts.connectMs }, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs });
    const dispatcher = options.dispatcher ?? owned;
    const baseHeaders = {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        'user-agent': options.userAgent ?? 'cloudbot/0.1 (+undici)',
    };
    let closing;
    const emit = (event) => {
        try {
            options.onEvent?.(event);
        }
        catch {
            // A broken logger must not break a cloud call.
        }
    };
    /** One attempt: a response (any status) or a thrown failure without one. */
    async function attempt(req, url, requestLine) {
        const hasBody = req.body !== undefined;
        const res = await request(url, {
            dispatcher,
            method: req.method,
            headers: hasBody ? { ...baseHeaders, 'content-type': 'application/json' } : baseHeaders,
            body: hasBody ? JSON.stringify(req.body) : null,
            signal: req.signal ?? null,
            headersTimeout: timeouts.headersMs,
            bodyTimeout: timeouts.bodyMs,
        });
        const text = await res.body.text();
        if (res.statusCode >= 200 && res.statusCode < 300)
            return { ok: true, status: res.statusCode, text };
        // Redacted before parsing: a proxy or a debug server could echo the Authorization header.
        const error = cloudErrorFromResponse(res.statusCode, redact(text, token), res.headers, requestLine, clock.now());
        return { ok: false, error };
    }
    function parseBody(text, requestLine) {
        if (text.trim() === '')
            return undefined;
        try {
            return JSON.parse(text);
        }
        catch {
            throw localCloudError('INVALID_RESPONSE', `${requestLine}: the cloud API answered with a body that is not JSON`, {
                request: requestLine,
            });
        }
    }
    async function send(req) {
        const pathAndQuery = `${req.path}${queryString(req.query)}`;
        const requestLine = `${req.method} ${pathAndQuery}`;
        const url = `${base}${pathAndQuery}`;
        const started = clock.now();
        const tag = { method: req.method, path: pathAndQuery };
        for (let n = 1;; n++) {
            if (req.signal?.aborted)
                throw abortedError(requestLine, req.signal);
            if (closing)
                throw localCloudError('NETWORK_ERROR', `${requestLine}: the cloud client is closed`, { request: requestLine });
            emit({ type: 'request', ...tag, attempt: n, ms: 0 });
            const t0 = performance.now();
            let failure;
            let transient = false;
            try {
                const outcome = await attempt(req, url, requestLine);
                // What follows (parsing, the caller's rendering) waits its turn: acks first (turns.ts).
                await nextTurn();
                const ms = Math.round(performance.now() - t0);
                if (outcome.ok) {
                    emit({ type: 'response', ...tag, attempt: n, ms, status: outcome.status });
                    const body = req.expectBody === false ? undefined : parseBody(outcome.text, requestLine);
                    return { status: outcome.status, body, request: requestLine };
                }
                failure = outcome.error;
                emit({ type: 'response', ...tag, attempt: n, ms, status: failure.status, code: failure.code });
            }
            catch (e) {
                if (e instanceof CloudApiError)
                    throw e; // INVALID_RESPONSE from parseBody
                ({ error: failure, transient } = transportFailure(e, requestLine, token, req.signal));
                emit({ type: 'response', ...tag, attempt: n, ms: Math.round(performance.now() - t0), code: failure.code });
                if (failure.code === 'ABORTED')
                    throw failure;
            }
            const elapsedMs = clock.now() - started;
            const decision = decideRetry({ method: req.method, failure, transient, attempt: n, elapsedMs, policy });
            if (!decision.retry) {
                if (decision.reason !== 'budget' || failure.code === 'TIMEOUT')
                    throw failure;
                throw localCloudError('TIMEOUT', `${requestLine}: gave up after ${n} attempt${n === 1 ? '' : 's'} in ${elapsedMs} ms ` +
                    `(retry budget ${policy.budgetMs} ms); last failure: ${failure.message}`, { request: requestLine, cause: failure, ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }) });
            }
            emit({
                type: 'retry',
                ...tag,
                attempt: n,
                ms: decision.delayMs,
                code: failure.code,
                ...(failure.status ? { status: failure.status } : {}),
            });
            await pause(clock, decision.delayMs, req.signal, requestLine);
        }
    }
    return {
        send,
        close() {
            closing ??= owned ? owned.close() : Promise.resolve();
            return closing;
        },
    };
}
//# sourceMappingURL=http.js.map