/**
 * Schedules as the `schedule` commands use them (issue 25). Creating one reads the command as
 * the slash command would and checks it as the person, here, now (a refusal is audited and
 * stores nothing); a destroy- or spend-tier command, or one the policy wants approved, posts
 * the change flow's confirmation card first and the schedule stays pending until it is
 * confirmed (the scheduler activates it: schedule/scheduler.ts). The card asks for a second
 * admin's approval when the command (or, with `--keep`, deleting backups) needs one here, and
 * only then (confirm/judged-as.ts). Each run is checked again (app/schedule-run.ts).
 */
import type { Access } from '../access/access.js';
import type { Clock } from '../clock.js';
import type { ChangeFlow } from '../confirm/change-types.js';
import type { Catalog } from '../operations/catalog.js';
import { formatInZone, isTimeZone, nextAfter, parseWhen } from '../operations/schedule-when.js';
import type { ScheduleControl } from '../operations/types.js';
import { SCHEDULES_PER_CHANNEL, type ScheduleStore } from '../store/schedule-types.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { Logger } from '../log.js';
import { md, val } from '../views/mrkdwn.js';
import { admit, type GuardDeps } from './guard.js';
import { readScheduled, scheduleWantsApproval } from './schedule-command.js';
import { CONFIRM_OPS } from '../operations/entries/schedule-confirm.js';
import { armConfirmed, confirmCardKey } from '../schedule/arm.js';
import { DEFAULT_GRACE_MS } from '../schedule/scheduler.js';
import type { OperationStore } from '../store/types.js';

export interface ScheduleControlDeps extends GuardDeps {
  /** Schedules, and the Confirm records of pending ones. */
  stores: { schedules: ScheduleStore; operations: Pick<OperationStore, 'get' | 'byDedupeKey' | 'transition'> };
  catalog: Catalog;
  access: Access;
  flow: Pick<ChangeFlow, 'start' | 'retell'>;
  slack: Pick<SlackApi, 'userTimeZone'>;
  clock: Pick<Clock, 'now'>;
  logger: Logger;
  /** SCHEDULE_GRACE_MS: how late a one-off confirmed after its time may still run. */
  graceMs?: number;
}

export function createScheduleControl(deps: ScheduleControlDeps): ScheduleControl {
  const { schedules: store, operations } = deps.stores;
  /** The person's Slack time zone; UTC (named so in the answer) when Slack gives none. */
  async function zoneOf(userId: string): Promise<string> {
    try {
      const tz = await deps.slack.userTimeZone?.(userId);
      if (tz && isTimeZone(tz)) return tz;
    } catch (error) {
      deps.logger.warn('could not read a time zone from Slack; using UTC', { error });
    }
    return 'UTC';
  }

  return {
    zoneTime: formatInZone,
    zoneOf,
    async create(input) {
      const read = readScheduled(input.command, deps.catalog);
      if (!read.ok) return { kind: 'invalid', problem: read.problem };
      const keep = input.keep ?? read.keep;
      if (keep !== undefined && read.op.id !== 'backup.create') return { kind: 'invalid', problem: md`${val('--keep')} goes with ${val('backup create')} only` };
      // Checked as the person, here, now: the same check (and audit of a refusal) a typed command gets.
      const admitted = await admit(deps, read.op, input.userId, input.channelId, read.masked, read.account);
      if (!admitted.ok) return { kind: 'refused', reply: admitted.reply };
      const tz = input.tz ?? (await zoneOf(input.userId));
      const now = deps.clock.now();
      const parsed = parseWhen(input.when, tz, now);
      if (!parsed.ok) return { kind: 'invalid', problem: md`${val(input.when)}: ${parsed.message}` };
      if ((await store.list(input.channelId)).length >= SCHEDULES_PER_CHANNEL) return { kind: 'full', max: SCHEDULES_PER_CHANNEL };
      const nextAt = nextAfter(parsed.when, now);
      const op = read.op;
      const del = keep !== undefined ? deps.catalog.byId('backup.delete') : undefined;
      // What the schedule stands for: its card is approved and clicked as these (confirm/judged-as.ts).
      const armed = del ? [op, del] : [op];
      const approval = scheduleWantsApproval(deps.access, armed, input.channelId, admitted.account);
      if (keep !== undefined) {
        // `--keep` deletes backups: the person needs that right here too, and the schedule a Confirm.
        const may = del ? await admit(deps, del, input.userId, input.channelId, {}, read.account) : undefined;
        if (!may?.ok) return may ? { kind: 'refused', reply: may.reply } : { kind: 'invalid', problem: md`backups cannot be deleted here` };
      }
      const confirmOp = op.change && (op.change.confirm || approval || keep !== undefined) ? CONFIRM_OPS[op.tier === 'billing' ? 'billing' : 'destroy'] : undefined;
      const record = await store.add({
        channelId: input.channelId,
        teamId: input.teamId ?? null,
        createdBy: input.userId,
        command: read.text,
        opId: op.id,
        when: parsed.when,
        keep: keep ?? null,
        status: confirmOp ? 'pending' : 'active',
        nextAt,
        now,
      });
      const next = nextAt === null ? null : formatInZone(nextAt, tz);
      if (!confirmOp) return { kind: 'created', record, next };
      // The change flow's card: Confirm (and approval where the policy wants it) arms the schedule.
      const outcome = await deps.flow.start({
        op: confirmOp,
        args: {
          id: record.id,
          what: `/cloud ${read.text}${keep !== undefined ? ` --keep ${keep}` : ''}`,
          when: `${parsed.when.text} (${tz})`,
          // A one-off's Confirm may come after its time: it says then whether the run is late or missed.
          ...(parsed.when.kind === 'once' ? { at: parsed.when.at, until: parsed.when.at + (deps.graceMs ?? DEFAULT_GRACE_MS) } : {}),
        },
        userId: input.userId,
        channelId: input.channelId,
        account: admitted.account,
        ...(input.teamId ? { teamId: input.teamId } : {}),
        dedupeKey: confirmCardKey(record.id),
        // Approved (and clicked) as what it arms, not as the card's tier: an approval the
        // command needs is given here, once, and the runs check for it (app/schedule-run.ts).
        judgedAs: armed,
      });
      if (outcome.kind !== 'posted') {
        await store.move(record.id, ['pending'], 'cancelled', deps.clock.now());
        return outcome.kind === 'tell' ? { kind: 'refused', reply: outcome.reply } : { kind: 'invalid', problem: md`the confirmation could not be posted; nothing was scheduled` };
      }
      const linked = await store.link(record.id, outcome.record.id, deps.clock.now());
      return { kind: 'created', record: linked ?? record, next, awaits: approval ? 'approval' : 'confirm' };
    },
    async list(channelId) {
      await armConfirmed(store, operations, deps.clock.now());
      return store.list(channelId);
    },
    async listVisible(userId) {
      await armConfirmed(store, operations, deps.clock.now());
      const all = await store.list(undefined);
      const listOp = deps.catalog.byId('schedules.list');
      const shown = await Promise.all(all.map(async (s) => s.createdBy === userId || (!!listOp && (await deps.access.check(userId, s.channelId, listOp)).ok)));
      return all.filter((_, i) => shown[i]);
    },
    async cancel(id, userId, channelId) {
      const record = await store.get(id);
      if (!record || record.channelId !== channelId || (record.status !== 'active' && record.status !== 'pending')) return { kind: 'none', id };
      if (record.createdBy !== userId) {
        // Someone else may stop it if they may run its command here themselves, on the account it names.
        const op = deps.catalog.byId(record.opId);
        if (op) {
          const read = readScheduled(record.command, deps.catalog);
          const admitted = await admit(deps, op, userId, channelId, {}, read.ok ? read.account : undefined);
          if (!admitted.ok) return { kind: 'refused', reply: admitted.reply };
        }
      }
      const moved = await store.move(id, ['active', 'pending'], 'cancelled', deps.clock.now());
      if (moved && record.status === 'pending' && moved.confirmRecord) {
        // Its Confirm card closes with it: a click there must not say a cancelled schedule was confirmed.
        const closed = await operations.transition(moved.confirmRecord, {
          from: ['pending'],
          to: 'cancelled',
          now: deps.clock.now(),
          patch: { errorCode: 'SCHEDULE_CANCELLED', errorMessage: 'the schedule was cancelled before it was confirmed' },
        });
        if (closed.ok) await deps.flow.retell(moved.confirmRecord, undefined).catch((error: unknown) => deps.logger.warn('could not edit a cancelled schedule’s card', { error }));
      }
      return moved ? { kind: 'cancelled', record: moved } : { kind: 'none', id };
    },
  };
}
