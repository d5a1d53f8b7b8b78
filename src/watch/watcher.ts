/**
 * The durable watcher: follows long work (worker builds, reinstalls) to its end and keeps the
 * channel quiet — a thread reply per state change, the status message edited in place, the
 * final state posted once (broadcast to the channel per WATCH_BROADCAST).
 *
 * Everything it knows lives in the store, so a restart (even after SIGKILL) resumes every
 * open watch. Several watches of one resource share one poll; a limiter caps concurrent cloud
 * calls and the shared request budget (when given) their rate. An active watch polls every base
 * interval, changed or not, so a state change is seen within one interval (issue 13: backing
 * off while nothing changed made change → post p50 17 s, p99 56 s) and a watch of duration D
 * costs at most D ÷ interval + 2 requests. Only errors back off; a 429's Retry-After is
 * honoured, and pauses the whole budget. The deadline holds whether polls read or fail: a watch
 * whose polls keep failing ends at it as expired, saying since when and why it could not read.
 *
 * Replicas share the watches through leases: a pass polls only the due watches this replica
 * claimed (claimDue), and every write names the owner, so a replica whose lease was taken over
 * (it stalled past the lease) writes nothing and drops the watch. The final post is claimed
 * (active → finalizing) before it is posted and carries the watch id in its message metadata;
 * a watch found already finalizing (a crash, a takeover, a failed call) is first looked up in
 * its thread, so a final that did get posted is recorded rather than posted again.
 */
import { isCloudApiError } from '../cloud/errors.js';
import type { WatchKind, WatchPatch, WatchRecord, WatchState, WatchUnread } from '../store/watch-store.js';
import type { Reply } from '../views/types.js';
import { WATCH_KINDS } from '../operations/watch-kinds.js';
import { observeWatch, type Observation } from './observe.js';
import { buildCancelledReply, buildDeadlineReply, buildGoneReply, buildProgressReply } from '../views/watch-views.js';
import { createLimiter } from './limit.js';
import { newReplicaId } from './replica-id.js';
import { createFinisher } from './final-post.js';

export { FINAL_EVENT } from './final-post.js';

import type { Watcher, WatcherDeps } from './watcher-types.js';

export type { StartWatch, Watcher, WatcherDeps } from './watcher-types.js';

const BACKOFF = 1.5;
/** How often the parent of a watch with nothing new is edited to show its elapsed time. */
const ELAPSED_EDIT_MS = 60_000;
/** A poll given up while waiting for the budget (the watcher is stopping). */
const UNPOLLED = Symbol('unpolled');

/** Whether two states differ in anything the channel would care about. */
function sameState(a: WatchState | null, b: WatchState): boolean {
  if (!a) return false;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if ((a[k] ?? null) !== (b[k] ?? null)) return false;
  return true;
}

/** A failed poll of an active watch: since when its polls fail (the first failure's time) and the latest answer. */
function unreadOf(w: WatchRecord, e: unknown, now: number): WatchUnread {
  const cloud = isCloudApiError(e);
  return {
    since: w.unread?.since ?? now,
    status: cloud ? e.status : 0,
    code: cloud ? e.code : 'INTERNAL',
    message: cloud ? e.message.slice(0, 300) : '',
  };
}

export function createWatcher(deps: WatcherDeps): Watcher {
  const base = deps.intervalMs ?? 10_000;
  const max = deps.maxIntervalMs ?? base * 6;
  const broadcast = deps.broadcast ?? 'final';
  const limiter = createLimiter(deps.concurrency ?? 4);
  const kinds = deps.kinds ?? WATCH_KINDS;
  const deadlineOf = (k: WatchKind) => deps.deadlines?.[k] ?? kinds[k].deadlineMs;
  const owner = deps.owner ?? newReplicaId();
  const leaseMs = deps.leaseMs ?? Math.max(30_000, base * 3);
  const batch = deps.batch ?? 500;
  /** The next interval after a transient error: whole milliseconds, capped. */
  const backoff = (ms: number) => Math.min(Math.round(ms * BACKOFF), max);
  let stopped = true;
  let sleeper: AbortController | undefined;
  /** Aborted by stop(): a poll still waiting for the budget gives up rather than hold the stop. */
  let halt = new AbortController();
  let inFlight: Promise<void> = Promise.resolve();
  let loopDone: Promise<void> = Promise.resolve();

  const reply = async (w: WatchRecord, r: Reply, broadcastIt = false): Promise<string | undefined> => {
    if (!w.threadTs) return undefined;
    try {
      const posted = await deps.slack.postMessage({ channel: w.channelId, thread_ts: w.threadTs, reply_broadcast: broadcastIt, text: r.text, blocks: r.blocks });
      return posted.ts;
    } catch (e) {
      deps.logger.warn('could not post a watch update', { watch: w.id, error: e });
      return undefined;
    }
  };
  /** When each active watch's parent was last edited here, so its elapsed time can be kept current. */
  const shownAt = new Map<string, number>();
  /** Active watches whose parent was last edited to say their state is not being read. */
  const shownUnread = new Set<string>();
  const editParent = (w: WatchRecord) => {
    if (w.status === 'active') shownAt.set(w.id, deps.clock.now());
    else shownAt.delete(w.id);
    if (w.status === 'active' && w.unread) shownUnread.add(w.id);
    else shownUnread.delete(w.id);
    return deps.refreshParent(w).catch((error: unknown) => deps.logger.warn('could not refresh a watch message', { watch: w.id, error }));
  };
  const finish = createFinisher({ deps, owner, base, broadcast, kinds, editParent });
  /** Ends an active watch at its deadline (read or not) and says so once, with its Keep watching. */
  async function expire(w: WatchRecord, now: number, patch: WatchPatch): Promise<void> {
    const expired = await deps.store.move(w.id, ['active'], 'expired', now, patch, owner);
    if (!expired) return;
    const kind = kinds[expired.kind];
    const last = expired.state ? kind.describe(expired.state) : undefined;
    await reply(expired, buildDeadlineReply(expired, kind.subject(expired.resource, expired.state, false), last, now));
    await editParent(expired);
  }
  async function apply(w: WatchRecord, result: Observation | unknown, ok: boolean): Promise<void> {
    const now = deps.clock.now();
    if (!ok) {
      const e = result;
      if (isCloudApiError(e) && e.code === 'NOT_FOUND') {
        const gone = await deps.store.move(w.id, ['active', 'finalizing'], 'gone', now, { polled: true, outcome: 'gone' }, owner);
        if (gone) {
          await reply(gone, buildGoneReply(kinds[gone.kind].subject(gone.resource, gone.state)));
          await editParent(gone);
        }
        return;
      }
      if (!isCloudApiError(e)) deps.logger.error('watch poll failed inside the bot', { watch: w.id, error: e });
      // A finalizing watch's outcome is already seen: a failed poll only delays its final post.
      const unread = w.status === 'active' ? { unread: unreadOf(w, e, now) } : {};
      if (w.status === 'active' && now >= w.deadlineAt) {
        // The deadline holds whether polls read or not; the end says what could not be read.
        await expire(w, now, { polled: true, ...unread });
        return;
      }
      // Anything else (no answer, 5xx, rate limit, a refused token or address) may pass: a token
      // replaced (and the bot restarted) or an address allowed resumes the watch where it is, so
      // it is not ended early; it backs off, and the deadline ends it if nothing changes.
      const wait = Math.max(isCloudApiError(e) && e.retryAfterMs ? Math.ceil(e.retryAfterMs) : 0, backoff(w.intervalMs));
      const nextPollAt = w.status === 'active' ? Math.min(now + wait, w.deadlineAt) : now + wait;
      const failed = await deps.store.update(w.id, [w.status], now, { polled: true, nextPollAt, intervalMs: backoff(w.intervalMs), ...unread }, owner);
      // The parent stops showing the last state as the current one (as often as the elapsed time is edited).
      if (failed?.status === 'active' && now - (shownAt.get(w.id) ?? w.startedAt) >= ELAPSED_EDIT_MS) await editParent(failed);
      return;
    }
    // Read: whatever failed before is over.
    const read = w.unread ? { unread: null } : {};
    const obs = result as Observation;
    if (w.status === 'finalizing') {
      // Claimed for its final earlier and left unfinished: its lease is ours now. The claimed
      // outcome and state stand; this poll only brings the secret back (it is never stored).
      const outcome = (w.outcome ?? obs.outcome) as 'succeeded' | 'failed' | undefined;
      if (outcome) await finish(w, outcome, w.state ?? obs.state, obs.secret, true);
      return;
    }
    if (obs.outcome) {
      // Claimed once, before posting: of two pollers (or replicas, or a restart) one posts the end.
      const claimed = await deps.store.move(
        w.id,
        ['active'],
        'finalizing',
        now,
        { polled: true, state: obs.state, outcome: obs.outcome, nextPollAt: now, leaseUntil: now + leaseMs, ...read },
        owner,
      );
      if (claimed) await finish(claimed, obs.outcome, obs.state, obs.secret, false);
      return;
    }
    if (now >= w.deadlineAt) {
      await expire(w, now, { polled: true, state: obs.state, ...read });
      return;
    }
    if (!sameState(w.state, obs.state)) {
      const first = w.state === null;
      const updated = await deps.store.update(w.id, ['active'], now, { polled: true, state: obs.state, intervalMs: base, nextPollAt: now + base, ...read }, owner);
      if (updated) {
        if (!first) await reply(updated, buildProgressReply(updated, kinds[w.kind].describe(obs.state), now));
        await editParent(updated);
      }
      return;
    }
    // Nothing changed: look again in one base interval (also resets an error backoff).
    const same = await deps.store.update(w.id, ['active'], now, { polled: true, intervalMs: base, nextPollAt: Math.min(now + base, w.deadlineAt), ...read }, owner);
    // A long build must not read "watching for 0 seconds": the elapsed time is edited, not posted;
    // a parent that said the state could not be read is put right at once.
    if (same && (shownUnread.has(w.id) || now - (shownAt.get(w.id) ?? w.startedAt) >= ELAPSED_EDIT_MS)) await editParent(same);
  }

  const traced = deps.tracePoll ?? (<T>(_w: WatchRecord[], poll: () => Promise<T>) => poll());
  async function tick(): Promise<void> {
    const now = deps.clock.now();
    // Only what this replica now holds: another replica's leased watches are its to poll.
    const due = await deps.store.claimDue(owner, now, leaseMs, batch);
    const groups = new Map<string, WatchRecord[]>();
    for (const w of due) {
      // One resource is one poll — per account: server 101 of prod is not server 101 of staging.
      const key = `${w.account ?? ''}:${w.kind}:${w.resource}`;
      groups.set(key, [...(groups.get(key) ?? []), w]);
    }
    await Promise.all(
      [...groups.values()].map((watches) => traced(watches, async () => {
        const { kind, resource, account } = watches[0]!;
        // One poll for every watch of this resource.
        const signal = halt.signal;
        const [ok, result] = await limiter
          .run(async () => {
            if (deps.budget && !(await deps.budget.take(signal).then(() => true, () => false))) return UNPOLLED;
            return observeWatch(deps.cloudFor(account), kind, resource);
          })
          .then((o) => [true, o] as const, (e: unknown) => [false, e] as const);
        // Stopped while waiting for the budget: not polled, still due (stop releases the lease).
        if (result === UNPOLLED) return;
        if (!ok && isCloudApiError(result) && result.retryAfterMs) deps.budget?.pause(Math.ceil(result.retryAfterMs));
        for (const w of watches) await apply(w, result, ok);
      })),
    );
  }

  async function nextDueIn(): Promise<number | undefined> {
    const open = await deps.store.listOpen();
    if (open.length === 0) return undefined;
    // Another replica's watch is not ours to poll before its lease ends.
    const dueAt = (w: WatchRecord) => Math.max(w.nextPollAt, w.leaseOwner && w.leaseOwner !== owner ? (w.leaseUntil ?? 0) : 0);
    return Math.max(0, Math.min(...open.map(dueAt)) - deps.clock.now());
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      let failed = false;
      inFlight = tick().catch((error: unknown) => {
        failed = true;
        deps.logger.error('watch pass failed', { error });
      });
      await inFlight;
      if (stopped) break;
      // After a failed pass, wait a full interval: a persistent fault must not become a storm.
      const due = failed ? base : await nextDueIn().catch(() => base);
      // A stop that came while the store answered aborted no sleeper yet: this one would never wake.
      if (stopped) break;
      sleeper = new AbortController();
      await deps.clock.sleep(Math.min(due ?? base, base), sleeper.signal).catch(() => undefined);
    }
  }

  return {
    owner,
    limiter,
    nextDueIn,
    tick,
    async watch(input) {
      const now = deps.clock.now();
      const w = await deps.store.create({
        kind: input.kind,
        resource: input.resource,
        account: input.account ?? null,
        operationId: input.operationId ?? null,
        channelId: input.channelId,
        threadTs: input.threadTs,
        requestedBy: input.requestedBy,
        intervalMs: base,
        startedAt: now,
        deadlineAt: now + deadlineOf(input.kind),
        nextPollAt: input.held ? now + leaseMs : now,
      });
      if (!input.held) sleeper?.abort(); // poll it now rather than at the loop's next wake-up
      return w;
    },
    async begin(id) {
      const now = deps.clock.now();
      if (await deps.store.update(id, ['active'], now, { nextPollAt: now })) sleeper?.abort();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      halt = new AbortController();
      deps.logger.info('watching with leases', { replica: owner, leaseMs });
      loopDone = loop();
    },
    async stop() {
      stopped = true;
      sleeper?.abort();
      halt.abort(new Error('watcher stopped'));
      await inFlight;
      await loopDone;
      halt = new AbortController(); // a tick() after stop still polls
      // A clean stop (a deploy) hands its watches over at once instead of after the lease.
      await deps.store.release(owner).catch((error: unknown) => deps.logger.warn('could not release watch leases', { error }));
    },
    async cancel(id, userId) {
      const cancelled = await deps.store.move(id, ['active', 'expired'], 'cancelled', deps.clock.now());
      if (cancelled) {
        await reply(cancelled, buildCancelledReply(cancelled, userId));
        await editParent(cancelled);
      }
      return cancelled;
    },
    get: (id) => deps.store.get(id),
    async keepWatching(id) {
      const now = deps.clock.now();
      const w = await deps.store.get(id);
      if (!w) return undefined;
      const resumed = await deps.store.move(id, ['expired'], 'active', now, {
        deadlineAt: now + deadlineOf(w.kind),
        nextPollAt: now,
        intervalMs: base,
      });
      if (resumed) sleeper?.abort();
      return resumed;
    },
  };
}
