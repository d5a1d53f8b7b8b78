/**
 * The undo window (issue 25 item 4): a destroy confirmed where the policy sets `undo_delay`
 * stays `confirmed` with a `sendAt` in the store. Nothing reaches the cloud before then: the
 * only way to `running` is the executor's compare-and-set with `requireDue`, so an early
 * tick, a second replica or a restart cannot send it early, and of several senders one wins.
 * Undo is the other way out (confirmed → cancelled), and the same compare-and-set decides a
 * race between them. When the delay ends the change is checked again, as a schedule's run is,
 * under the rules in force then: one its confirmer or approver may no longer make is not sent.
 * A check Slack cannot answer (a user group that gives the right could not be read) is no
 * verdict: the change waits, unsent, and is checked again each pass until UNDO_LATE_LIMIT_MS.
 */
import { buildClickAnswer } from '../views/change-notices.js';
import { UNDO_TOO_LATE, UNKNOWN_REQUEST } from '../views/click-views.js';
import { auditWords, type Mrkdwn } from '../views/mrkdwn.js';
import { APPROVAL_NOW_REQUIRED, RIGHTS_UNCHECKED, RIGHTS_WITHDRAWN, uncheckedFor } from '../views/status-views.js';
import type { AnyOperation } from '../operations/types.js';
import type { OperationPatch, OperationRecord } from '../store/types.js';
import type { ChangeFlow, ClickOutcome } from './change-types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Execute } from './execute.js';
import type { FlowContext } from './upkeep.js';

/** How often a waiting change's message is edited and its time checked (chat.update stays far below ~1/s per channel). */
export const UNDO_TICK_MS = 10_000;

/** A change whose delay ended this long ago (no bot ran, or its rights could not be checked) is not sent late. */
export const UNDO_LATE_LIMIT_MS = 10 * 60_000;

/** Undo pressed once the change left its window: sent already (or being sent), or taken back. */
function tooLate(record: OperationRecord | undefined, userId: string): Mrkdwn {
  if (record && (record.status === 'running' || record.status === 'succeeded' || record.status === 'failed')) return UNDO_TOO_LATE;
  return buildClickAnswer(record, userId, 'wrong_status');
}

const waiting = (r: OperationRecord): boolean => r.status === 'confirmed' && typeof r.sendAt === 'number';

/**
 * Takes a waiting change back. Allowed to the requester, the confirmer, and anyone whose role
 * may make this change here now (an admin, for a destroy); anyone else is told who may.
 */
export async function undo(ctx: FlowContext, recordId: string, userId: string): Promise<ClickOutcome> {
  const { deps } = ctx;
  const record = await deps.store.get(recordId);
  const op = record && ctx.opOf(record);
  if (!record || !op?.change) return { kind: 'tell', text: UNKNOWN_REQUEST };
  if (!waiting(record)) return { kind: 'tell', text: tooLate(record, userId) };
  const own = userId === record.requestedBy || userId === record.confirmedBy;
  const refused = own ? undefined : await ctx.authorize(record, op, userId, 'undo');
  if (refused) return { kind: 'tell', text: refused };
  const now = deps.clock.now();
  const taken = await deps.store.transition(recordId, { from: ['confirmed'], to: 'cancelled', now, patch: { result: { undoneBy: userId } } });
  if (!taken.ok) return { kind: 'tell', text: tooLate(taken.record, userId) };
  await ctx.editStatus(op, taken.record, now);
  await ctx.audit(op, taken.record, 'cancelled', `taken back by ${userId} in the undo window; nothing was sent`);
  return { kind: 'done' };
}

/** Why a due change is not sent now: closed by the rules, or held because a user group could not be read. */
type NotNow = { kind: 'closed'; patch: OperationPatch; detail: string } | { kind: 'unchecked'; who: string; unread: readonly string[] };

/**
 * Why a due change must not be sent now, if it must not: its confirmer (and approver, who must
 * still be an admin) may no longer make it here, or the rules now want an approval it never had.
 * A refusal only because a user group could not be read says so: nobody's right was seen gone.
 */
async function notAllowedNow(ctx: FlowContext, op: AnyOperation, r: OperationRecord): Promise<NotNow | undefined> {
  const confirmer = r.confirmedBy ?? r.requestedBy;
  // An approver's click confirmed too: checked once, as an approver.
  const checks: [string, 'confirm' | 'approve'][] = [[confirmer, r.approvedBy === confirmer ? 'approve' : 'confirm']];
  if (r.approvedBy && r.approvedBy !== confirmer) checks.push([r.approvedBy, 'approve']);
  let unchecked: NotNow | undefined;
  for (const [who, action] of checks) {
    const refused = await ctx.checkRights(r, op, who, action);
    if (!refused) continue;
    if (typeof refused !== 'string') {
      unchecked ??= { kind: 'unchecked', who, unread: refused.unread };
      continue;
    }
    // The refusal is worded to the person; the audit keeps its rule, without markup.
    const why = auditWords(refused);
    return {
      kind: 'closed',
      patch: { errorCode: RIGHTS_WITHDRAWN, result: { withdrawnFrom: who } },
      detail: `not sent: ${who} may no longer make this change here (checked again when its undo window ended; they would be told: ${why})`,
    };
  }
  if (!r.approvedBy && ctx.needsApproval(op, r)) {
    return {
      kind: 'closed',
      patch: { errorCode: APPROVAL_NOW_REQUIRED },
      detail: 'not sent: the channel’s rules now want a second admin’s approval, which this change never had (checked again when its undo window ended)',
    };
  }
  return unchecked;
}

/**
 * Marks a due change as waiting for its rights to be checked (once, or when whose or which
 * groups change), so its message says why it is not sent and, past the late limit, why it closed.
 */
async function holdUnchecked(ctx: FlowContext, op: AnyOperation, r: OperationRecord, held: { who: string; unread: readonly string[] }, now: number): Promise<void> {
  const seen = uncheckedFor(r);
  if (seen && seen.who === held.who && seen.groups.join() === held.unread.join()) return;
  const result = { ...(r.result ?? {}), uncheckedFor: held.who, unreadGroups: [...held.unread] };
  // requireDue and from confirmed: an Undo or a replica that sent it meanwhile wins.
  const marked = await ctx.deps.store.transition(r.id, { from: ['confirmed'], to: 'confirmed', now, requireDue: true, patch: { result } });
  if (!marked.ok) return;
  ctx.deps.logger.warn('a due change waits: a user group that may give the right to make it could not be read', { operation: r.id, user: held.who, groups: held.unread });
  await ctx.editStatus(op, marked.record, now);
}

/** Closes a change long past its send time, unsent: it could not be checked in time, or no bot ran when it was due. */
async function closeLate(ctx: FlowContext, op: AnyOperation, r: OperationRecord, now: number): Promise<void> {
  const unchecked = uncheckedFor(r);
  const lateBy = now - r.sendAt!;
  const closed = unchecked
    ? await ctx.deps.store.transition(r.id, { from: ['confirmed'], to: 'cancelled', now, requireDue: true, patch: { errorCode: RIGHTS_UNCHECKED, result: { ...r.result, lateBy } } })
    : await ctx.deps.store.transition(r.id, { from: ['confirmed'], to: 'expired', now, requireDue: true, patch: { result: { lateBy } } });
  if (!closed.ok) return;
  await ctx.editStatus(op, closed.record, now);
  if (unchecked) {
    const groups = unchecked.groups.join(', ');
    await ctx.audit(op, closed.record, 'cancelled', `not sent: Slack did not let the bot read user group ${groups} to check that ${unchecked.who} may still make this change here, and it was ${Math.round(lateBy / 1000)} s past its send time; nothing was sent`);
  } else {
    await ctx.audit(op, closed.record, 'expired', 'its undo window ended while no bot was running; nothing was sent');
  }
}

/**
 * One pass over the waiting changes: those due are sent (once: the executor claims them),
 * those long overdue (no bot ran when they were due, or their rights could not be checked)
 * close unsent, those whose people lost the right meanwhile are closed unsent, those whose
 * rights cannot be checked now wait for the next pass, the others have their countdown
 * edited. Every replica runs it; returns how many were sent.
 */
export async function sendDue(ctx: FlowContext, execute: Execute): Promise<number> {
  const { deps } = ctx;
  let sent = 0;
  for (const r of (await deps.store.listUnfinished()).filter(waiting)) {
    const op = ctx.opOf(r);
    if (!op?.change) continue;
    const now = deps.clock.now();
    if (now < r.sendAt!) {
      await ctx.editStatus(op, r, now);
      continue;
    }
    if (now - r.sendAt! > UNDO_LATE_LIMIT_MS) {
      await closeLate(ctx, op, r, now);
      continue;
    }
    const refused = await notAllowedNow(ctx, op, r);
    if (refused?.kind === 'unchecked') {
      // No verdict: neither sent nor closed. Failed group reads are not cached, so the next pass reads again.
      await holdUnchecked(ctx, op, r, refused, now);
      continue;
    }
    if (refused) {
      // requireDue as the send's claim: an Undo or another replica's pass racing this one is decided by the store.
      const closed = await deps.store.transition(r.id, { from: ['confirmed'], to: 'cancelled', now, requireDue: true, patch: refused.patch });
      if (closed.ok) {
        await ctx.editStatus(op, closed.record, now);
        await ctx.audit(op, closed.record, 'cancelled', refused.detail);
      }
      continue;
    }
    const done = await execute(op, r, r.confirmedBy ?? r.requestedBy);
    if (done.record.status !== 'confirmed') sent++;
  }
  return sent;
}

/** Sends changes whose undo delay ended, now and every UNDO_TICK_MS of the clock, until `signal` aborts. */
export async function runUndoWindow(flow: Pick<ChangeFlow, 'sendDue'>, clock: Clock, logger: Pick<Logger, 'error'>, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    await flow.sendDue().catch((error: unknown) => logger.error('undo window sweep failed', { error }));
    try {
      await clock.sleep(UNDO_TICK_MS, signal);
    } catch {
      return;
    }
  }
}
