/**
 * A deadline as an AbortSignal that the caller ends when the work is done: one AbortController
 * and one unref'd timer, cleared at the end. It aborts as `AbortSignal.timeout` does, with a
 * `TimeoutError` DOMException (cloud/transport-failures.ts reads that name as TIMEOUT), but
 * costs a few microseconds where `AbortSignal.timeout` costs ~11 µs and a finalizer for the
 * garbage collector: every command made two or three (issue 22's CPU profile).
 */
export interface Deadline {
  readonly signal: AbortSignal;
  /** The work ended: the timer goes (aborting nothing). */
  clear(): void;
}

export function startDeadline(ms: number): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms);
  timer.unref();
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
