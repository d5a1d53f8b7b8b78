/**
 * How a change moves (DESIGN "Interaction rules"): look first (precheck), post one status
 * message in the channel, wait for a one-time Confirm where the catalog asks for one, send the
 * request exactly once, and edit the message as the record moves
 * pending → confirmed → running → succeeded | failed (or cancelled | expired).
 *
 * "Exactly once" rests on the store: every move is a compare-and-set, so of two clicks, a
 * retried delivery or a second replica, one wins and the others are told who acted.
 */
import { createHash } from 'node:crypto';
import { maskedRequest, splitSecrets } from '../access/secrets.js';
import { lookedUp } from '../operations/looked-up.js';
import { typedMatches } from '../operations/typed-confirm.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { OperationRecord } from '../store/types.js';
import { buildClickAnswer } from '../views/change-notices.js';
import { onlyRequesterMay, OWN_REQUEST_NEEDS_APPROVAL, STEP_APPROVAL_UNVERIFIED, typedMismatch, UNKNOWN_REQUEST } from '../views/click-views.js';
import { createStatusEditor, type EditFailure } from './status-message.js';
import { renderStatus, storedRequest, successLook, type RenderOptions } from '../views/status-message.js';
import { buildOutcomeNotShown } from '../views/slack-failure-views.js';
import { expireDue, recoverInterrupted, retrySync, type FlowContext } from './upkeep.js';
import { createExecutor } from './execute.js';
import { createStart } from './start-change.js';
import { sendDue, undo } from './undo-window.js';
import { approvalNeeded, judgedAs } from './judged-as.js';
import { auditEntry } from '../audit/entry.js';
import type { AuditOutcome } from '../domain/audit-entry.js';

import type { ChangeFlow, ChangeFlowDeps, ClickAction, ClickOutcome, RightsUnknown } from './change-types.js';
import type { Mrkdwn } from '../views/mrkdwn.js';

export type { ChangeFlow, ChangeFlowDeps, ChangeRequest, ClickOutcome, StartOutcome } from './change-types.js';

export function createChangeFlow(deps: ChangeFlowDeps): ChangeFlow {
  const ttl = deps.confirmTtlMs ?? 10 * 60_000;
  const opOf = (r: OperationRecord) => deps.catalog.byId(r.opId);
  const byId = (id: string) => deps.catalog.byId(id);
  const rule = deps.needsApproval ?? (() => false);
  // A card judged as other operations (judged-as.ts) waits for approval, and is clicked, as they would be.
  const needsApproval = (op: AnyOperation, r: Pick<OperationRecord, 'channelId' | 'account' | 'facts'>) => approvalNeeded(op, r, rule, byId);
  const authorizeOne =
    deps.authorize ??
    (async (r: OperationRecord, _op: AnyOperation, u: string, action: ClickAction) => (r.requestedBy === u ? undefined : onlyRequesterMay(r.requestedBy, action)));
  // Every operation it is judged as: a refusal by the rules wins over one only because a group could not be read.
  const checkRights = async (r: OperationRecord, op: AnyOperation, u: string, action: ClickAction, click = false): Promise<Mrkdwn | RightsUnknown | undefined> => {
    let unknown: RightsUnknown | undefined;
    for (const o of judgedAs(op, r.facts, byId)) {
      const refused = await authorizeOne(r, o, u, action, click);
      if (typeof refused === 'string') return refused;
      unknown ??= refused;
    }
    return unknown;
  };
  // A person's click: a refusal is audited (by deps.authorize), unlike the bot's own checks again.
  const authorize = async (r: OperationRecord, op: AnyOperation, u: string, action: ClickAction) => {
    const refused = await checkRights(r, op, u, action, true);
    return typeof refused === 'object' ? refused.text : refused;
  };
  /**
   * One audit entry for a record's move; arguments are stored without secrets already. The
   * request is the one stored with the record; a record made before requests were stored has
   * it described here (from its arguments, as then), so the trail still names it.
   */
  const audit = (op: AnyOperation, r: OperationRecord, outcome: AuditOutcome, detail?: string) =>
    deps.auditor?.record(
      auditEntry({
        op,
        userId: r.requestedBy,
        channelId: r.channelId,
        args: r.args,
        outcome,
        record: r,
        ...(detail ? { detail } : op.change?.local ? {} : { request: storedRequest(r) ?? maskedRequest(op, r.args) }),
      }),
    ) ?? Promise.resolve();
  const options = (op: AnyOperation, r: Pick<OperationRecord, 'channelId' | 'account' | 'args' | 'facts'>): RenderOptions => {
    const account = deps.accountLabel?.(r.account);
    return { approval: needsApproval(op, r), ...(account ? { account } : {}), lookedUp: lookedUp(op, r.args) };
  };
  const status = (op: AnyOperation, r: OperationRecord, now: number) => renderStatus(op, r, now, options(op, r));
  const editor = createStatusEditor(deps);
  const editStatus = (op: AnyOperation, r: OperationRecord, now: number, extra: Pick<RenderOptions, 'underway' | 'handling'> = {}) =>
    editor(op, r, now, { ...options(op, r), ...extra });
  const ctx: FlowContext = { deps, opOf, authorize, checkRights, audit, needsApproval, editStatus: (op, r, now) => editStatus(op, r, now).then(() => undefined) };
  /** The record's state as a private reply, when its status message could not be edited. */
  const unseen = (op: AnyOperation, r: OperationRecord, failure: EditFailure | undefined): Reply | undefined =>
    failure ? buildOutcomeNotShown(status(op, r, deps.clock.now()), failure.code, failure.unavailable) : undefined;

  const execute = createExecutor({ deps, audit, editStatus, unseen });

  async function claimAnswer(recordId: string, userId: string, record: OperationRecord | undefined, reason: string): Promise<ClickOutcome> {
    return { kind: 'tell', text: buildClickAnswer(record, userId, reason, record && successLook(opOf(record), record), deps.clock.now()) };
  }

  return {
    start: createStart({ deps, ttlMs: ttl, needsApproval, audit, status, editStatus, execute }),

    async confirm(recordId, userId, typed) {
      const record = await deps.store.get(recordId);
      const op = record && opOf(record);
      if (!record || !op?.change) return { kind: 'tell', text: UNKNOWN_REQUEST };
      if (record.status !== 'pending') return claimAnswer(recordId, userId, record, 'wrong_status');
      const approval = needsApproval(op, record);
      if (approval && userId === record.requestedBy) {
        return { kind: 'tell', text: OWN_REQUEST_NEEDS_APPROVAL };
      }
      // A reload may ask for approval after a step's card was posted: still not on an unverified requester.
      if (approval && typeof record.facts.via === 'string') return { kind: 'tell', text: STEP_APPROVAL_UNVERIFIED };
      const refused = await authorize(record, op, userId, approval ? 'approve' : 'confirm');
      if (refused) return { kind: 'tell', text: refused };
      const expected = op.change.typeToConfirm?.(record.args as never, record.facts);
      if (expected && typed === undefined) {
        return { kind: 'type-to-confirm', expected, what: op.change.describe(record.args as never, record.facts).title };
      }
      if (expected && !typedMatches(typed, expected)) return { kind: 'tell', text: typedMismatch(expected) };
      const now = deps.clock.now();
      // An undo delay is set in the same move as the Confirm: a crash between them cannot send it early.
      const delay = deps.undoDelay?.(op, record) ?? 0;
      const claimed = await deps.store.transition(recordId, {
        from: ['pending'],
        to: 'confirmed',
        now,
        requireUnexpired: true,
        patch: { confirmedBy: userId, confirmedAt: now, ...(approval ? { approvedBy: userId, approvedAt: now } : {}), ...(delay > 0 ? { sendAt: now + delay } : {}) },
      });
      if (!claimed.ok) {
        if (claimed.reason === 'expired' && claimed.record?.status === 'pending') {
          const expired = await deps.store.transition(recordId, { from: ['pending'], to: 'expired', now });
          // Audited here too: once expired, the sweep (expireDue) never sees this record again.
          if (expired.ok) {
            await editStatus(op, expired.record, now);
            await audit(op, expired.record, 'expired');
          }
        }
        return claimAnswer(recordId, userId, claimed.record, claimed.reason);
      }
      if (delay > 0) {
        const failure = await editStatus(op, claimed.record, now);
        return failure ? { kind: 'show', reply: unseen(op, claimed.record, failure)! } : { kind: 'done' };
      }
      const done = await execute(op, claimed.record, userId);
      return done.unseen ? { kind: 'show', reply: done.unseen } : { kind: 'done' };
    },

    async cancel(recordId, userId) {
      const record = await deps.store.get(recordId);
      const op = record && opOf(record);
      if (!record || !op?.change) return { kind: 'tell', text: UNKNOWN_REQUEST };
      // The requester may always withdraw their own request; others need the operation's role.
      const refused = record.requestedBy === userId ? undefined : await authorize(record, op, userId, 'cancel');
      if (refused) return { kind: 'tell', text: refused };
      const now = deps.clock.now();
      const cancelled = await deps.store.transition(recordId, { from: ['pending'], to: 'cancelled', now, patch: { result: { cancelledBy: userId } } });
      if (!cancelled.ok) return claimAnswer(recordId, userId, cancelled.record, cancelled.reason);
      const edited = editStatus(op, cancelled.record, now);
      await audit(op, cancelled.record, 'cancelled', `cancelled by ${userId}`);
      const notice = unseen(op, cancelled.record, await edited);
      return notice ? { kind: 'show', reply: notice } : { kind: 'done' };
    },

    retrySync: (recordId, userId) => retrySync(ctx, recordId, userId),
    undo: (recordId, userId) => undo(ctx, recordId, userId),
    // An operation the catalog no longer knows is refused: nobody's right to it can be seen.
    recheck: async (record, userId, action) => {
      const op = opOf(record);
      return op ? checkRights(record, op, userId, action) : UNKNOWN_REQUEST;
    },
    sendDue: () => sendDue(ctx, execute),
    expireDue: () => expireDue(ctx),
    recoverInterrupted: () => recoverInterrupted(ctx),
    argsDigest(op, args) {
      const { plain, secrets } = splitSecrets(op, args);
      const keyed = Object.keys(secrets).length ? deps.sealer.fingerprint(secrets) : '';
      return createHash('sha256').update(JSON.stringify(plain)).update(keyed).digest('hex');
    },

    async retell(recordId, handling) {
      const record = await deps.store.get(recordId);
      const op = record && opOf(record);
      if (!record || (record.status !== 'failed' && record.status !== 'cancelled') || !op?.change) return;
      await editStatus(op, record, deps.clock.now(), handling ? { handling } : {});
    },
  };
}
