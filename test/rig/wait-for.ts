/** Bounded polling for work an app does after it has acked (posting, editing, opening views). */

export interface WaitForOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Shown in the timeout error. */
  message?: string;
}

/**
 * Polls `fn` until it returns a value other than undefined/false/null (or stops throwing),
 * and returns that value. Throws the last error, or a timeout error, after `timeoutMs`.
 */
export async function waitFor<T>(fn: () => T | Promise<T>, options: WaitForOptions = {}): Promise<Exclude<T, undefined | null | false>> {
  const { timeoutMs = 2000, intervalMs = 10 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      if (lastError instanceof Error) throw lastError;
      throw new Error(`waitFor timed out after ${timeoutMs} ms${options.message ? `: ${options.message}` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
