/**
 * The watch-scale section's result (bench/watch-scale.ts) and the per-watch accounting it is
 * built from: each build's thread posts checked against the sandbox's two state changes
 * (queued → in_progress at 20 % of the build, then the end at 100 %).
 */
import type { WatchRecord } from '../../src/store/index.js';
import type { Summary } from './stats.js';

export interface WatchScaleResult {
  /** Where the watches live. */
  store: 'sqlite' | 'postgres';
  watches: number;
  finished: number;
  succeeded: number;
  failed: number;
  otherEnds: number;
  baseIntervalMs: number;
  cap: number;
  simulatedMs: number;
  steps: number;
  stepMs: number;
  buildMs: { min: number; max: number };
  /** Cloud requests (status polls) per finished watch, and the bound duration / interval + 2. */
  requestsPerWatch: { mean: number; max: number; boundMean: number; maxShareOfBound: number; overBound: number; total: number };
  peak: { limiter: number; transport: number; server: number };
  /** Simulated ms from the sandbox's state change to the watcher's thread post. */
  delayMs: { all: Summary; progress: Summary; final: Summary };
  slack: { perWatch: number; threadPostsPerWatch: number; updatesPerWatch: number; ephemerals: number; parentPosts: number; calls: number };
  /** Posts not backed by a real state change (duplicates, early posts, a second final): must be 0. */
  postsWithoutChange: number;
  /** Builds whose in_progress phase the watcher saw (a progress post) vs skipped over. */
  progressSeen: number;
  /** Event-loop delay: how late a 10 ms timer fired (the histogram's raw values minus the 10 ms). */
  eventLoop: { resolutionMs: number; p50Ms: number; p99Ms: number; maxMs: number; rawP99Ms: number };
  tickMs: { p50: number; p99: number; max: number };
  rss: { startMb: number; peakMb: number; endMb: number; afterGcMb: number | null };
  heapPeakMb: number;
  /** Heap still in use after a full GC at the end (null without --expose-gc). */
  heapAfterGcMb: number | null;
  /** Node flags of this run (e.g. the start script's heap cap, for the compiled runs). */
  nodeFlags: string[];
  logLines: number;
  wallMs: number;
}

export interface Build {
  uuid: string;
  deployAt: number;
  startedAt: number;
  buildMs: number;
  fails: boolean;
  inProgressAt: number;
  doneAt: number;
  watchId: string;
  threadTs: string;
}

export interface ThreadPost {
  threadTs: string;
  at: number;
  text: string;
  broadcast: boolean;
}

/**
 * Per-watch figures: delays from each real change to its post, requests against the bound
 * (duration ÷ interval + 2), and every post not backed by a change.
 */
export async function accountWatches(
  builds: readonly Build[],
  postsByThread: ReadonlyMap<string, ThreadPost[]>,
  requestsByUuid: ReadonlyMap<string, number>,
  getWatch: (id: string) => Promise<WatchRecord | undefined>,
  baseIntervalMs: number,
) {
  const perWatch: { requests: number; bound: number }[] = [];
  const delays: number[] = [];
  const progressDelays: number[] = [];
  const finalDelays: number[] = [];
  let postsWithoutChange = 0;
  let progressSeen = 0;
  let succeeded = 0;
  let failed = 0;
  let otherEnds = 0;
  for (const b of builds) {
    const record = await getWatch(b.watchId);
    const posts = postsByThread.get(b.threadTs) ?? [];
    const finals = posts.filter((p) => p.broadcast);
    const progress = posts.filter((p) => !p.broadcast);
    if (record?.status !== 'done' || finals.length !== 1) {
      otherEnds++;
      continue;
    }
    if (record.outcome === 'succeeded') succeeded++;
    else failed++;
    const final = finals[0]!;
    // Real changes: in_progress at inProgressAt, the end at doneAt. A post is backed by a change
    // when it reports one that has happened and was not reported before.
    if (final.at < b.doneAt) postsWithoutChange++;
    if (b.fails !== /did not come up/.test(final.text)) postsWithoutChange++;
    if (progress.length > 1) postsWithoutChange += progress.length - 1;
    for (const p of progress) {
      // A poll at or after doneAt sees the end, so a progress post belongs to [inProgressAt, doneAt).
      // The status reads "in progress" (src/views/words.ts statusWord; it was `in_progress` before).
      if (p.at < b.inProgressAt || p.at >= b.doneAt || !/\bin[ _]progress\b/.test(p.text)) postsWithoutChange++;
    }
    if (progress[0]) {
      progressSeen++;
      const d = progress[0].at - b.inProgressAt;
      progressDelays.push(d);
      delays.push(d);
    }
    const d = final.at - b.doneAt;
    finalDelays.push(d);
    delays.push(d);
    const duration = final.at - b.startedAt;
    perWatch.push({ requests: requestsByUuid.get(b.uuid) ?? 0, bound: duration / baseIntervalMs + 2 });
  }
  return { perWatch, delays, progressDelays, finalDelays, postsWithoutChange, progressSeen, succeeded, failed, otherEnds };
}
