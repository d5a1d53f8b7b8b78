/**
 * The one error type of the cloud boundary. Every failure of a cloud call — an `{error}`
 * envelope, a transport failure, a response we cannot read, an identifier refused before
 * sending — is a `CloudApiError`. Modelled on Octokit's `RequestError`: status + code +
 * message, and never the request's Authorization header.
 */
import { ErrorEnvelope } from '../cloud-api/schemas.js';
/** Codes the spec lists ("Errors" in shared/spec/cloud-api-v2.md). */
export const SPEC_ERROR_CODES = [
    'UNAUTHENTICATED',
    'NOT_FOUND',
    'VALIDATION_ERROR',
    'RESERVED_IP_LIMIT_REACHED',
    'INSUFFICIENT_BALANCE',
    'SUBNET_EXHAUSTED',
    'WORKER_LIMIT_REACHED',
    'WORKERS_DISABLED',
    'LOCATION_UNAVAILABLE',
    'GIT_HOST_NOT_CONNECTED',
    'SERVER_STATUS_CONFLICT',
    'CANNOT_REMOVE_PRIMARY',
    'HYPERVISOR_SYNC_FAILED',
];
/** Further codes seen in the provider's material (shared/spec/provider-notes.md). */
export const PROVIDER_ERROR_CODES = [
    'NO_AVAILABLE_NODE',
    'RESOURCE_LIMIT_EXCEEDED',
    'OVERDUE_INVOICE',
    'PLAN_UNAVAILABLE',
    'PLAN_OUT_OF_STOCK',
    'TEMPLATE_NOT_FOUND',
    'HAS_SERVERS',
    'ALREADY_ATTACHED',
    'RATE_LIMITED',
    'INVALID_TOKEN',
    'ACCOUNT_BANNED',
    'IP_NOT_ALLOWED',
];
/**
 * Codes this project chose where the spec says "not shown":
 * - BACKUP_LOCKED: deleting a locked backup (spec: "The error code for deleting a locked
 *   backup: not shown"); the sandbox answers 422 with it.
 */
export const CHOSEN_ERROR_CODES = ['BACKUP_LOCKED'];
/** Codes the client makes itself, with no response from the cloud to go on. */
export const LOCAL_ERROR_CODES = [
    'NETWORK_ERROR', // connection refused/reset, DNS failure
    'TIMEOUT', // connect, headers or body timeout, or the retry budget ran out
    'INVALID_RESPONSE', // a response body we could not understand
    'INVALID_IDENTIFIER', // a path parameter refused locally, before any request
    'HTTP_ERROR', // a failure status without a readable `{error}` envelope
    'ABORTED', // the caller's AbortSignal fired before an answer arrived
];
export class CloudApiError extends Error {
    name = 'CloudApiError';
    status;
    code;
    details;
    retryAfterMs;
    request;
    constructor(init) {
        super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
        this.status = init.status;
        this.code = init.code;
        if (init.details !== undefined)
            this.details = init.details;
        if (init.retryAfterMs !== undefined)
            this.retryAfterMs = init.retryAfterMs;
        if (init.request !== undefined)
            this.request = init.request;
    }
    /** Field → messages for VALIDATION_ERROR, with non-array entries dropped. */
    fieldErrors() {
        const out = {};
        for (const [field, value] of Object.entries(this.details ?? {})) {
            if (Array.isArray(value))
                out[field] = value.map(String);
            else if (typeof value === 'string')
                out[field] = [value];
        }
        return out;
    }
}
export function isCloudApiError(e) {
    return e instanceof CloudApiError;
}
/** Server messages and details are shown in Slack and logs: keep them short. */
const MAX_MESSAGE_CHARS = 500;
/**
 * `Retry-After` (provider notes, 429 row): delta-seconds or an HTTP date. Returns
 * milliseconds from `nowMs`, never negative; undefined when absent or unreadable.
 */
export function parseRetryAfter(value, nowMs) {
    const raw = (Array.isArray(value) ? value[0] : value)?.trim();
    if (!raw)
        return undefined;
    if (/^\d+(\.\d+)?$/.test(raw))
        return Math.round(Number(raw) * 1000);
    // Only a real date: `Date.parse` would also take "5 minutes"-like junk on some engines.
    if (!/[A-Za-z]{3},? /.test(raw))
        return undefined;
    const at = Date.parse(raw);
    return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
function readEnvelope(bodyText) {
    let json;
    try {
        json = JSON.parse(bodyText);
    }
    catch {
        return undefined;
    }
    const parsed = ErrorEnvelope.safeParse(json);
    if (!parsed.success || parsed.data.error.code.trim() === '')
        return undefined;
    return parsed.data.error;
}
/**
 * THE builder for every non-2xx answer ("Errors": `{ error: { code, message, details? } }`).
 * A body that is not such an envelope (a proxy's HTML page, an empty 502) gives HTTP_ERROR
 * with the status; its text is not quoted, since it could echo anything, headers included.
 * `request` is `METHOD /path`; `nowMs` resolves an HTTP-date `Retry-After`.
 */
export function cloudErrorFromResponse(status, bodyText, headers, request, nowMs = Date.now()) {
    const retryAfterMs = parseRetryAfter(headers['retry-after'], nowMs);
    const envelope = readEnvelope(bodyText);
    const init = envelope
        ? {
            status,
            code: envelope.code,
            // An envelope without a message still has to render (provider notes: "unknown code").
            message: envelope.message?.trim().slice(0, MAX_MESSAGE_CHARS) || `The cloud API refused ${request} with ${envelope.code} (HTTP ${status})`,
            ...(envelope.details ? { details: envelope.details } : {}),
            request,
        }
        : {
            status,
            code: 'HTTP_ERROR',
            message: `The cloud API answered ${request} with HTTP ${status}${reason(status)} and no readable error body`,
            request,
        };
    if (retryAfterMs !== undefined)
        init.retryAfterMs = retryAfterMs;
    return new CloudApiError(init);
}
const REASONS = {
    400: 'Bad Request',
    401: 'Unauthorized',
    402: 'Payment Required',
    403: 'Forbidden',
    404: 'Not Found',
    409: 'Conflict',
    422: 'Unprocessable Content',
    429: 'Too Many Requests',
    500: 'Internal Server Error',
    502: 'Bad Gateway',
    503: 'Service Unavailable',
    504: 'Gateway Timeout',
};
function reason(status) {
    const text = REASONS[status];
    return text ? ` (${text})` : '';
}
/** A failure made on this side (LOCAL_ERROR_CODES), with status 0. */
export function localCloudError(code, message, extra = {}) {
    return new CloudApiError({ status: 0, code, message, ...extra });
}
/**
 * How a log line words a failed cloud call: only a refusal is "refused by the cloud"; a 404, an
 * unreachable cloud, a rate limit or the cloud's own failure say so (issue 14).
 */
export function cloudFailureLogWords(e) {
    if (e.status === 0)
        return e.code === 'INVALID_RESPONSE' ? 'got an unreadable answer from the cloud' : 'could not reach the cloud';
    if (e.status === 404)
        return 'not found at the cloud';
    if (e.status === 429)
        return 'rate limited by the cloud';
    if (e.status >= 500)
        return 'failed at the cloud';
    return 'refused by the cloud';
}
//# sourceMappingURL=errors.js.map