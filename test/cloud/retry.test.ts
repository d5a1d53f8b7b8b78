/** retry.ts: which failures retry, backoff, budget. */
import { describe, expect, it } from 'vitest';
import { CloudApiError } from '../../src/cloud/errors.js';
import { DEFAULT_RETRY, backoffDelay, decideRetry, isRetryable, resolveRetryPolicy } from '../../src/cloud/retry.js';

const err = (status: number, code = 'X', retryAfterMs?: number) =>
  new CloudApiError({ status, code, message: 'm', ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

describe('isRetryable', () => {
  it.each([
    ['GET', err(429), false, true],
    ['GET', err(502), false, true],
    ['GET', err(503), false, true],
    ['GET', err(504), false, true],
    ['GET', err(500), false, false],
    ['GET', err(404), false, false],
    ['GET', err(401), false, false],
    ['GET', err(0, 'NETWORK_ERROR'), true, true],
    ['GET', err(0, 'TIMEOUT'), true, true],
    ['GET', err(0, 'NETWORK_ERROR'), false, false], // e.g. the client was closed
    ['GET', err(0, 'INVALID_RESPONSE'), false, false],
    ['POST', err(429), false, true],
    ['PATCH', err(429), false, true],
    ['DELETE', err(429), false, true],
    ['POST', err(503), false, false],
    ['POST', err(502, 'HYPERVISOR_SYNC_FAILED'), false, false],
    ['DELETE', err(0, 'NETWORK_ERROR'), true, false],
    ['PATCH', err(0, 'TIMEOUT'), true, false],
  ] as const)('%s after %o (transient %s) → %s', (method, failure, transient, expected) => {
    expect(isRetryable(method, failure, transient)).toBe(expected);
  });
});

describe('backoffDelay', () => {
  it('is full jitter under a doubling, capped ceiling', () => {
    const policy = resolveRetryPolicy({ random: () => 0.999999, baseDelayMs: 100, maxDelayMs: 500 });
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, policy))).toEqual([99, 199, 399, 499, 499]);
    const zero = resolveRetryPolicy({ random: () => 0 });
    expect(backoffDelay(3, zero)).toBe(0);
    const broken = resolveRetryPolicy({ random: () => 7 });
    expect(backoffDelay(1, broken)).toBeLessThan(DEFAULT_RETRY.baseDelayMs);
  });
});

describe('decideRetry', () => {
  const policy = resolveRetryPolicy({ random: () => 0.5, budgetMs: 1000, maxAttempts: 3 });
  const base = { method: 'GET', transient: true, policy };

  it('retries with backoff, or with Retry-After when given', () => {
    expect(decideRetry({ ...base, failure: err(503), attempt: 1, elapsedMs: 0 })).toEqual({ retry: true, delayMs: 125 });
    expect(decideRetry({ ...base, failure: err(429, 'R', 900), attempt: 1, elapsedMs: 0 })).toEqual({ retry: true, delayMs: 900 });
  });

  it('stops for the attempts limit, the budget, and a Retry-After beyond it', () => {
    expect(decideRetry({ ...base, failure: err(503), attempt: 3, elapsedMs: 0 })).toEqual({ retry: false, reason: 'attempts' });
    expect(decideRetry({ ...base, failure: err(503), attempt: 1, elapsedMs: 900 })).toEqual({ retry: false, reason: 'budget' });
    expect(decideRetry({ ...base, failure: err(429, 'R', 2000), attempt: 1, elapsedMs: 0 })).toEqual({
      retry: false,
      reason: 'retry-after-beyond-budget',
    });
    expect(decideRetry({ ...base, method: 'POST', failure: err(503), attempt: 1, elapsedMs: 0 })).toEqual({
      retry: false,
      reason: 'not-retryable',
    });
  });
});

describe('resolveRetryPolicy', () => {
  it('fills defaults and refuses nonsense', () => {
    expect(resolveRetryPolicy({ maxAttempts: undefined })).toMatchObject({ maxAttempts: 4, budgetMs: 8000, baseDelayMs: 250, maxDelayMs: 2000 });
    expect(() => resolveRetryPolicy({ maxAttempts: 0 })).toThrow(TypeError);
    expect(() => resolveRetryPolicy({ budgetMs: -1 })).toThrow(TypeError);
    expect(() => resolveRetryPolicy({ baseDelayMs: Number.NaN })).toThrow(TypeError);
  });
});
