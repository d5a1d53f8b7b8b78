/**
 * The monitor (issue 13): polls every resource some channel subscribed to — once per interval,
 * however many channels follow it — within the request budget it shares with the watcher, and
 * turns committed changes into alerts. A new state must be seen in `holdPolls` polls in a row
 * (re-checked after `recheckMs`) before it counts, so a flapping state posts nothing. One
 * replica runs it at a time (the `monitor` lease); the committed states live in the store, so
 * a restart or a takeover compares with what was last seen rather than starting blind.
 */
import type { SlackApi } from '../chat/slack-api.js';
import { isCloudApiError } from '../cloud/errors.js';
import type { SubscriptionRecord } from '../store/monitor-types.js';
import { createLimiter } from '../watch/limit.js';
import { createAlerting } from './alerting.js';
import { conditionsOf, shownCleared } from './conditions.js';
import { createDigests, type DigestSources } from './digest.js';
import { observe, type MonitorState, type PolledKind } from './observe.js';
import { READ_OF } from './reads.js';
import type { Maintenance } from './maintenance.js';

/** The digest's sources (stores, clients, budget, queue, clock, logger) and the monitor's own settings. */
export interface MonitorDeps extends Omit<DigestSources, 'watches'> {
  /** How often each subscribed resource is polled (SUBSCRIPTION_INTERVAL_MS; default 60 s). */
  intervalMs?: number;
  /** Polls in a row a new state must be seen in before it counts (ALERT_HOLD_POLLS; default 2). */
  holdPolls?: number;
  /** How soon a new state is looked at again while it is held (default 1 s). */
  recheckMs?: number;
  /** This replica's name in the monitor lease. */
  owner: string;
  leaseMs?: number;
  /** Concurrent cloud calls (default 4). */
  concurrency?: number;
  /** What the digest reads besides the cloud (active watches). */
  digest?: Pick<DigestSources, 'watches'>;
  /** The channel's history, where an alert or a digest whose post got no clear answer is looked for before it is posted again. */
  slack?: Pick<SlackApi, 'channelHistory'>;
  /** Maintenance windows: what they cover posts no alert, and each one over is summarised (by the lease holder). */
  maintenance?: Pick<Maintenance, 'covering' | 'refresh' | 'hold' | 'finishDue'>;
}

export interface Monitor {
  start(): void;
  stop(): Promise<void>;
  /**
   * One pass: renew the lease, poll what is due, send digests that are due. Alerts a pass
   * commits go out on their own (`idle` waits for them): one channel's slow posting never
   * holds up the polling of everything else.
   */
  tick(): Promise<void>;
  /** Resolves once every alert committed so far has been posted or edited. */
  idle(): Promise<void>;
  /** Read the subscriptions again at the next pass (one was added, removed or muted). */
  rereadSubscriptions(): void;
  /** Requests made so far (benchmarks). */
  polls(): number;
  /** An unsubscribed subscription's open alerts: closed as no longer watched, their messages edited, nothing posted. */
  retire(sub: SubscriptionRecord): Promise<void>;
}

interface Target {
  key: string;
  account: string | null;
  kind: PolledKind;
  resource: string;
  subs: SubscriptionRecord[];
}

interface TargetState {
  committed: MonitorState | undefined;
  loaded: boolean;
  pending?: { sig: string; state: MonitorState; count: number };
  nextPollAt: number;
}

/** `maintenance:<ids>`: the windows covering it, so a change in them (one of two overlapping ends, another starts) is a fresh look that notes what holds with each. */
type Mode = 'live' | 'muted' | 'refused' | `maintenance:${string}`;

export const MONITOR_LEASE = 'monitor';
const SUBS_TTL_MS = 5000;
/** The chain of the owed alert edits' passes (one at a time; `idle` waits for it). */
const OWED_EDITS = 'owed alert edits';

export const targetKey = (account: string | null, kind: string, resource: string) => `${account ?? ''}|${kind}|${resource}`;

export function createMonitor(deps: MonitorDeps): Monitor {
  const interval = deps.intervalMs ?? 60_000;
  const hold = Math.max(1, deps.holdPolls ?? 2);
  const recheck = Math.min(deps.recheckMs ?? 1000, interval);
  const leaseMs = deps.leaseMs ?? Math.max(30_000, 3 * interval);
  const limiter = createLimiter(deps.concurrency ?? 4);
  const alerting = createAlerting({ ...deps, alerts: deps.stores.alerts, subscriptions: deps.stores.subscriptions, allowed: (sub) => allowed(sub) });
  const allowed = (sub: SubscriptionRecord) => !deps.mayRead || deps.mayRead(sub, READ_OF[sub.kind]);
  const digests = createDigests({ ...deps, ...(deps.digest ?? {}), cloudFor: deps.cloudFor, ...(deps.budget ? { budget: deps.budget } : {}) });
  const states = new Map<string, TargetState>();
  let subs: SubscriptionRecord[] = [];
  /**
   * How each subscription was last brought in line with its resource's state: live, muted, or
   * not allowed. One whose mode changed (new, a mute ended, a policy reload) is looked at again.
   */
  const modes = new Map<string, Mode>();
  let subsAt = -Infinity;
  /** When closed alerts' owed edits are next tried (once per interval; at the first pass after a start). */
  let editsAt = -Infinity;
  let leader = false;
  let requests = 0;
  let stopped = true;
  let sleeper: AbortController | undefined;
  let loopDone: Promise<void> = Promise.resolve();
  let inFlight: Promise<void> = Promise.resolve();

  function targets(): Target[] {
    const byKey = new Map<string, Target>();
    for (const s of subs) {
      if (s.kind === 'digest' || !allowed(s)) continue;
      const key = targetKey(s.account, s.kind, s.resource);
      const t = byKey.get(key) ?? { key, account: s.account, kind: s.kind, resource: s.resource, subs: [] };
      t.subs.push(s);
      byKey.set(key, t);
    }
    return [...byKey.values()];
  }

  /** Alert work per resource, in commit order (a fire before its resolve); not awaited by a pass. */
  const chains = new Map<string, Promise<void>>();
  const pending = new Set<Promise<void>>();
  function dispatch(key: string, work: () => Promise<void>): void {
    const next = (chains.get(key) ?? Promise.resolve()).then(work);
    chains.set(key, next);
    pending.add(next);
    void next.finally(() => {
      pending.delete(next);
      if (chains.get(key) === next) chains.delete(key);
    });
  }

  // A maintenance window counts as a mute: when it ends the subscription is "unsettled" and a
  // fresh look alerts what still holds (or, under another window still in force, notes it there).
  const modeOf = (sub: SubscriptionRecord, now: number): Mode => {
    if (!allowed(sub)) return 'refused';
    const windows = deps.maintenance?.covering(sub.channelId, sub.account, sub.kind, sub.resource, now) ?? [];
    if (windows.length) return `maintenance:${windows.map((w) => w.id).join(',')}`;
    return sub.mutedUntil !== null && sub.mutedUntil > now ? 'muted' : 'live';
  };

  /** Brings subscriptions in line with the state that holds now (alerting.sync). */
  function settle(t: Target, state: MonitorState, subs: SubscriptionRecord[]): void {
    if (!subs.length) return;
    const now = deps.clock.now();
    for (const sub of subs) modes.set(sub.id, modeOf(sub, now));
    // Channels are independent (each has its own post queue): their alerts go out side by side.
    dispatch(t.key, async () => {
      await Promise.all(
        subs.map((sub) =>
          alerting.sync(sub, conditionsOf(t.kind, state, sub.params), (c) => shownCleared(t.kind, state, c)).catch((error: unknown) => deps.logger.error('could not alert', { subscription: sub.id, error })),
        ),
      );
    });
  }

  async function commit(t: Target, after: MonitorState): Promise<void> {
    await deps.stores.monitorState.put(t.key, after, deps.clock.now());
    settle(t, after, [...t.subs]);
  }

  const unsettled = (t: Target, now: number) => t.subs.filter((s) => modes.get(s.id) !== modeOf(s, now));

  async function idle(): Promise<void> {
    while (pending.size) await Promise.all([...pending]);
  }

  async function poll(t: Target, st: TargetState): Promise<void> {
    const now = deps.clock.now();
    if (!st.loaded) {
      st.committed = await deps.stores.monitorState.get(t.key);
      st.loaded = true;
    }
    // Invoices last seen unpaid are followed past the first page (observe.ts).
    const follow = t.kind === 'invoices' && Array.isArray(st.committed?.unpaid) ? (st.committed.unpaid as { id?: unknown }[]).map((i) => i.id) : [];
    let state: MonitorState;
    try {
      await deps.budget?.take();
      requests++;
      state = await observe(deps.cloudFor(t.account), t.kind, t.resource, undefined, follow);
    } catch (e) {
      const retry = isCloudApiError(e) ? e.retryAfterMs : undefined;
      if (retry) deps.budget?.pause(retry);
      if (!isCloudApiError(e)) deps.logger.error('monitor poll failed inside the bot', { target: t.key, error: e });
      else if (e.code === 'NOT_FOUND') deps.logger.warn('a subscribed resource is not found', { target: t.key });
      st.nextPollAt = deps.clock.now() + Math.max(interval, retry ?? 0);
      return;
    }
    if (st.committed === undefined && !t.subs.some((s) => conditionsOf(t.kind, state, s.params).size > 0)) {
      // First sight of nothing wrong: the baseline. Nothing to say.
      await deps.stores.monitorState.put(t.key, state, now);
      st.committed = state;
      delete st.pending;
      st.nextPollAt = now + interval;
      settle(t, state, unsettled(t, now));
      return;
    }
    // First sight of something wrong is a change from nothing known: the hold rule applies.
    const sig = JSON.stringify(state);
    if (st.committed !== undefined && sig === JSON.stringify(st.committed)) {
      delete st.pending;
      st.nextPollAt = now + interval;
      // Seen again as committed: subscriptions new, unmuted or allowed again are told what holds,
      // and an alert whose post failed is posted now.
      // Under a maintenance window, what still holds is noted again: its summary's "last seen" is true.
      const heldBack = (s: SubscriptionRecord) => modeOf(s, now).startsWith('maintenance:') && conditionsOf(t.kind, state, s.params).size > 0;
      settle(t, state, t.subs.filter((s) => modes.get(s.id) !== modeOf(s, now) || alerting.owes(s.id) || heldBack(s)));
      return;
    }
    st.pending = st.pending?.sig === sig ? { ...st.pending, count: st.pending.count + 1 } : { sig, state, count: 1 };
    if (st.pending.count < hold) {
      st.nextPollAt = now + recheck;
      return;
    }
    // Committed here only once the store has it: a failed write is tried again at a later poll
    // (the hold already counted), rather than taken as said and the alert never sent.
    st.nextPollAt = now + interval;
    await commit(t, state);
    st.committed = state;
    delete st.pending;
  }

  async function tick(): Promise<void> {
    const now = deps.clock.now();
    const held = await deps.stores.leases.acquire(MONITOR_LEASE, deps.owner, now, now + leaseMs);
    if (!held) {
      // Another replica runs it; what this one knew may be stale when the lease comes back.
      if (leader) states.clear();
      editsAt = -Infinity;
      leader = false;
      return;
    }
    leader = true;
    if (deps.maintenance) {
      await deps.maintenance.refresh(now);
      await deps.maintenance.finishDue(deps.owner).catch((error: unknown) => deps.logger.error('could not summarise maintenance windows', { error }));
    }
    if (now - subsAt >= SUBS_TTL_MS) {
      subs = await deps.stores.subscriptions.listActive();
      subsAt = now;
    }
    const work: Promise<void>[] = [];
    const live = new Set<string>();
    const seen = new Set<string>();
    for (const s of subs) {
      seen.add(s.id);
      // A channel that may no longer read it: the watching ends (checked again every pass).
      if (s.kind !== 'digest' && !allowed(s) && modes.get(s.id) !== 'refused') {
        modes.set(s.id, 'refused');
        dispatch(targetKey(s.account, s.kind, s.resource), () => alerting.unwatch(s, 'policy').catch((error: unknown) => deps.logger.error('could not end alerts', { subscription: s.id, error })));
      }
    }
    for (const id of modes.keys()) if (!seen.has(id)) modes.delete(id);
    for (const t of targets()) {
      live.add(t.key);
      let st = states.get(t.key);
      if (!st) states.set(t.key, (st = { committed: undefined, loaded: false, nextPollAt: now }));
      // What holds is told only from a fresh look (a mute ended, a new subscription).
      if (st.nextPollAt !== Number.POSITIVE_INFINITY && unsettled(t, now).length) st.nextPollAt = now;
      if (st.nextPollAt > now) continue;
      st.nextPollAt = Number.POSITIVE_INFINITY; // in flight
      const own = st;
      work.push(
        limiter.run(() => poll(t, own)).catch((error: unknown) => {
          deps.logger.error('monitor poll failed', { target: t.key, error });
          // Not left "in flight" for good (the store failed mid-poll): looked at again next interval.
          if (own.nextPollAt === Number.POSITIVE_INFINITY) own.nextPollAt = deps.clock.now() + interval;
        }),
      );
    }
    for (const key of states.keys()) if (!live.has(key)) states.delete(key);
    if (now >= editsAt) {
      // Alerts closed whose message Slack has not yet been seen to show so (alerting.showOwed).
      editsAt = now + interval;
      dispatch(OWED_EDITS, () => alerting.showOwed().catch((error: unknown) => deps.logger.error('could not edit alerts owed an edit', { error })));
    }
    work.push(digests.run(subs, now));
    await Promise.all(work);
  }

  /** Until the next poll is due (at most a second: the lease, digests and new subscriptions). */
  function nextDueIn(): number {
    let next = 1000;
    for (const st of states.values()) next = Math.min(next, st.nextPollAt - deps.clock.now());
    return Math.max(0, next);
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      inFlight = tick().catch((error: unknown) => deps.logger.error('monitor pass failed', { error }));
      await inFlight;
      if (stopped) break;
      sleeper = new AbortController();
      await deps.clock.sleep(Math.max(nextDueIn(), 20), sleeper.signal).catch(() => undefined);
    }
  }

  return {
    tick,
    idle,
    polls: () => requests,
    retire: (sub) => alerting.unwatch(sub, 'unsubscribed'),
    rereadSubscriptions() {
      subsAt = -Infinity;
      sleeper?.abort();
    },
    start() {
      if (!stopped) return;
      stopped = false;
      loopDone = loop();
    },
    async stop() {
      stopped = true;
      sleeper?.abort();
      await inFlight;
      await loopDone;
      await idle();
      await deps.stores.leases.release(MONITOR_LEASE, deps.owner).catch((error: unknown) => deps.logger.warn('could not release the monitor lease', { error }));
    },
  };
}
