/**
 * The scheduler (issue 25): every replica ticks on the injected clock; what runs is decided by
 * the store, not by which replica ticks first. Per due schedule: the latest occurrence due is
 * claimed (one claimer per schedule + occurrence, migration 13), the next run is advanced by a
 * conditional update, and only the claimer runs it. An occurrence more than the grace period
 * late (every replica was down) is claimed as skipped and the skip said in the channel instead.
 * A replica renews the leases of the runs it is still running at every look, so a run longer
 * than its lease is not taken over while its replica lives (nor by the replica running it).
 * A run whose replica died is taken over once its lease ends (unless its schedule was cancelled
 * since); the change flow's dedupe key then keeps its change from being sent twice, and a change
 * the stopped run had not sent is not started past the grace either (app/schedule-run.ts). Pending
 * schedules are armed here once their Confirm record succeeded (or closed when it was
 * cancelled or expired).
 */
import type { ChannelPosterDeps } from '../chat/slack-api.js';
import { formatInZone, nextAfter } from '../operations/schedule-when.js';
import type { ScheduleRecord, ScheduleStore } from '../store/schedule-types.js';
import type { OperationStore } from '../store/types.js';
import { buildRunsSkipped } from '../views/schedule-views.js';
import { armConfirmed } from './arm.js';

/** What a run came to, for the schedule's "last result"; `skipped` ends the run as skipped, not done. */
export type RunEnd = string | { skipped: string };
export type ScheduledRunner = (s: ScheduleRecord, occurrence: number, attempt: 'first' | 'takeover', signal: AbortSignal) => Promise<RunEnd>;

export interface SchedulerDeps extends ChannelPosterDeps {
  store: ScheduleStore;
  operations: Pick<OperationStore, 'get' | 'byDedupeKey'>;
  /** This replica (the watcher's owner id). */
  owner: string;
  /** How late a missed run may still run (SCHEDULE_GRACE_MS). */
  graceMs: number;
  run: ScheduledRunner;
  /** How often it looks (default 15 s). */
  intervalMs?: number;
  /** How long a claimed run is this replica's before another may take it over (default 45 min: a backup's wait fits). */
  leaseMs?: number;
}

export interface Scheduler {
  /** One look: arm confirmed schedules, take over stale runs, claim and start due ones. */
  tick(): Promise<void>;
  /** Resolves when the runs started so far have ended. */
  settled(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

/** Most missed occurrences counted through (a minutely-ish cron down for weeks stops counting here). */
const MAX_MISSED = 10_000;
const DEFAULT_INTERVAL_MS = 15_000;
/** SCHEDULE_GRACE_MS unless set (config-timing.ts). */
export const DEFAULT_GRACE_MS = 3_600_000;
const DEFAULT_LEASE_MS = 45 * 60_000;

export function createScheduler(deps: SchedulerDeps): Scheduler {
  const interval = deps.intervalMs ?? DEFAULT_INTERVAL_MS;
  const leaseMs = deps.leaseMs ?? DEFAULT_LEASE_MS;
  const log = deps.logger;
  const inFlight = new Set<Promise<void>>();
  /** The runs this replica is running, by `schedule occurrence`: their leases are renewed each look. */
  const running = new Map<string, { scheduleId: string; occurrence: number }>();
  const stopping = new AbortController();
  let loop: Promise<void> | undefined;

  function launch(s: ScheduleRecord, occurrence: number, attempt: 'first' | 'takeover'): void {
    const key = `${s.id} ${occurrence}`;
    running.set(key, { scheduleId: s.id, occurrence });
    const p = (async () => {
      let result: string;
      let skipped = false;
      try {
        const end = await deps.run(s, occurrence, attempt, stopping.signal);
        skipped = typeof end !== 'string';
        result = typeof end === 'string' ? end : end.skipped;
      } catch (error) {
        // Stopped: its lease ends now (renewed to now), so another replica takes it over at its
        // next look, not in 45 min; the change flow's dedupe key keeps its change from going twice.
        if (stopping.signal.aborted) return void (await deps.store.renew(s.id, occurrence, deps.owner, deps.clock.now(), 0));
        log.error('a scheduled run failed inside the bot', { schedule: s.id, occurrence, error });
        result = 'failed inside the bot';
      }
      await deps.store.finishRun(s.id, occurrence, deps.owner, result.slice(0, 300), deps.clock.now(), skipped ? 'skipped' : 'done');
    })()
      .catch((error: unknown) => log.error('could not record a scheduled run', { schedule: s.id, error }))
      .finally(() => {
        inFlight.delete(p);
        running.delete(key);
      });
    inFlight.add(p);
  }

  async function renewLeases(now: number): Promise<void> {
    for (const [key, run] of running) {
      // False also when the run ended between the two lines, so the log says both.
      if (!(await deps.store.renew(run.scheduleId, run.occurrence, deps.owner, now, leaseMs)) && running.has(key)) {
        log.info('a scheduled run lease was not renewed: the run has ended or another replica took it over', { schedule: run.scheduleId, occurrence: run.occurrence });
      }
    }
  }

  async function takeOver(now: number): Promise<void> {
    for (const run of await deps.store.stale(now, 20)) {
      if (stopping.signal.aborted) return; // stopping: nothing new is claimed
      if (!(await deps.store.takeOver(run.scheduleId, run.occurrence, deps.owner, now, leaseMs))) continue;
      const s = await deps.store.get(run.scheduleId);
      if (!s) continue;
      if (s.status === 'cancelled') {
        // Cancelled since: what the stopped run did stands, and nothing more is done for it.
        log.info('not taking over a run of a cancelled schedule', { schedule: s.id, occurrence: run.occurrence, from: run.owner });
        await deps.store.finishRun(s.id, run.occurrence, deps.owner, 'not taken over: the schedule was cancelled after its run stopped; what that run did stands', now);
        continue;
      }
      log.warn('taking over a scheduled run a stopped replica left', { schedule: s.id, occurrence: run.occurrence, from: run.owner });
      launch(s, run.occurrence, 'takeover');
    }
  }

  async function due(now: number): Promise<void> {
    for (const s of await deps.store.due(now, 50)) {
      if (stopping.signal.aborted) return; // stopping: nothing new is claimed
      const first = s.nextAt!;
      let latest = first;
      let missed = 0;
      for (let i = 0; i < MAX_MISSED; i++) {
        const n = nextAfter(s.when, latest);
        if (n === null || n > now) break;
        latest = n;
        missed++;
      }
      const next = nextAfter(s.when, latest);
      const late = now - latest > deps.graceMs;
      const claimed = await deps.store.claimRun(s.id, latest, deps.owner, now, leaseMs, late ? 'skipped' : 'running');
      await deps.store.advance(s.id, first, next, now);
      if (!claimed) continue;
      const skipped = late ? missed + 1 : missed;
      if (skipped > 0) await tellSkipped(s, skipped, late ? latest : first);
      if (!late) launch(s, latest, 'first');
    }
  }

  async function tellSkipped(s: ScheduleRecord, count: number, last: number): Promise<void> {
    const reply = buildRunsSkipped(s, count, formatInZone(last, s.when.tz), Math.round(deps.graceMs / 60_000));
    log.warn('scheduled runs missed while the bot was down were skipped', { schedule: s.id, count });
    try {
      await deps.slack.postMessage({ channel: s.channelId, text: reply.text, blocks: reply.blocks });
    } catch (error) {
      log.warn('could not say in the channel that scheduled runs were skipped', { schedule: s.id, error });
    }
  }

  const tick = async () => {
    const now = deps.clock.now();
    await armConfirmed(deps.store, deps.operations, now);
    await renewLeases(now);
    await takeOver(now);
    await due(now);
  };

  return {
    tick,
    settled: async () => {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    start() {
      if (loop) return;
      loop = (async () => {
        while (!stopping.signal.aborted) {
          await tick().catch((error: unknown) => log.error('scheduler tick failed', { error }));
          await deps.clock.sleep(interval, stopping.signal).catch(() => {});
        }
      })();
    },
    async stop() {
      stopping.abort();
      await loop;
      await Promise.all([...inFlight]);
    },
  };
}
