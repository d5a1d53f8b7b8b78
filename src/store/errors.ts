/**
 * The one error of the store boundary: the database could not be reached or stayed locked past
 * the wait budget. Both backends turn their drivers' errors into it (SQLite's SQLITE_BUSY /
 * SQLITE_LOCKED after the retry budget, PostgreSQL's lock and statement timeouts and lost
 * connections), so callers handle one type: tell the person with a reference, keep what must
 * not be lost, and never confuse it with a refusal (nothing was decided).
 */

/** Why: another connection held a lock past the budget, a statement ran too long, or the database is unreachable or broken. */
export type StoreFailureReason = 'locked' | 'timeout' | 'unreachable' | 'failed';

export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'STORE_UNAVAILABLE';

  constructor(
    readonly reason: StoreFailureReason,
    readonly backend: 'sqlite' | 'postgres',
    message: string,
    options: { cause?: unknown; waitedMs?: number } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    if (options.waitedMs !== undefined) this.waitedMs = options.waitedMs;
  }

  /** How long the store waited before giving up (the retry budget), when it waited. */
  waitedMs?: number;
}

export function isStoreUnavailable(e: unknown): e is StoreUnavailableError {
  return e instanceof StoreUnavailableError;
}
