/**
 * What happens to change records besides a click on Confirm: Retry sync after a firewall
 * change was saved but not applied everywhere, the expiry of unconfirmed requests, and
 * recovery of changes a stopped bot left running.
 */
import { isCloudApiError } from '../cloud/errors.js';
import type { AuditOutcome } from '../domain/audit-entry.js';
import { describeCloudError, isRefusal } from '../views/cloud-error-text.js';
import { NOTHING_TO_SYNC, RETRY_RUNNING, RETRY_TAKEN, syncedAnswer, syncedSummary, syncFailedAgain } from '../views/click-views.js';
import type { Mrkdwn } from '../views/mrkdwn.js';
import { syncPending } from '../views/status-message.js';
import { STOPPED_BEFORE_SEND } from '../views/status-views.js';
import type { AnyOperation } from '../operations/types.js';
import type { OperationRecord } from '../store/types.js';
import type { ChangeFlowDeps, ClickAction, ClickOutcome, RightsUnknown } from './change-types.js';

/** What the flow shares with these steps. */
export interface FlowContext {
  deps: ChangeFlowDeps;
  opOf(r: OperationRecord): AnyOperation | undefined;
  /** What to tell a person refused this action now, if refused. */
  authorize(r: OperationRecord, op: AnyOperation, userId: string, action: ClickAction): Promise<Mrkdwn | undefined>;
  /** The same check, telling a refusal only because a user group could not be read (RightsUnknown) from the rules' own. */
  checkRights(r: OperationRecord, op: AnyOperation, userId: string, action: ClickAction): Promise<Mrkdwn | RightsUnknown | undefined>;
  audit(op: AnyOperation, r: OperationRecord, outcome: AuditOutcome, detail?: string): Promise<void>;
  editStatus(op: AnyOperation, r: OperationRecord, now: number): Promise<void>;
  /** Whether it waits for a second admin's approval here now, as the flow judges it (judged-as.ts). */
  needsApproval(op: AnyOperation, r: OperationRecord): boolean;
}

/**
 * Redeploys the security group of a change whose sync failed — never re-creating the rule.
 * The record is claimed first (failed → running, unchanged since read), so a double click sends one deploy.
 */
export async function retrySync(ctx: FlowContext, recordId: string, userId: string): Promise<ClickOutcome> {
  const { deps } = ctx;
  const record = await deps.store.get(recordId);
  const op = record && ctx.opOf(record);
  const group = op?.change?.syncGroup?.(record!.args as never);
  if (!record || !op || group === undefined) return { kind: 'tell', text: NOTHING_TO_SYNC };
  if (record.status === 'running') return { kind: 'tell', text: RETRY_RUNNING };
  if (!syncPending(record)) return { kind: 'tell', text: NOTHING_TO_SYNC };
  const refused = await ctx.authorize(record, op, userId, 'retry');
  if (refused) return { kind: 'tell', text: refused };
  // Recorded with the claim so the status line names the deploy this sends, not only the first request.
  const retried = { method: 'POST', path: `/security-groups/${group}/deploy` };
  // Unchanged since it was read: a second click that read "failed" before a first retry ran and
  // failed again must not claim it then and send a second deploy.
  const claimed = await deps.store.transition(recordId, {
    from: ['failed'],
    to: 'running',
    now: deps.clock.now(),
    unchangedSince: record.updatedAt,
    patch: { result: { ...record.result, retried } },
  });
  if (!claimed.ok) return { kind: 'tell', text: RETRY_TAKEN };
  await ctx.editStatus(op, claimed.record, deps.clock.now());
  try {
    await deps.cloudFor(record.account).securityGroups.deploy(group);
    const now = deps.clock.now();
    // The deploy was sent: a store that cannot record it now must not turn it into a failure
    // (nor into "nothing was sent", which is what a failing store otherwise tells the person).
    const synced = await deps.store
      .transition(recordId, {
        from: ['running'],
        to: 'succeeded',
        now,
        patch: { errorCode: null, errorMessage: null, result: { text: syncedSummary(userId), retried } },
      })
      .catch((error: unknown) => {
        deps.logger.error('the deploy was sent but its record could not be updated', { record: recordId, error });
        return { ok: false as const };
      });
    if (synced.ok) {
      await ctx.editStatus(op, synced.record, now);
      await ctx.audit(op, synced.record, 'succeeded', `retry sync by ${userId}: ${retried.method} ${retried.path}`);
    }
    return { kind: 'tell', text: syncedAnswer(group) };
  } catch (e) {
    const code = isCloudApiError(e) ? e.code : 'INTERNAL';
    const now = deps.clock.now();
    // The status and details are the deploy's, as its code and message are: the first failure's
    // (a 502 with its failed nodes) must not be told with the retry's code (execute.ts `failed`).
    const cloud = isCloudApiError(e)
      ? { errorStatus: e.status, ...(e.details ? { errorDetails: e.details } : {}), ...(e.retryAfterMs !== undefined ? { errorRetryAt: now + e.retryAfterMs } : {}) }
      : {};
    const back = await deps.store.transition(recordId, {
      from: ['running'],
      to: 'failed',
      now,
      // Whatever the deploy did, the change stays saved: Retry sync stays offered (a deploy only
      // redeploys the saved rules, so sending it again is safe) and the message says so.
      patch: { errorCode: code, errorMessage: e instanceof Error ? e.message : String(e), result: { retried, ...cloud, syncPending: true } },
    });
    if (back.ok) await ctx.editStatus(op, back.record, now);
    if (!isCloudApiError(e)) throw e;
    const t = describeCloudError(e, { mutation: true, saved: true });
    // A refusal, or the sync failing again, is a definite no; no answer or another 5xx is not.
    const definite = e.code === 'HYPERVISOR_SYNC_FAILED' || isRefusal(e);
    return { kind: 'tell', text: syncFailedAgain(t, definite) };
  }
}

/** Pending records past their time: marked expired and their messages edited. */
export async function expireDue(ctx: FlowContext): Promise<number> {
  const now = ctx.deps.clock.now();
  const expired = await ctx.deps.store.expireDue(now);
  for (const r of expired) {
    const op = ctx.opOf(r);
    if (!op?.change) continue;
    await ctx.editStatus(op, r, now);
    await ctx.audit(op, r, 'expired');
  }
  return expired.length;
}

/** How long a change may sit confirmed or running before it counts as interrupted. */
export const STALE_RUNNING_MS = 2 * 60_000;

/**
 * After a crash: a change left running is failed, its outcome unknown (its request may have
 * reached the cloud). One left confirmed was never sent — execute.ts moves it to running before
 * its request — so it is closed as such, not called unknown.
 */
export async function recoverInterrupted(ctx: FlowContext): Promise<number> {
  const { deps } = ctx;
  const now = deps.clock.now();
  // Another replica may be running a change right now: only one whose last move is older than
  // any run can take (a mutation times out in well under a minute) was left by a dead process.
  const staleBefore = now - (deps.staleRunningMs ?? STALE_RUNNING_MS);
  let n = 0;
  for (const r of await deps.store.listUnfinished()) {
    if (r.updatedAt > staleBefore) continue;
    // Waiting out an undo delay is not interrupted: nothing was sent, and undo-window.ts sends it.
    if (r.status === 'confirmed' && typeof r.sendAt === 'number') continue;
    const unsent = r.status === 'confirmed';
    const moved = unsent
      ? await deps.store.transition(r.id, {
          from: ['confirmed'],
          to: 'cancelled',
          now,
          patch: { errorCode: STOPPED_BEFORE_SEND, errorMessage: 'The bot stopped after the Confirm, before sending this; nothing was sent.' },
        })
      : await deps.store.transition(r.id, {
          from: ['running'],
          to: 'failed',
          now,
          patch: { errorCode: 'INTERRUPTED', errorMessage: 'The bot stopped while this was running; its outcome is unknown.' },
        });
    if (!moved.ok) continue;
    n++;
    const op = ctx.opOf(r);
    if (op?.change) {
      await ctx.editStatus(op, moved.record, now);
      if (unsent) await ctx.audit(op, moved.record, 'cancelled', 'the bot stopped after the Confirm and before sending it; nothing was sent');
      else await ctx.audit(op, moved.record, 'failed');
    }
  }
  return n;
}
