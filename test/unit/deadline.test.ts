/** startDeadline: aborts as AbortSignal.timeout does (a TimeoutError), unless cleared first. On fake timers: no real waiting. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startDeadline } from '../../src/deadline.js';
import { transportFailure } from '../../src/cloud/transport-failures.js';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('startDeadline', () => {
  it('aborts with a TimeoutError when the time is up, and not before', () => {
    const d = startDeadline(5000);
    vi.advanceTimersByTime(4999);
    expect(d.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as Error).name).toBe('TimeoutError');
    expect(d.signal.reason).toBeInstanceOf(DOMException);
  });

  it('cleared, it never aborts', () => {
    const d = startDeadline(5000);
    d.clear();
    vi.advanceTimersByTime(60_000);
    expect(d.signal.aborted).toBe(false);
  });

  it('the cloud client reads its abort as a timeout, as it read AbortSignal.timeout', () => {
    const d = startDeadline(10);
    vi.advanceTimersByTime(10);
    const failure = transportFailure(new DOMException('aborted', 'AbortError'), 'GET /servers/101', 'token-0123456789', d.signal);
    expect(failure.error.code).toBe('TIMEOUT');
  });
});
