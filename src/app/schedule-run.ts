/**
 * One run of a schedule (issue 25), as a typed command would run: the stored command is read
 * again, checked as the person who scheduled it under the channel's rules now (and, when those
 * rules want a second admin's approval, as the admin who approved the schedule), then handed to
 * runCommand — a change goes through the change flow (its status message in the channel, its
 * watch, its audit entry "scheduled by …"), a read's answer is posted in the channel. A run no
 * longer allowed sends nothing and says why in the channel. The scheduler (schedule/scheduler.ts)
 * decides when; this decides what, and returns a short result for `/cloud schedules`.
 */
import type { StartOutcome } from '../confirm/change-types.js';
import type { SlackApi } from '../chat/slack-api.js';
import { formatInZone } from '../operations/schedule-when.js';
import type { ScheduleRecord } from '../store/schedule-types.js';
import { context, section } from '../views/blocks.js';
import { md, val, type Mrkdwn } from '../views/mrkdwn.js';
import { buildRunHeader, buildRunRefused, buildTakeoverSkipped } from '../views/schedule-views.js';
import { RUN_TAKEN_OVER } from '../views/status-views.js';
import type { Reply } from '../views/types.js';
import { admitRun, type ScheduleRunDeps } from './schedule-run-admit.js';
import { runCommand } from './run-command.js';
import { keepNewest, makeRoom } from './backup-retention.js';
import { createScheduler, DEFAULT_GRACE_MS, type RunEnd } from '../schedule/scheduler.js';
import { commandDedupeKey } from './change-commands.js';
import type { Store } from '../store/store.js';
import { createScheduleControl, type ScheduleControlDeps } from './schedule-control.js';
import type { Clock } from '../clock.js';

export { REFUSED_APPROVAL_WITHDRAWN, REFUSED_APPROVER_UNCHECKED, REFUSED_UNCHECKED, RIGHTS_RECHECK_MS, type ScheduleRunDeps } from './schedule-run-admit.js';

/** What a run came to, for the schedule's "last result". */
export type RunResult = string;
/** The result of a run taken over too late to start what its first attempt had not sent. */
export const SKIPPED_TAKEN_OVER_LATE = 'skipped: taken over too late; nothing was sent';

export function createScheduleRunner(deps: ScheduleRunDeps): (s: ScheduleRecord, occurrence: number, attempt: 'first' | 'takeover', signal?: AbortSignal) => Promise<RunEnd> {
  const graceMs = deps.graceMs ?? DEFAULT_GRACE_MS;
  const post = async (channel: string, reply: Reply) => {
    await deps.slack.postMessage({ channel, text: reply.text, blocks: reply.blocks });
  };

  return async function run(s, occurrence, attempt, signal) {
    const at = formatInZone(occurrence, s.when.tz);
    const refuse = async (why: Mrkdwn, result: string) => {
      await post(s.channelId, buildRunRefused(s, at, why));
      return result;
    };
    const admission = await admitRun(deps, s, occurrence, at, graceMs, signal);
    if (!admission.ok) return refuse(admission.why, admission.result);
    const { read, admitted, confirm, retention } = admission;
    const { op } = read;
    const keep = s.keep ?? undefined;
    const graceMinutes = Math.round(graceMs / 60_000);

    let started: StartOutcome | undefined;
    const input = (suffix: string) => ({
      userId: s.createdBy,
      channelId: s.channelId,
      teamId: s.teamId ?? '',
      // The change flow's dedupe key: a run taken over after a crash finds the first one's record and sends nothing.
      triggerId: `sched:${s.id}:${occurrence}${suffix}`,
      text: read.text,
      scheduled: {
        run: { scheduleId: s.id, confirmedBy: confirm?.confirmedBy ?? s.createdBy, ...(confirm?.approvedBy ? { approvedBy: confirm.approvedBy } : {}) },
        started: (o: StartOutcome) => void (started = o),
      },
    });
    const once = async (suffix: string): Promise<RunResult> => {
      started = undefined;
      const answer = await runCommand(deps, input(suffix));
      const reply = answer.answer.kind === 'work' ? await answer.answer.reply : answer.answer.reply;
      if (!op.change) {
        if (reply) await post(s.channelId, { text: md`${buildRunHeader(s, at)}\n${reply.text}`, blocks: [section(buildRunHeader(s, at)), ...reply.blocks] });
        return 'answered';
      }
      const o = started as StartOutcome | undefined;
      // What the person would have been told privately goes to the channel: nobody typed it.
      if (reply) await post(s.channelId, { text: md`${buildRunHeader(s, at)}\n${reply.text}`, blocks: [section(buildRunHeader(s, at)), ...reply.blocks] });
      if (!o) return 'not started';
      if (o.kind === 'duplicate') return 'already started by a run that stopped';
      if (o.kind === 'posted') return o.record.errorCode ? `${o.record.status}: ${o.record.errorCode}` : o.record.status;
      return 'refused before sending';
    };

    // The grace holds for a run taken over as for a first attempt: every replica may have been
    // down, and what the stopped run had not sent is not started hours late.
    const late = attempt === 'takeover' && deps.clock.now() - occurrence > graceMs;
    const skipLate = async (): Promise<RunEnd> => {
      deps.logger.warn('a scheduled run taken over past the grace is skipped', { schedule: s.id, occurrence });
      // Skipped whether or not Slack takes the note (as the scheduler's skips): nothing was started.
      await post(s.channelId, buildTakeoverSkipped(s, at, graceMinutes, !!op.change)).catch((error: unknown) =>
        deps.logger.warn('could not say in the channel that a scheduled run was skipped', { schedule: s.id, error }),
      );
      return { skipped: op.change ? SKIPPED_TAKEN_OVER_LATE : 'skipped: taken over too late' };
    };

    /**
     * Before the channel is told nothing was sent, the occurrence is closed under the first
     * attempt's key: a first attempt that was only slow (its replica stalled past its lease)
     * then finds it and sends nothing. False: its record appeared meanwhile (handled as found).
     */
    const closeUnstarted = async (key: string): Promise<boolean> => {
      const now = deps.clock.now();
      const made = await deps.operations.create({
        opId: op.id,
        args: read.masked,
        facts: {},
        sealedSecrets: null,
        requestedBy: s.createdBy,
        teamId: s.teamId ?? null,
        channelId: s.channelId,
        account: admitted.account,
        dedupeKey: key,
        expiresAt: now,
      });
      if (!made.created) return false;
      await deps.operations.transition(made.record.id, {
        from: ['pending'],
        to: 'cancelled',
        now,
        patch: { errorCode: RUN_TAKEN_OVER, errorMessage: 'the replica running this scheduled change stopped before making its request; it was too late to start it' },
      });
      return true;
    };

    /**
     * A run taken over finds the first attempt's record (the same dedupe key) and sends nothing
     * again. When that attempt stopped before its change was confirmed, nothing was sent at all:
     * its record is closed (so a click on its orphaned message finds it over; if someone did
     * confirm it meanwhile, that send stands and nothing more is tried) and the occurrence runs
     * afresh, once — unless it is past the grace by now: then it is skipped and said.
     */
    const onceTakenOver = async (suffix: string): Promise<RunEnd> => {
      const key = commandDedupeKey(input(suffix).triggerId);
      // No record: the first attempt sent nothing (a read has none: its answer is not made up late either).
      if (late && !(await deps.operations.byDedupeKey(key)) && (!op.change || (await closeUnstarted(key)))) return skipLate();
      const result = await once(suffix);
      const o = started as StartOutcome | undefined;
      const earlier = o?.kind === 'duplicate' ? o.record : undefined;
      if (!earlier || earlier.confirmedAt !== null || (earlier.status !== 'pending' && earlier.status !== 'expired')) return result;
      if (earlier.status === 'pending') {
        const closed = await deps.operations.transition(earlier.id, {
          from: ['pending'],
          to: 'cancelled',
          now: deps.clock.now(),
          patch: {
            errorCode: RUN_TAKEN_OVER,
            errorMessage: late
              ? 'the replica running this scheduled change stopped before sending it; it was too late to start it again'
              : 'the replica running this scheduled change stopped before sending it; the run started again',
          },
        });
        if (!closed.ok && closed.record?.status !== 'expired') return result;
        await deps.flow.retell(earlier.id, undefined).catch(() => undefined);
      }
      return late ? skipLate() : once(`${suffix}:again`);
    };
    if (attempt === 'takeover' && !retention) return onceTakenOver('');
    if (!retention) return once('');
    if (attempt === 'takeover') {
      // Its backup made, the retention the first attempt owed is done now: a replica stopped
      // while waiting for the backup (a deploy) must not leave one backup too many for good. The
      // excess is counted again from the cloud's list, so what the first attempt already deleted
      // is not deleted twice.
      // Past the grace, its backup is still done if the first attempt sent it (today's rule):
      // the retention it owed counts from that backup, however late.
      const result = await onceTakenOver('');
      if (typeof result !== 'string') return result; // nothing was sent, so nothing is owed
      const o = started as StartOutcome | undefined;
      const made = o?.kind === 'duplicate' || o?.kind === 'posted' ? o.record : undefined;
      if (made?.status !== 'succeeded') return `${result}; retention skipped (run taken over)`;
      const kept = await keepNewest(retention, keep!, 1, made);
      if (kept.reply) await post(s.channelId, { ...kept.reply, blocks: [...kept.reply.blocks, context(md`Retention of schedule ${val(s.id)}.`)] });
      return `${o?.kind === 'duplicate' ? 'succeeded (run taken over)' : result}; ${kept.note}`;
    }
    let result = await once('');
    let room = 1;
    if (result === 'failed: RESOURCE_LIMIT_EXCEEDED') {
      const made = await makeRoom(retention, keep!, started?.kind === 'posted' ? started.record.id : undefined);
      if (made.reply) await post(s.channelId, made.reply);
      if (!made.deleted) return `${result}; ${made.note}`;
      room = 0; // the room this run makes is spent on the backup it makes
      result = await once(':after-room');
    }
    if (result !== 'succeeded') return `${result}; nothing deleted`;
    const kept = await keepNewest(retention, keep!, room, started?.kind === 'posted' ? started.record : undefined);
    if (kept.reply) await post(s.channelId, { ...kept.reply, blocks: [...kept.reply.blocks, context(md`Retention of schedule ${val(s.id)}.`)] });
    return `${result}; ${kept.note}`;
  };
}

/**
 * Schedules for the composition root: the control the `schedule` commands use, and the
 * scheduler, whose runs go through `withCore`'s deps — the very core the listeners get.
 */
export function createSchedules(input: ScheduleControlDeps & {
  clock: Clock;
  stores: Pick<Store, 'schedules' | 'operations'>;
  owner: string;
  settings?: { graceMs?: number; intervalMs?: number; backupPollMs?: number } | undefined;
}) {
  const { stores, settings } = input;
  const graceMs = settings?.graceMs ?? DEFAULT_GRACE_MS;
  let runner: ReturnType<typeof createScheduleRunner> | undefined;
  const scheduler = createScheduler({
    store: stores.schedules,
    operations: stores.operations,
    slack: input.slack as Pick<SlackApi, 'postMessage'>,
    clock: input.clock,
    logger: input.logger.child({ component: 'scheduler' }),
    owner: input.owner,
    graceMs,
    run: (s, occurrence, attempt, signal) => {
      if (!runner) throw new Error('schedules: no core to run with yet');
      return runner(s, occurrence, attempt, signal);
    },
    ...(settings?.intervalMs ? { intervalMs: settings.intervalMs } : {}),
  });
  return {
    control: createScheduleControl({ ...input, graceMs, logger: input.logger.child({ component: 'schedules' }) }),
    scheduler,
    withCore<T extends Omit<ScheduleRunDeps, 'operations'>>(core: T): T {
      runner = createScheduleRunner({ ...core, operations: stores.operations, graceMs, ...(settings?.backupPollMs ? { backupPollMs: settings.backupPollMs } : {}) });
      return core;
    },
  };
}
