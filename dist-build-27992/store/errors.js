/**
 * The one error of the store boundary: the database could not be reached or stayed locked past
 * the wait budget. Both backends turn their drivers' errors into it (SQLite's SQLITE_BUSY /
 * SQLITE_LOCKED after the retry budget, PostgreSQL's lock and statement timeouts and lost
 * connections), so callers handle one type: tell the person with a reference, keep what must
 * not be lost, and never confuse it with a refusal (nothing was decided).
 */
export class StoreUnavailableError extends Error {
    reason;
    backend;
    name = 'StoreUnavailableError';
    code = 'STORE_UNAVAILABLE';
    constructor(reason, backend, message, options = {}) {
        super(message, options.cause === undefined ? undefined : { cause: options.cause });
        this.reason = reason;
        this.backend = backend;
        if (options.waitedMs !== undefined)
            this.waitedMs = options.waitedMs;
    }
    /** How long the store waited before giving up (the retry budget), when it waited. */
    waitedMs;
}
export function isStoreUnavailable(e) {
    return e instanceof StoreUnavailableError;
}
//# sourceMappingURL=errors.js.map