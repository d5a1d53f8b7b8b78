/**
 * PostgreSQL's failures that mean "the store cannot answer now", as the store's one error
 * type: a lock or statement timeout (the session options set in pool.ts), a server shutting
 * down or refusing connections, and a lost or unopenable connection. Anything else (a
 * constraint, a bug in a statement) passes through as it is.
 */
import { StoreUnavailableError } from '../errors.js';
/** SQLSTATEs: 55P03 lock_not_available (lock_timeout), 57014 query_canceled (statement_timeout). */
const BY_SQLSTATE = {
    '55P03': 'locked',
    '57014': 'timeout',
    '40P01': 'locked', // deadlock_detected: nothing was applied
    '53300': 'unreachable', // too_many_connections
    '57P01': 'unreachable', // admin_shutdown
    '57P02': 'unreachable', // crash_shutdown
    '57P03': 'unreachable', // cannot_connect_now
};
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** pg and pg-pool say these without a code. */
const LOST = /timeout exceeded when trying to connect|Connection terminated|connection error and is not queryable|Client was closed and is not queryable/i;
export function pgFailure(e) {
    if (e instanceof StoreUnavailableError)
        return e.reason;
    const err = e;
    const code = typeof err?.code === 'string' ? err.code : '';
    if (BY_SQLSTATE[code])
        return BY_SQLSTATE[code];
    if (code.startsWith('08'))
        return 'unreachable'; // connection_exception class
    if (NETWORK_CODES.has(code))
        return 'unreachable';
    if (typeof err?.message === 'string' && LOST.test(err.message))
        return 'unreachable';
    // pool.ts's query_timeout: the server did not answer at all (a silent network, a stalled server).
    if (typeof err?.message === 'string' && /^Query read timeout$/.test(err.message))
        return 'timeout';
    return undefined;
}
/** The store's error for a PostgreSQL failure that means unavailability; otherwise `e` itself. */
export function toStoreError(e) {
    if (e instanceof StoreUnavailableError)
        return e;
    const reason = pgFailure(e);
    if (!reason)
        return e;
    const code = e?.code;
    const what = e instanceof Error ? e.message : String(e);
    return new StoreUnavailableError(reason, 'postgres', `PostgreSQL cannot answer now: ${what}${typeof code === 'string' ? ` (${code})` : ''}`, { cause: e });
}
//# sourceMappingURL=pg-errors.js.map