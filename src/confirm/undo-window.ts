/**
 * The undo window (issue 25 item 4): a destroy confirmed where the policy sets `undo_delay`
 * stays `confirmed` with a `sendAt` in the store. Nothing reaches the cloud before then: the
 * only way to `running` is the executor's compare-and-set with `requireDue`, so an early
 * tick, a second replica or a restart cannot send it early, and of several senders one wins.
 * Undo is the other way out (confirmed → cancelled), and the same compare-and-set decides a
 * race between them.
 */
import { buildClickAnswer } from '../views/change-notices.js';
import { UNDO_TOO_LATE, UNKNOWN_REQUEST } from '../views/click-views.js';
import type { Mrkdwn } from '../views/mrkdwn.js';
import type { OperationRecord } from '../store/types.js';
import type { ChangeFlow, ClickOutcome } from './change-types.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Execute } from './execute.js';
import type { FlowContext } from './upkeep.js';

/** How often a waiting change's message is edited and its time checked (chat.update stays far below ~1/s per channel). */
export const UNDO_TICK_MS = 10_000;

/** A change whose delay ended this long ago while no bot ran is not sent late: it expires, unsent. */
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

/**
 * One pass over the waiting changes: those due are sent (once: the executor claims them),
 * those long overdue (no bot ran when they were due) expire unsent, the others have their
 * countdown edited. Every replica runs it; returns how many were sent.
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
      const late = await deps.store.transition(r.id, { from: ['confirmed'], to: 'expired', now, requireDue: true, patch: { result: { lateBy: now - r.sendAt! } } });
      if (late.ok) {
        await ctx.editStatus(op, late.record, now);
        await ctx.audit(op, late.record, 'expired', 'its undo window ended while no bot was running; nothing was sent');
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
