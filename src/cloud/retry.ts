/**
 * When a failed attempt is tried again, and after how long. Pure: the transport feeds it
 * failures and waits with the injected clock.
 *
 * Which failures retry (spec "Limits": rate limits not shown; provider notes: 429 with
 * `Retry-After`):
 * - GET is safe and idempotent: retried on 429, 502, 503, 504, on network errors and on
 *   connect/headers/body timeouts — while attempts and the time budget last.
 * - POST, PATCH and DELETE are retried only on 429: the server refused before doing anything.
 *   Any other failure may have been processed (a 502 on a firewall change is
 *   HYPERVISOR_SYNC_FAILED: saved, not applied), so the caller decides.
 * - A server's `Retry-After` is waited exactly; otherwise full-jitter exponential backoff.
 */
import type { CloudApiError } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4. */
  maxAttempts?: number;
  /** No wait may end later than this long after the first attempt began. Default 8000 ms. */
  budgetMs?: number;
  /** Backoff ceiling of the first retry; doubles each time. Default 250 ms. */
  baseDelayMs?: number;
  /** Largest backoff ceiling. Default 2000 ms. */
  maxDelayMs?: number;
  /** Jitter source in [0, 1). Default Math.random. */
  random?: () => number;
}

export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 4,
  budgetMs: 8000,
  baseDelayMs: 250,
  maxDelayMs: 2000,
  random: Math.random,
});

export function resolveRetryPolicy(options: RetryOptions = {}): RetryPolicy {
  const p = { ...DEFAULT_RETRY, ...stripUndefined(options) };
  if (!Number.isInteger(p.maxAttempts) || p.maxAttempts < 1) throw new TypeError('retry.maxAttempts must be an integer ≥ 1');
  for (const key of ['budgetMs', 'baseDelayMs', 'maxDelayMs'] as const) {
    if (!Number.isFinite(p[key]) || p[key] < 0) throw new TypeError(`retry.${key} must be a number ≥ 0`);
  }
  return p;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const RETRYABLE_GET_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Whether `failure` may be tried again for `method`. `transient` is the transport's verdict on
 * a failure without a response (a refused connection is, a closed client is not).
 */
export function isRetryable(method: string, failure: CloudApiError, transient: boolean): boolean {
  if (failure.status === 429) return true;
  if (method !== 'GET') return false;
  if (failure.status === 0) return transient && (failure.code === 'NETWORK_ERROR' || failure.code === 'TIMEOUT');
  return RETRYABLE_GET_STATUSES.has(failure.status);
}

/** Full jitter: uniform in [0, min(max, base · 2^(retry−1))) (AWS Architecture Blog). */
export function backoffDelay(retry: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(Math.min(0.999_999, Math.max(0, policy.random())) * ceiling);
}

export type RetryDecision =
  | { retry: true; delayMs: number }
  | { retry: false; reason: 'not-retryable' | 'attempts' | 'budget' | 'retry-after-beyond-budget' };

/**
 * Decides after the `attempt`-th failure, `elapsedMs` after the first attempt began.
 */
export function decideRetry(args: {
  method: string;
  failure: CloudApiError;
  transient: boolean;
  attempt: number;
  elapsedMs: number;
  policy: RetryPolicy;
}): RetryDecision {
  const { method, failure, transient, attempt, elapsedMs, policy } = args;
  if (!isRetryable(method, failure, transient)) return { retry: false, reason: 'not-retryable' };
  if (attempt >= policy.maxAttempts) return { retry: false, reason: 'attempts' };
  const told = failure.retryAfterMs;
  const delayMs = told ?? backoffDelay(attempt, policy);
  if (elapsedMs + delayMs > policy.budgetMs) {
    return { retry: false, reason: told === undefined ? 'budget' : 'retry-after-beyond-budget' };
  }
  return { retry: true, delayMs };
}
