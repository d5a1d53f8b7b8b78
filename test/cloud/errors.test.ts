/** errors.ts: the one builder of errors from non-2xx responses, and Retry-After. */
import { describe, expect, it } from 'vitest';
import { CloudApiError, cloudErrorFromResponse, parseRetryAfter } from '../../src/cloud/errors.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const envelope = (error: unknown) => JSON.stringify({ error });

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['3', 3000],
    ['120', 120_000],
    [' 7 ', 7000],
    ['1.5', 1500],
    [['4', '9'], 4000],
    ['Sun, 22 Nov 2026 12:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 11:00:00 GMT', 0], // in the past: now
  ] as const)('%j → %j ms', (value, ms) => {
    expect(parseRetryAfter(value as string | string[], NOW)).toBe(ms);
  });

  it.each([undefined, '', '-1', 'soon', '5 minutes', 'Sun, 99 Foo 2026 nonsense'])('%j → undefined', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });
});

describe('cloudErrorFromResponse', () => {
  it('reads code, message and details from the envelope', () => {
    const err = cloudErrorFromResponse(
      422,
      envelope({ code: 'VALIDATION_ERROR', message: 'Invalid.', details: { name: ['required'], quantity: 'min 1' } }),
      {},
      'POST /workers',
      NOW,
    );
    expect(err).toBeInstanceOf(CloudApiError);
    expect(err).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', message: 'Invalid.', request: 'POST /workers' });
    expect(err.fieldErrors()).toEqual({ name: ['required'], quantity: ['min 1'] });
  });

  it('attaches retryAfterMs from seconds or a date', () => {
    const body = envelope({ code: 'RATE_LIMITED', message: 'Too many requests' });
    expect(cloudErrorFromResponse(429, body, { 'retry-after': '5' }, 'GET /plans', NOW).retryAfterMs).toBe(5000);
    expect(cloudErrorFromResponse(503, '', { 'retry-after': 'Sun, 22 Nov 2026 12:01:00 GMT' }, 'GET /plans', NOW).retryAfterMs).toBe(60_000);
    expect(cloudErrorFromResponse(429, body, {}, 'GET /plans', NOW).retryAfterMs).toBeUndefined();
  });

  it.each([
    ['empty', ''],
    ['html', '<html>Bad gateway</html>'],
    ['json without error', '{"message":"x"}'],
    ['error not an object', '{"error":"boom"}'],
    ['code missing', '{"error":{"message":"x"}}'],
    ['code empty', '{"error":{"code":"","message":"x"}}'],
    ['code not a string', '{"error":{"code":5,"message":"x"}}'],
    ['null', 'null'],
  ])('unreadable body (%s) → HTTP_ERROR with the status', (_, body) => {
    const err = cloudErrorFromResponse(502, body, {}, 'GET /account/usage', NOW);
    expect(err).toMatchObject({ status: 502, code: 'HTTP_ERROR', request: 'GET /account/usage' });
    expect(err.message).toBe('The cloud API answered GET /account/usage with HTTP 502 (Bad Gateway) and no readable error body');
  });

  it('tolerates a null message or details and caps long messages', () => {
    const a = cloudErrorFromResponse(404, envelope({ code: 'NOT_FOUND', message: null, details: null }), {}, 'GET /ssh-keys', NOW);
    expect(a).toMatchObject({ code: 'NOT_FOUND', message: 'The cloud API refused GET /ssh-keys with NOT_FOUND (HTTP 404)' });
    expect(a.details).toBeUndefined();
    const b = cloudErrorFromResponse(500, envelope({ code: 'X', message: 'm'.repeat(2000) }), {}, 'GET /x', NOW);
    expect(b.message).toHaveLength(500);
  });
});
