/**
 * Keeps the API token ("Authentication") out of everything a caller can see. The transport
 * already cuts it from response bodies and undici messages; `guardGroup` is the last line at
 * the client's edge, for what comes from elsewhere (a user pasting the token as a server id,
 * which INVALID_IDENTIFIER quotes back).
 */
import { CloudApiError } from './errors.js';
export const REDACTED = '[redacted]';
/**
 * A run of at least this many characters of a longer secret is cut as well: a quoted value is
 * shortened to 40 characters (ids.ts `shown`), and an echo may be truncated.
 */
const MIN_FRAGMENT = 12;
export function redact(text, secret) {
    if (secret === '')
        return text;
    const whole = text.split(secret).join(REDACTED);
    return secret.length <= MIN_FRAGMENT ? whole : redactFragments(whole, secret);
}
function redactFragments(text, secret) {
    const windows = new Set();
    for (let i = 0; i + MIN_FRAGMENT <= secret.length; i++)
        windows.add(secret.slice(i, i + MIN_FRAGMENT));
    let out = '';
    let i = 0;
    while (i < text.length) {
        if (!windows.has(text.slice(i, i + MIN_FRAGMENT))) {
            out += text[i];
            i += 1;
            continue;
        }
        let end = i + MIN_FRAGMENT;
        while (end < text.length && secret.includes(text.slice(i, end + 1)))
            end += 1;
        out += REDACTED;
        i = end;
    }
    return out;
}
function redactDeep(value, secret) {
    if (typeof value === 'string')
        return redact(value, secret);
    if (Array.isArray(value))
        return value.map((v) => redactDeep(v, secret));
    if (value !== null && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, secret), redactDeep(v, secret)]));
    }
    return value;
}
/** The same error, or a copy without the secret when any part of it held it. */
export function scrubError(e, secret) {
    if (!(e instanceof CloudApiError) || secret === '')
        return e;
    const parts = JSON.stringify([e.message, e.details ?? null, e.request ?? null, String(e.cause ?? '')]);
    if (redact(parts, secret) === parts)
        return e;
    return new CloudApiError({
        status: e.status,
        code: e.code,
        message: redact(e.message, secret),
        ...(e.details === undefined ? {} : { details: redactDeep(e.details, secret) }),
        ...(e.retryAfterMs === undefined ? {} : { retryAfterMs: e.retryAfterMs }),
        ...(e.request === undefined ? {} : { request: redact(e.request, secret) }),
    });
}
async function* guardIterable(source, secret) {
    try {
        yield* source;
    }
    catch (e) {
        throw scrubError(e, secret);
    }
}
/** Wraps every method of a resource group so its rejections pass `scrubError`. */
export function guardGroup(group, secret) {
    const out = {};
    for (const [name, member] of Object.entries(group)) {
        if (typeof member !== 'function') {
            out[name] = member;
            continue;
        }
        out[name] = (...args) => {
            const result = member(...args);
            if (result instanceof Promise)
                return result.catch((e) => Promise.reject(scrubError(e, secret)));
            if (result !== null && typeof result === 'object' && Symbol.asyncIterator in result) {
                return guardIterable(result, secret);
            }
            return result;
        };
    }
    return out;
}
//# sourceMappingURL=redaction.js.map