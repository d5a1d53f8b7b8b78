/**
 * The cloud's failure of a change, as its record keeps it (confirm/execute.ts): code, message,
 * HTTP status, details, and when the cloud's Retry-After ends. Every view that tells a failed
 * change (its status message, a workflow step's error) reads it back here, so each says the same.
 */
import { CloudApiError } from '../cloud/errors.js';
import type { OperationRecord } from '../store/types.js';

export function recordFailure(record: OperationRecord, now: number): CloudApiError | undefined {
  if (record.status !== 'failed' || !record.errorCode) return undefined;
  const result = record.result;
  return new CloudApiError({
    // Stored with the outcome since it was kept (older records: 0, "no HTTP answer").
    status: typeof result?.errorStatus === 'number' ? result.errorStatus : 0,
    code: record.errorCode,
    message: record.errorMessage ?? '',
    ...(result?.errorDetails ? { details: result.errorDetails as Record<string, unknown> } : {}),
    // The cloud's Retry-After, kept as a time: what is left of it now.
    ...(typeof result?.errorRetryAt === 'number' ? { retryAfterMs: Math.max(0, result.errorRetryAt - now) } : {}),
  });
}
