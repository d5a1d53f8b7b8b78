/**
 * Turns what undici or node throws (no response at all) into a CloudApiError: TIMEOUT,
 * NETWORK_ERROR or ABORTED (errors.ts LOCAL_ERROR_CODES).
 *
 * Token safety (spec "Authentication"): undici errors can carry request or response headers
 * (RequestRetryError, ResponseError), so the original error is never attached. The cause is a
 * plain `{ name, code, message }` with the token cut out of the message.
 */
import { CloudApiError, localCloudError } from './errors.js';
import { redact } from './redaction.js';
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** Failures that say nothing about the next attempt: worth another GET. */
const TRANSIENT_CODES = new Set([
    ...TIMEOUT_CODES,
    'ECONNREFUSED',
    'ECONNRESET',
    'ECONNABORTED',
    'EPIPE',
    'EAI_AGAIN',
    'ENETUNREACH',
    'EHOSTUNREACH',
    'ENETDOWN',
    'EHOSTDOWN',
    'UND_ERR_SOCKET',
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    'HPE_INVALID_CONSTANT',
]);
function codeOf(e) {
    if (e === null || typeof e !== 'object')
        return undefined;
    const code = e.code;
    if (typeof code === 'string')
        return code;
    // Happy-eyeballs connects throw an AggregateError whose members carry the code.
    const first = e.errors?.[0];
    return first === undefined ? undefined : codeOf(first);
}
export function safeCause(e, secret) {
    const name = e instanceof Error ? e.name : typeof e;
    const raw = e instanceof Error ? e.message : typeof e === 'string' ? e : '';
    const code = codeOf(e);
    const message = redact(raw, secret).slice(0, 300);
    return Object.freeze(code === undefined ? { name, message } : { name, code, message });
}
/**
 * Classifies a thrown value. `signal` is the caller's: when it fired, the failure is ABORTED
 * whatever undici reports — or TIMEOUT when its reason is a TimeoutError (AbortSignal.timeout).
 */
export function transportFailure(e, request, secret, signal) {
    if (e instanceof CloudApiError)
        return { error: e, transient: false };
    if (signal?.aborted)
        return { error: abortedError(request, signal), transient: false };
    const cause = safeCause(e, secret);
    const code = cause.code;
    if (code !== undefined && TIMEOUT_CODES.has(code)) {
        const what = code === 'UND_ERR_CONNECT_TIMEOUT'
            ? 'connecting'
            : code === 'UND_ERR_HEADERS_TIMEOUT'
                ? 'waiting for the response'
                : 'reading the response';
        return {
            error: localCloudError('TIMEOUT', `${request}: the cloud API timed out while ${what}`, { request, cause }),
            transient: true,
        };
    }
    const detail = cause.message || code || cause.name;
    return {
        error: localCloudError('NETWORK_ERROR', `${request}: could not reach the cloud API (${detail})`, { request, cause }),
        transient: code !== undefined && TRANSIENT_CODES.has(code),
    };
}
export function abortedError(request, signal) {
    const reason = signal.reason;
    const timedOut = typeof reason === 'object' && reason !== null && reason.name === 'TimeoutError';
    return timedOut
        ? localCloudError('TIMEOUT', `${request}: the caller's deadline passed`, { request })
        : localCloudError('ABORTED', `${request}: cancelled`, { request });
}
//# sourceMappingURL=transport-failures.js.map