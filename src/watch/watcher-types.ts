/**
 * The watcher's shapes: what it runs on, what starts a watch, and what it offers (watcher.ts
 * builds it). Kept apart so the engine's file holds the engine.
 */
import type { RequestBudget } from '../cloud/request-budget.js';
import type { WatchKind, WatchRecord } from '../store/watch-store.js';
import type { WatchKinds } from '../operations/watch-kinds.js';
import type { Limiter } from './limit.js';
import type { BroadcastPolicy, FinalPostDeps } from './final-post.js';
import type { AccountDeps } from '../cloud/accounts.js';

/**
 * `cloudFor` gives the watcher's own client of a watch's account; the store, clock, logger,
 * Slack, account label and the credential check are the final post's (final-post.ts).
 */
export interface WatcherDeps extends AccountDeps, FinalPostDeps {
  /** Re-renders the thread's parent message for a watch (the change's status, or the watch's own). */
  refreshParent: (w: WatchRecord) => Promise<void>;
  /** Base poll interval (WATCH_INTERVAL_MS; default 10 s). */
  intervalMs?: number;
  /** Ceiling of the backoff after transient errors (default 6 × the base). */
  maxIntervalMs?: number;
  /** The request budget shared with the monitor: every poll first takes from it. */
  budget?: RequestBudget;
  broadcast?: BroadcastPolicy;
  /** Concurrent cloud calls the watcher may make (default 4). */
  concurrency?: number;
  deadlines?: Partial<Record<WatchKind, number>>;
  /** What each kind polls and says (the catalog's `watchKinds`; default the built-in ones). */
  kinds?: WatchKinds;
  /** Runs one poll (of one resource, for its watches) inside its trace span (issue 24). */
  tracePoll?: <T>(watches: WatchRecord[], poll: () => Promise<T>) => Promise<T>;
  /** This replica's name in watch leases (default: a fresh random one per watcher). */
  owner?: string;
  /**
   * How long a claimed watch stays this replica's (default the larger of 30 s and 3 × the base
   * interval): a dead replica's watches are taken over within it. Keep it well above the Slack
   * call timeout, or a final post still in flight could be made again by the new holder.
   */
  leaseMs?: number;
  /** At most this many watches claimed per pass (default 500). */
  batch?: number;
}

export interface StartWatch {
  kind: WatchKind;
  resource: string;
  /** The account it lives in; remembered across restarts. */
  account?: string | null;
  channelId: string;
  threadTs: string | null;
  requestedBy: string;
  operationId?: string | null;
  /**
   * Stored at once, polled only once `begin` is called or one lease has passed: a change records
   * its watch as soon as the cloud took it (so a stop cannot lose it) and begins it once its own
   * final edit of the message is through (the watch edits the same message). The lease is
   * already kept above a Slack call's time, so a held watch starts early only when the process
   * that held it stopped.
   */
  held?: boolean;
}

export interface Watcher {
  /** This replica's name in the watches' leases. */
  readonly owner: string;
  watch(input: StartWatch): Promise<WatchRecord>;
  /** A held watch (`held`) is due now. */
  begin(id: string): Promise<void>;
  /** One pass over what is due (the loop calls it; tests call it with a manual clock). */
  tick(): Promise<void>;
  start(): void;
  /** Finishes the poll in flight, then stops. */
  stop(): Promise<void>;
  cancel(id: string, userId: string): Promise<WatchRecord | undefined>;
  keepWatching(id: string): Promise<WatchRecord | undefined>;
  /** The watch as stored (what a click on its button is checked against). */
  get(id: string): Promise<WatchRecord | undefined>;
  limiter: Limiter;
  /** Milliseconds from the base interval's last poll to the next due time, for tests. */
  nextDueIn(): Promise<number | undefined>;
}
