/**
 * The global request budget: one token bucket shared by everything that polls the cloud (the
 * watcher and the monitor), so however many watches and subscriptions there are, the bot stays
 * within REQUESTS_PER_MINUTE of the provider's API.
 *
 * - Tokens refill at `perMinute / 60` per second up to `burst`. In any window of T ms at most
 *   `burst + perMinute * T / 60 000` requests go out: over a minute, `perMinute` on average.
 * - `burst` defaults to five seconds' worth of requests (at least 1): enough that a poll pass
 *   over several resources is not serialised, small enough that a pass cannot spend the
 *   minute's budget at once. The bucket starts full.
 * - Waiters are served first come, first served; an aborted waiter leaves the queue at once
 *   (its promise rejects with the signal's reason) and costs no token.
 * - `pause(ms)` (a 429's Retry-After) holds every take until then; afterwards one request may
 *   go at once (if the pause was long enough to earn it) and the rest at the steady rate, not a burst into a provider that just said
 *   "slow down".
 *
 * All timing goes through the injected clock.
 */
import type { Clock } from '../clock.js';

export interface RequestBudget {
  /** Resolves when a request may be sent (one token spent); rejects if `signal` aborts first. */
  take(signal?: AbortSignal): Promise<void>;
  /** Nothing goes out for `ms` from now (extends, never shortens, a pause already set). */
  pause(ms: number): void;
  readonly perMinute: number;
  /** Requests granted, and the total time waiters spent waiting for them. */
  stats(): { taken: number; waitedMs: number };
}

export interface RequestBudgetOptions {
  perMinute: number;
  clock: Clock;
  /** Most requests that may go out back to back (default: 5 s worth, at least 1). */
  burst?: number;
}

interface Waiter {
  since: number;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/** Floating-point slack: a bucket refilled for exactly the computed time counts as full. */
const EPSILON = 1e-9;

export function defaultBurst(perMinute: number): number {
  return Math.max(1, Math.floor((perMinute / 60) * 5));
}

export function createRequestBudget(opts: RequestBudgetOptions): RequestBudget {
  const { clock, perMinute } = opts;
  if (!(perMinute > 0) || !Number.isFinite(perMinute)) throw new RangeError(`perMinute must be a positive number, got ${perMinute}`);
  const burst = opts.burst ?? defaultBurst(perMinute);
  if (!(burst >= 1)) throw new RangeError(`burst must be at least 1, got ${burst}`);
  const perMs = perMinute / 60_000;
  let tokens = burst;
  let refilledAt = clock.now();
  let pausedUntil = 0;
  let taken = 0;
  let waitedMs = 0;
  const queue: Waiter[] = [];
  let pumping = false;

  const refill = () => {
    const now = clock.now();
    if (now > refilledAt) {
      tokens = Math.min(burst, tokens + (now - refilledAt) * perMs);
      refilledAt = now;
    }
  };
  /** Spends a token if one is there and no pause holds; false otherwise. */
  const trySpend = (): boolean => {
    if (clock.now() < pausedUntil) return false;
    refill();
    if (tokens < 1 - EPSILON) return false;
    tokens = Math.max(0, tokens - 1);
    taken++;
    return true;
  };
  /** Milliseconds until the head of the queue could go. */
  const waitMs = (): number => {
    const now = clock.now();
    if (now < pausedUntil) return pausedUntil - now;
    return Math.max(1, Math.ceil((1 - tokens) / perMs));
  };

  // One loop serves the queue in order; it runs only while someone waits.
  async function pump(): Promise<void> {
    pumping = true;
    try {
      while (queue.length > 0) {
        if (trySpend()) {
          const w = queue.shift()!;
          if (w.signal && w.onAbort) w.signal.removeEventListener('abort', w.onAbort);
          waitedMs += clock.now() - w.since;
          w.resolve();
          continue;
        }
        await clock.sleep(waitMs());
      }
    } finally {
      pumping = false;
    }
  }

  return {
    perMinute,
    take(signal) {
      if (signal?.aborted) return Promise.reject(signal.reason);
      // Nobody ahead: go now if the bucket allows (FIFO holds, the queue is empty).
      if (queue.length === 0 && trySpend()) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w: Waiter = { since: clock.now(), resolve, reject };
        if (signal) {
          w.signal = signal;
          w.onAbort = () => {
            const i = queue.indexOf(w);
            if (i >= 0) queue.splice(i, 1);
            reject(signal.reason);
          };
          signal.addEventListener('abort', w.onAbort, { once: true });
        }
        queue.push(w);
        if (!pumping) void pump();
      });
    },
    pause(ms) {
      const until = clock.now() + Math.max(0, ms);
      if (until <= pausedUntil) return;
      refill();
      pausedUntil = until;
      // What accrues during the pause is capped at one request: that one may go the moment
      // the pause ends, the rest follow at the steady rate.
      tokens = Math.min(1, tokens + (until - Math.max(clock.now(), refilledAt)) * perMs);
      refilledAt = until;
    },
    stats: () => ({ taken, waitedMs }),
  };
}
