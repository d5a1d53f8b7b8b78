/**
 * Schedules (issue 25): a `/cloud` command run later, as the person who scheduled it, in this
 * channel. They act on the bot's own state (scope `bot`); the scheduled command itself is
 * checked as that person at creation (with its Confirm, and approval where the policy wants
 * it) and again at each run (app/schedule-control.ts, app/schedule-run.ts).
 */
import { z } from 'zod';
import { SCHEDULE_ID_PATTERN } from '../../store/schedule-types.js';
import { buildScheduleCancelled, buildScheduleCreated, buildScheduleList } from '../../views/schedule-views.js';
import { botEntries, channelControl, declinedKinds, flag, positional, rest, switchFlag } from '../define.js';
import { quote } from '../firewall-syntax.js';
import { timeZoneSchema } from '../schedule-when.js';

/** `--keep N`: how many of the newest backups a scheduled backup create keeps. */
export const KEEP_MAX = 100;
export const keepSchema = z.coerce.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be 1 or more (a backup is never deleted down to none)' }).max(KEEP_MAX, { error: `must be at most ${KEEP_MAX}` });

const scheduleId = z
  .string()
  .trim()
  .toLowerCase()
  .regex(SCHEDULE_ID_PATTERN, { error: (i) => `${quote(String(i.input).slice(0, 40))} is not a schedule id (see /cloud schedules)` });

const schedules = botEntries(channelControl('schedules'));

export const scheduleCreate = schedules.change({
  id: 'schedule.create',
  summary: 'Run a /cloud command later or repeatedly, as you, in this channel: a cron expression, daily 02:00, every sunday 03:00, in 2h or at 2026-12-01 03:00 (your Slack time zone unless --tz)',
  args: {
    command: positional('"command"', z.string().trim().min(1, { error: 'is empty' }).max(1000, { error: 'is too long (at most 1000 characters)' }), 'the /cloud command in quotes, e.g. "backup create web1"'),
    when: rest('when', z.string().trim().min(1).max(100, { error: 'is too long' }), 'a cron expression (0 2 * * *), daily HH:MM, every sunday HH:MM, in 2h, at YYYY-MM-DD HH:MM'),
    tz: flag('zone', timeZoneSchema.optional(), 'the time zone, e.g. Europe/Berlin (default: yours in Slack)'),
    keep: flag('N', keepSchema.optional(), 'with backup create: keep the newest N backups this schedule made, deleting its older unlocked ones'),
  },
  run: (c, { command, when, tz, keep }) =>
    c.schedules.create({ userId: c.userId, channelId: c.channelId, ...(c.teamId ? { teamId: c.teamId } : {}), command, when, ...(tz ? { tz } : {}), ...(keep ? { keep } : {}) }),
  render: (outcome) => buildScheduleCreated(outcome),
  declined: declinedKinds({ invalid: 'INVALID_INPUT', refused: 'ACCESS_DENIED', full: 'LIMIT_REACHED' }),
});

export const scheduleCancel = schedules.change({
  id: 'schedule.cancel',
  summary: 'Stop a schedule of this channel (its creator, or whoever may run its command here)',
  args: { id: positional('schedule-id', scheduleId, 'the id from /cloud schedules') },
  run: (c, { id }) => c.schedules.cancel(id, c.userId, c.channelId),
  render: (outcome) => buildScheduleCancelled(outcome),
  declined: declinedKinds({ none: 'NOT_FOUND', refused: 'ACCESS_DENIED' }),
});

export const scheduleList = schedules.read({
  id: 'schedules.list',
  summary: 'This channel’s schedules: next run and last result (`--all`: every channel)',
  args: { all: switchFlag('the schedules of every channel you may see, not only this one') },
  async run(c, { all }) {
    // Every channel's, as far as this person may see them (theirs, and those of channels where they may list schedules).
    return { list: all ? await c.schedules.listVisible(c.userId) : await c.schedules.list(c.channelId), zoneTime: c.schedules.zoneTime, channelId: all ? undefined : c.channelId };
  },
  render: ({ list, zoneTime, channelId }) => buildScheduleList(list, zoneTime, channelId ? { channelId } : 'every channel'),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const SCHEDULE_OPS = [scheduleCreate, scheduleCancel, scheduleList];
