export const DEFAULT_RETRY = Object.freeze({
    maxAttempts: 4,
    budgetMs: 8000,
    baseDelayMs: 250,
    maxDelayMs: 2000,
    random: Math.random,
});
export function resolveRetryPolicy(options = {}) {
    const p = { ...DEFAULT_RETRY, ...stripUndefined(options) };
    if (!Number.isInteger(p.maxAttempts) || p.maxAttempts < 1)
        throw new TypeError('retry.maxAttempts must be an integer ≥ 1');
    for (const key of ['budgetMs', 'baseDelayMs', 'maxDelayMs']) {
        if (!Number.isFinite(p[key]) || p[key] < 0)
            throw new TypeError(`retry.${key} must be a number ≥ 0`);
    }
    return p;
}
function stripUndefined(o) {
    return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
const RETRYABLE_GET_STATUSES = new Set([429, 502, 503, 504]);
/**
 * Whether `failure` may be tried again for `method`. `transient` is the transport's verdict on
 * a failure without a response (a refused connection is, a closed client is not).
 */
export function isRetryable(method, failure, transient) {
    if (failure.status === 429)
        return true;
    if (method !== 'GET')
        return false;
    if (failure.status === 0)
        return transient && (failure.code === 'NETWORK_ERROR' || failure.code === 'TIMEOUT');
    return RETRYABLE_GET_STATUSES.has(failure.status);
}
/** Full jitter: uniform in [0, min(max, base · 2^(retry−1))) (AWS Architecture Blog). */
export function backoffDelay(retry, policy) {
    const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
    return Math.floor(Math.min(0.999_999, Math.max(0, policy.random())) * ceiling);
}
/**
 * Decides after the `attempt`-th failure, `elapsedMs` after the first attempt began.
 */
export function decideRetry(args) {
    const { method, failure, transient, attempt, elapsedMs, policy } = args;
    if (!isRetryable(method, failure, transient))
        return { retry: false, reason: 'not-retryable' };
    if (attempt >= policy.maxAttempts)
        return { retry: false, reason: 'attempts' };
    const told = failure.retryAfterMs;
    const delayMs = told ?? backoffDelay(attempt, policy);
    if (elapsedMs + delayMs > policy.budgetMs) {
        return { retry: false, reason: told === undefined ? 'budget' : 'retry-after-beyond-budget' };
    }
    return { retry: true, delayMs };
}
//# sourceMappingURL=retry.js.map