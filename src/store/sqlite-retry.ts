/**
 * Waiting for SQLite's write lock without stalling the event loop. better-sqlite3 is
 * synchronous: its busy timeout sleeps the whole process. So the driver waits only a few ms,
 * and a statement that meets SQLITE_BUSY / SQLITE_LOCKED is tried again after an async pause
 * (10 ms doubling to 200 ms) until a budget (2 s) runs out; then StoreUnavailableError.
 * One runner serves every statement: `retryingMethods` wraps each method of a store with it.
 */
import { StoreUnavailableError } from './errors.js';

export interface LockRetryOptions {
  /** Total wait for a lock before giving up (default 2000 ms). */
  budgetMs?: number;
  /** First pause (default 10 ms); each next one doubles, up to maxDelayMs. */
  firstDelayMs?: number;
  /** Longest pause (default 200 ms). */
  maxDelayMs?: number;
  /** The pause itself: real timers by default (a driver-level wait); tests inject their own. */
  sleep?: (ms: number) => Promise<void>;
  /** Measures the budget (default performance.now). */
  now?: () => number;
}

export const LOCK_BUDGET_MS = 2000;

/** Runs one unit of store work (a statement or a transaction), retrying it while the database is locked. */
export type StoreRunner = <T>(work: () => T | Promise<T>) => Promise<T>;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** 'busy': another connection holds a lock (worth waiting); 'failed': the file cannot serve; undefined: not a store failure. */
export function sqliteFailure(e: unknown): 'busy' | 'failed' | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return undefined;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'busy';
  if (/^SQLITE_(IOERR|FULL|CANTOPEN|READONLY|CORRUPT|NOTADB|NOMEM|PROTOCOL)/.test(code)) return 'failed';
  return undefined;
}

export function createLockRetry(options: LockRetryOptions = {}): StoreRunner {
  const budget = options.budgetMs ?? LOCK_BUDGET_MS;
  const first = Math.max(1, options.firstDelayMs ?? 10);
  const max = Math.max(first, options.maxDelayMs ?? 200);
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? (() => performance.now());

  return async <T>(work: () => T | Promise<T>): Promise<T> => {
    const started = now();
    let delay = first;
    for (;;) {
      try {
        return await work();
      } catch (e) {
        const failure = sqliteFailure(e);
        if (failure === undefined) throw e;
        const waited = now() - started;
        const code = String((e as { code?: unknown }).code);
        if (failure === 'failed') {
          throw new StoreUnavailableError('failed', 'sqlite', `The SQLite database cannot serve (${code})`, { cause: e });
        }
        if (waited + delay > budget) {
          throw new StoreUnavailableError('locked', 'sqlite', `The SQLite database stayed locked by another connection for ${Math.round(waited)} ms (${code})`, {
            cause: e,
            waitedMs: Math.round(waited),
          });
        }
        await sleep(delay);
        delay = Math.min(delay * 2, max);
      }
    }
  };
}

/**
 * The same object with each method run through `run`. Each method of a SQLite store is one
 * atomic unit (one statement, or one transaction that rolls back when it fails), so trying it
 * again after SQLITE_BUSY repeats nothing that took effect.
 */
export function retryingMethods<T extends object>(target: T, run: StoreRunner): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(target)) {
    out[key] = typeof value === 'function' ? (...args: unknown[]) => run(() => (value as (...a: unknown[]) => unknown).apply(target, args)) : value;
  }
  return out as T;
}
