/**
 * Time, injected wherever it matters, so tests and the sandbox's lifecycles never wait for
 * the wall clock.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms` of this clock's time; rejects with the signal's reason if aborted first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/**
 * A clock that moves only when told. `sleep` resolves once `advance` passes its deadline,
 * so code that backs off can be tested without real waiting.
 */
export interface ManualClock extends Clock {
  advance(ms: number): Promise<void>;
  set(epochMs: number): void;
  /** Number of sleeps waiting right now (lets a test wait until code is parked). */
  pendingSleeps(): number;
}

export function createManualClock(startMs = Date.parse('2026-11-22T12:00:00Z')): ManualClock {
  let now = startMs;
  let sleepers: { until: number; resolve: () => void }[] = [];
  const wake = () => {
    const due = sleepers.filter((s) => s.until <= now);
    sleepers = sleepers.filter((s) => s.until > now);
    for (const s of due) s.resolve();
  };
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const onAbort = () => {
          sleepers = sleepers.filter((s) => s !== sleeper);
          reject(signal!.reason);
        };
        // Woken, it takes its listener off: a loop that passes one long-lived signal (the
        // runtime's stop) to every sleep would otherwise add one per pass for good.
        const sleeper = {
          until: now + Math.max(0, ms),
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
        };
        sleepers.push(sleeper);
        signal?.addEventListener('abort', onAbort, { once: true });
        if (ms <= 0) wake();
      });
    },
    async advance(ms) {
      const target = now + ms;
      // Step through deadlines in order so chained sleeps each see their own moment.
      for (;;) {
        const next = sleepers.filter((s) => s.until <= target).sort((a, b) => a.until - b.until)[0];
        if (!next) break;
        now = Math.max(now, next.until);
        wake();
        // Let woken code run (and possibly sleep again) before moving on.
        await new Promise((r) => setImmediate(r));
      }
      now = target;
      wake();
      await new Promise((r) => setImmediate(r));
    },
    set(epochMs) {
      now = epochMs;
      wake();
    },
    pendingSleeps: () => sleepers.length,
  };
}
