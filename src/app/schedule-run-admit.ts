/**
 * Whether a schedule's run may go ahead now (issue 25), decided before anything is started: the
 * stored command is read again, its creator checked under the channel's rules in force now, the
 * admin who approved it checked again when those rules still want an approval, and with
 * `--keep` the creator's right to delete backups. A user group Slack would not let the bot read
 * is asked again within the grace, never guessed. Refusals that end the run are audited here
 * (admit audits the creator's); schedule-run.ts posts the `why` in the channel.
 */
import type { SlackApi } from '../chat/slack-api.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import type { ScheduleRecord } from '../store/schedule-types.js';
import { auditWords, md, type Mrkdwn } from '../views/mrkdwn.js';
import { buildApprovalWithdrawn, buildRunUnchecked } from '../views/schedule-views.js';
import { APPROVAL_NOW_REQUIRED, RIGHTS_UNCHECKED, RIGHTS_WITHDRAWN } from '../views/status-views.js';
import { auditEntry } from '../audit/entry.js';
import { admit, type Admission, type GuardedOp } from './guard.js';
import type { CommandCoreDeps } from './run-command.js';
import { readScheduled, scheduleWantsApproval, type ScheduledCommand } from './schedule-command.js';
import type { RetentionDeps } from './backup-retention.js';

export interface ScheduleRunDeps extends CommandCoreDeps {
  slack: CommandCoreDeps['slack'] & Pick<SlackApi, 'postMessage'>;
  /** The Confirm records of schedules that needed one (who approved); a stopped run's record found and closed. */
  operations: Pick<OperationStore, 'get' | 'transition' | 'byDedupeKey' | 'create' | 'listDuring'>;
  /** SCHEDULE_GRACE_MS: a run taken over later than this after its time starts nothing it had not sent. */
  graceMs?: number;
  /** How often a `--keep` run looks for its new backup to finish (default backup-retention.ts). */
  backupPollMs?: number;
}

/** How often a run held only by a user group Slack did not let the bot read asks again. */
export const RIGHTS_RECHECK_MS = 30_000;
/** The result of a run refused because Slack never answered for a user group within the grace. */
export const REFUSED_UNCHECKED = 'refused: could not check rights';
/** The same, for the right of the admin who approved the schedule. */
export const REFUSED_APPROVER_UNCHECKED = `${REFUSED_UNCHECKED} of its approver`;
/** The result of a run refused because the admin who approved its schedule may no longer approve it here. */
export const REFUSED_APPROVAL_WITHDRAWN = 'refused: approval withdrawn; schedule it again to have it approved, or cancel it';

/** A run that may go ahead, with what it goes ahead on; or why not, and its result. */
export type RunAdmission =
  | {
      ok: true;
      read: Extract<ScheduledCommand, { ok: true }>;
      admitted: Extract<Admission, { ok: true }>;
      /** The schedule's Confirm record (who confirmed and approved it), when it needed one. */
      confirm: OperationRecord | undefined;
      /** `--keep` of a backup create: what its retention runs on. */
      retention: RetentionDeps | undefined;
    }
  | { ok: false; why: Mrkdwn; result: string };

/** The run of `s` due at `occurrence` (`at`: that moment as the schedule's zone reads it). */
export async function admitRun(deps: ScheduleRunDeps, s: ScheduleRecord, occurrence: number, at: string, graceMs: number, signal?: AbortSignal): Promise<RunAdmission> {
  const refused = (why: Mrkdwn, result: string): RunAdmission => ({ ok: false, why, result });
  const graceMinutes = Math.round(graceMs / 60_000);
  const read = readScheduled(s.command, deps.catalog);
  if (!read.ok) return refused(read.problem, 'not run: the command no longer reads');
  const { op } = read;
  /**
   * Asks `check` again while its only answer is that a user group could not be read, and the
   * run is within the grace: that is no verdict, and a Slack hiccup must not skip a nightly
   * run. Nothing is started before this returns, so the wait sends nothing twice. The lease
   * needs no cap: the scheduler renews it at every look while the run lasts. A stopping
   * replica's sleep throws, so the run ends as a stopped one does and is taken over.
   * Returns the last answer (still unread past the grace: the caller says so).
   */
  const untilKnown = async <T>(check: () => Promise<T>, unreadIn: (answer: T) => readonly string[] | undefined, whose: 'creator' | 'approver'): Promise<T> => {
    for (let waited = false; ; waited = true) {
      const answer = await check();
      const unread = unreadIn(answer);
      const left = occurrence + graceMs - deps.clock.now();
      if (!unread || left <= 0) return answer;
      if (!waited) deps.logger.warn(`a scheduled run waits: a user group that may give its ${whose} the right could not be read`, { schedule: s.id, occurrence, groups: unread });
      await deps.clock.sleep(Math.min(RIGHTS_RECHECK_MS, left), signal);
    }
  };
  /** Checked as its creator, under the rules in force now (a refusal is audited by admit). */
  const admitWhenKnown = async (o: GuardedOp, args: Record<string, unknown>): Promise<Admission> => {
    // Not audited while it may still be waited out: only the answer the run ends with is.
    const a = await untilKnown(() => admit({ access: deps.access }, o, s.createdBy, s.channelId, args, read.account), (x) => (x.ok ? undefined : x.unread), 'creator');
    return a.ok ? a : admit(deps, o, s.createdBy, s.channelId, args, read.account);
  };
  const admitted = await admitWhenKnown(op, read.masked);
  if (!admitted.ok) {
    return admitted.unread ? refused(buildRunUnchecked(s, admitted.unread, 'run', graceMinutes), REFUSED_UNCHECKED) : refused(admitted.reply.text, 'refused');
  }
  const confirm = s.confirmRecord ? await deps.operations.get(s.confirmRecord) : undefined;
  const keep = s.keep ?? undefined;
  const retention: RetentionDeps | undefined = keep !== undefined && op.id === 'backup.create' ? { ...deps, schedule: s, occurrence, account: admitted.account, args: read.args, ...(signal ? { signal } : {}) } : undefined;
  const del = retention ? deps.catalog.byId('backup.delete') : undefined;
  // Its deletions too: a schedule confirmed alone does not delete backups once deleting needs an approval.
  const wantsApproval = scheduleWantsApproval(deps.access, del ? [op, del] : [op], s.channelId, admitted.account);
  if (wantsApproval && !confirm?.approvedBy) {
    // Audited as the undo window audits the same refusal of a single change (APPROVAL_NOW_REQUIRED).
    await deps.auditor?.record({
      ...auditEntry({
        op,
        userId: s.createdBy,
        channelId: s.channelId,
        args: read.masked,
        account: admitted.account,
        outcome: 'refused',
        errorCode: APPROVAL_NOW_REQUIRED,
        detail: `scheduled run (${at}) not sent: the channel's rules now want an admin's approval, which schedule ${s.id} never had; nothing was sent`,
      }),
      ...(confirm?.confirmedBy ? { confirmedBy: confirm.confirmedBy } : {}),
    });
    return refused(md`the channel’s rules now want an admin’s approval for this, which the schedule never had. Schedule it again to have it approved.`, 'refused: needs approval');
  }
  if (wantsApproval && confirm?.approvedBy) {
    /**
     * The run rests on that approval: its approver is checked again, as an approver, under the
     * rules in force now (their admin role here, and what the channel and account allow), as
     * the undo window checks a change's approver when its delay ends. Asked of the card they
     * approved (so as the command and, with `--keep`, backup delete), on the account the run
     * goes to. When the rules no longer want an approval the run rests on its creator alone,
     * as a schedule made now would, and the approver is not asked.
     */
    const approvedBy = confirm.approvedBy;
    const card = { ...confirm, channelId: s.channelId, account: admitted.account };
    const held = await untilKnown(() => deps.flow.recheck(card, approvedBy, 'approve'), (x) => (typeof x === 'object' ? x.unread : undefined), 'approver');
    if (held !== undefined) {
      const audited = (errorCode: string, detail: string) =>
        deps.auditor?.record({
          ...auditEntry({ op, userId: s.createdBy, channelId: s.channelId, args: read.masked, account: admitted.account, outcome: 'refused', errorCode, detail: `scheduled run (${at}) ${detail}` }),
          confirmedBy: confirm.confirmedBy,
          approvedBy,
        });
      if (typeof held === 'object') {
        await audited(
          RIGHTS_UNCHECKED,
          `not sent: Slack did not let the bot read user group ${held.unread.join(', ')} to check that ${approvedBy}, who approved schedule ${s.id}, may still approve it here, and the run was past its grace; nothing was sent`,
        );
        return refused(buildRunUnchecked(s, held.unread, { approvedBy }, graceMinutes), REFUSED_APPROVER_UNCHECKED);
      }
      await audited(
        RIGHTS_WITHDRAWN,
        `not sent: ${approvedBy}, who approved schedule ${s.id}, may no longer approve it here (checked again at the run, under the rules in force then; they would be told: ${auditWords(held)})`,
      );
      return refused(buildApprovalWithdrawn(s, approvedBy), REFUSED_APPROVAL_WITHDRAWN);
    }
  }
  if (retention) {
    // Deleting needs the creator's right to delete backups here, now.
    const may = del ? await admitWhenKnown(del, {}) : undefined;
    if (may && !may.ok && may.unread) return refused(buildRunUnchecked(s, may.unread, 'delete backups', graceMinutes), `${REFUSED_UNCHECKED} to delete backups`);
    if (!may?.ok) return refused(may ? may.reply.text : md`backup delete is not in the catalog`, 'refused: may not delete backups');
  }

  return { ok: true, read, admitted, confirm, retention };
}
