/**
 * Schedules in Slack (issue 25): the answers to scheduling, listing and cancelling, and what a
 * run says in the channel when it cannot run (refused now, skipped after downtime). Every time
 * is shown with its zone named. Commands were typed by people: values.
 */
import type { ScheduleRecord } from '../store/schedule-types.js';
import type { Reply } from './types.js';
import { context, lineSections, section } from './blocks.js';
import { channelRef, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { plural } from './format.js';
import { groupsUnread } from './access-views.js';

/** `2026-12-01 03:00 Europe/Berlin` (the zone's wall clock, operations/schedule-when.ts). */
export type ZoneTime = (at: number, tz: string) => string;

export type ScheduleCreateOutcome =
  /** `awaits`: the card it waits for asks the requester's Confirm, or a second admin's approval. */
  | { kind: 'created'; record: ScheduleRecord; next: string | null; awaits?: 'confirm' | 'approval' }
  | { kind: 'invalid'; problem: Mrkdwn }
  | { kind: 'refused'; reply: Reply }
  | { kind: 'full'; max: number };

export type ScheduleCancelOutcome = { kind: 'cancelled'; record: ScheduleRecord } | { kind: 'none'; id: string } | { kind: 'refused'; reply: Reply };

const command = (s: Pick<ScheduleRecord, 'command'>): Mrkdwn => val(`/cloud ${s.command}`);
const whenText = (s: ScheduleRecord): Mrkdwn => md`${val(s.when.text)} (${val(s.when.tz)})`;
/** After a run that sent nothing: a repeating schedule's next run is checked again; a one-off has none. */
const nextChecked = (s: Pick<ScheduleRecord, 'when'>): Mrkdwn => (s.when.kind === 'once' ? md`` : md` The next run is checked again.`);

const say = (text: Mrkdwn, note?: Mrkdwn): Reply => ({ text, blocks: [section(text), ...(note ? [context(note)] : [])] });

export function buildScheduleCreated(o: ScheduleCreateOutcome): Reply {
  switch (o.kind) {
    case 'created': {
      const s = o.record;
      const next = o.next ? md`next run ${val(o.next)}` : md`no run left`;
      if (o.awaits) {
        const what = o.awaits === 'approval' ? md`a second admin’s approval` : md`its Confirm`;
        return say(
          md`:hourglass: Schedule ${val(s.id)}: ${command(s)} ${whenText(s)} waits for ${what} (the card in the channel); it is not active until then. Then: ${next}.`,
          o.awaits === 'approval'
            ? md`Each run is checked again as ${mention(s.createdBy)}, and as the admin who approves it, under the channel’s rules at that time.`
            : md`Each run is checked again as ${mention(s.createdBy)} under the channel’s rules at that time.`,
        );
      }
      return say(
        md`:calendar: Scheduled ${val(s.id)}: ${command(s)} ${whenText(s)}, ${next}${s.keep ? md`, keeping the newest ${plural(s.keep, md`backup`, md`backups`)}` : md``}.`,
        md`Each run is checked again as ${mention(s.createdBy)} under the channel’s rules at that time. ${val('/cloud schedules')} lists them; ${val(`/cloud schedule cancel ${s.id}`)} stops it.`,
      );
    }
    case 'invalid':
      return say(md`:grey_question: ${o.problem}`);
    case 'refused':
      return o.reply;
    case 'full':
      return say(md`:grey_question: This channel has ${o.max} schedules, the most it may have. Cancel one first (${val('/cloud schedules')} lists them).`);
  }
}

export function buildScheduleList(schedules: ScheduleRecord[], zoneTime: ZoneTime, scope: { channelId: string } | 'every channel'): Reply {
  if (schedules.length === 0) {
    return say(md`No schedules ${scope === 'every channel' ? md`anywhere` : md`in this channel`}. Add one with ${val('/cloud schedule "backup create web1 --keep 7" daily 02:00')}.`);
  }
  const lines = schedules.map((s) => {
    const state = s.status === 'pending' ? md`waits for its Confirm` : s.nextAt !== null ? md`next ${val(zoneTime(s.nextAt, s.when.tz))}` : md`no run left`;
    const last = s.lastAt !== null ? md`; last ${val(zoneTime(s.lastAt, s.when.tz))}: ${val(s.lastResult ?? 'unknown')}` : md``;
    const keep = s.keep ? md`, keeps ${s.keep}` : md``;
    return md`• ${val(s.id)} ${command(s)} ${whenText(s)}${keep}: ${state}${last} · by ${mention(s.createdBy)}`;
  });
  // The lines go in sections within Slack's limits ("…and N more" past them); the fallback
  // text only counts, as a list's does (views/alias-views.ts).
  const text = md`${plural(schedules.length, md`schedule`, md`schedules`)}${scope === 'every channel' ? md`` : md` in this channel`}`;
  return { text, blocks: [section(md`${text}:`), ...lineSections(lines, 45)] };
}

export function buildScheduleCancelled(o: ScheduleCancelOutcome): Reply {
  switch (o.kind) {
    case 'cancelled':
      return say(md`:wastebasket: Cancelled schedule ${val(o.record.id)} (${command(o.record)} ${whenText(o.record)}). Nothing more runs from it.`);
    case 'none':
      return say(md`:grey_question: No schedule ${val(o.id)} is open in this channel (${val('/cloud schedules')} lists them).`);
    case 'refused':
      return o.reply;
  }
}

/** One schedule on the App Home tab: its command, when, channel and next run. */
export function scheduleHomeLine(s: ScheduleRecord, zoneTime: ZoneTime): Mrkdwn {
  const next = s.status === 'pending' ? md`waits for its Confirm` : s.nextAt !== null ? md`next ${val(zoneTime(s.nextAt, s.when.tz))}` : md`no run left`;
  return md`• ${val(s.id)} ${command(s)} ${whenText(s)} in ${channelRef(s.channelId)} · ${next} · by ${mention(s.createdBy)}`;
}

/** In the channel: a run that sent nothing, and why. */
export function buildRunRefused(s: ScheduleRecord, at: string, why: Mrkdwn): Reply {
  return say(md`:no_entry: Scheduled run of ${command(s)} (${val(s.id)}, ${val(at)}, scheduled by ${mention(s.createdBy)}) sent nothing: ${why}`);
}

/**
 * Why a run sent nothing when a user group that may give its creator the right (or the admin
 * who approved the schedule theirs: `{ approvedBy }`) could not be read until the run was too
 * late to start: no verdict on their role, and nobody retries a scheduled run by hand (the
 * access refusal's "try again in a moment" would not fit).
 */
export function buildRunUnchecked(s: ScheduleRecord, groups: readonly string[], right: 'run' | 'delete backups' | { approvedBy: string }, graceMinutes: number): Mrkdwn {
  const whom = typeof right === 'object' ? md`${mention(right.approvedBy)}, who approved it,` : mention(s.createdBy);
  const what = typeof right === 'object' ? md`to approve it` : right === 'run' ? md`to run it` : md`to delete backups with it`;
  return md`${groupsUnread(groups)}, which may give ${whom} the right ${what} here, so the bot could not tell before the run was more than ${plural(graceMinutes, md`minute`, md`minutes`)} late.${nextChecked(s)}`;
}

/**
 * Why a run sent nothing when the admin who approved its schedule may no longer approve it here
 * (their role, or what the channel and account allow them, under the rules in force now): the
 * approval it runs on no longer holds, and only a new one — a new schedule — gives it back.
 */
export function buildApprovalWithdrawn(s: ScheduleRecord, approvedBy: string): Mrkdwn {
  const why = md`the approval it runs on was withdrawn: ${mention(approvedBy)}, who approved it, may no longer approve it here under the rules in force now (${val('/cloud policy')} shows them).`;
  if (s.when.kind === 'once') return md`${why} It was a one-off: schedule it again for an admin to approve if it should still be done.`;
  return md`${why} To keep it, schedule it again for an admin to approve, and cancel this one with ${val(`/cloud schedule cancel ${s.id}`)}; or just cancel it.${nextChecked(s)}`;
}

/** In the channel: runs missed while the bot was down, too late to run now. */
export function buildRunsSkipped(s: ScheduleRecord, missed: number, last: string, graceMinutes: number): Reply {
  return say(
    md`:fast_forward: Skipped ${plural(missed, md`scheduled run`, md`scheduled runs`)} of ${command(s)} (${val(s.id)}, scheduled by ${mention(s.createdBy)}): the bot was down at ${val(last)}${missed > 1 ? md` and before` : md``}, and a run more than ${plural(graceMinutes, md`minute`, md`minutes`)} late is not made up. Nothing was sent.`,
  );
}

/**
 * In the channel: a run whose replica stopped, found by another only after the grace (every
 * replica was down). A change it had not sent is not started that late; a read may have
 * answered before its replica stopped, so only a change says nothing was sent.
 */
export function buildTakeoverSkipped(s: ScheduleRecord, at: string, graceMinutes: number, change: boolean): Reply {
  return say(
    md`:fast_forward: Skipped the scheduled run of ${command(s)} (${val(s.id)}, ${val(at)}, scheduled by ${mention(s.createdBy)}): the bot running it stopped${change ? md` before sending the change` : md``}, and it is now more than ${plural(graceMinutes, md`minute`, md`minutes`)} late, which is not made up.${change ? md` Nothing was sent.` : md``}`,
  );
}

/** Above a scheduled read's answer in the channel. */
export function buildRunHeader(s: ScheduleRecord, at: string): Mrkdwn {
  return md`:calendar: Scheduled by ${mention(s.createdBy)} (${val(s.id)}, ${val(at)}): ${command(s)}`;
}
