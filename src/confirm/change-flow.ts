/**
 * How a change moves (DESIGN "Interaction rules"): look first (precheck), post one status
 * message in the channel, wait for a one-time Confirm where the catalog asks for one, send the
 * request exactly once, and edit the message as the record moves
 * pending → confirmed → running → succeeded | failed (or cancelled | expired).
 *
 * "Exactly once" rests on the store: every move is a compare-and-set, so of two clicks, a
 * retried delivery or a second replica, one wins and the others are told who acted.
 */
import { isCloudApiError } from '../cloud/errors.js';
import { createHash } from 'node:crypto';
import { maskedRequest, splitSecrets } from '../access/secrets.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { lookedUp } from '../operations/looked-up.js';
import { typedMatches } from '../operations/typed-confirm.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { OperationRecord } from '../store/types.js';
import { NOT_REACHABLE, SlackApiError } from '../chat/slack-api.js';
import { buildCloudError } from '../views/error-views.js';
import { buildDryRun } from '../views/status-views.js';
import { fieldErrorText } from '../views/modal-views.js';
import { buildNotInChannel, buildClickAnswer } from '../views/change-notices.js';
import { buildCloudRefusal, onlyRequesterMay, OWN_REQUEST_NEEDS_APPROVAL, STEP_APPROVAL_UNVERIFIED, typedMismatch, UNKNOWN_REQUEST } from '../views/click-views.js';
import { createStatusEditor, type EditFailure } from './status-message.js';
import { renderStatus, storedRequest, successLook, withStoredRequest, type RenderOptions } from '../views/status-message.js';
import { buildOutcomeNotShown, buildStatusNotPosted } from '../views/slack-failure-views.js';
import { expireDue, recoverInterrupted, retrySync, type FlowContext } from './upkeep.js';
import { createExecutor } from './execute.js';
import { sendDue, undo } from './undo-window.js';
import { auditEntry } from '../audit/entry.js';
import type { AuditOutcome } from '../domain/audit-entry.js';

import type { ChangeFlow, ChangeFlowDeps, ClickOutcome } from './change-types.js';

export type { ChangeFlow, ChangeFlowDeps, ChangeRequest, ClickOutcome, StartOutcome } from './change-types.js';

/** The audit code of a step's change refused because it needs an approval its requester cannot carry. */
export const UNVERIFIED_REQUESTER = 'APPROVAL_UNVERIFIED_REQUESTER';

export function createChangeFlow(deps: ChangeFlowDeps): ChangeFlow {
  const ttl = deps.confirmTtlMs ?? 10 * 60_000;
  const opOf = (r: OperationRecord) => deps.catalog.byId(r.opId);
  const needsApproval = deps.needsApproval ?? (() => false);
  const authorize =
    deps.authorize ??
    (async (r: OperationRecord, _op: AnyOperation, u: string, action: 'confirm' | 'approve' | 'cancel' | 'retry' | 'undo') =>
      r.requestedBy === u ? undefined : onlyRequesterMay(r.requestedBy, action));
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
  const options = (op: AnyOperation, r: Pick<OperationRecord, 'channelId' | 'account' | 'args'>): RenderOptions => {
    const account = deps.accountLabel?.(r.account);
    return { approval: needsApproval(op, r), ...(account ? { account } : {}), lookedUp: lookedUp(op, r.args) };
  };
  const status = (op: AnyOperation, r: OperationRecord, now: number) => renderStatus(op, r, now, options(op, r));
  const editor = createStatusEditor(deps);
  const editStatus = (op: AnyOperation, r: OperationRecord, now: number, extra: Pick<RenderOptions, 'underway' | 'handling'> = {}) =>
    editor(op, r, now, { ...options(op, r), ...extra });
  const ctx: FlowContext = { deps, opOf, authorize, audit, editStatus: (op, r, now) => editStatus(op, r, now).then(() => undefined) };
  /** The record's state as a private reply, when its status message could not be edited. */
  const unseen = (op: AnyOperation, r: OperationRecord, failure: EditFailure | undefined): Reply | undefined =>
    failure ? buildOutcomeNotShown(status(op, r, deps.clock.now()), failure.code, failure.unavailable) : undefined;

  const execute = createExecutor({ deps, audit, editStatus, unseen });

  async function claimAnswer(recordId: string, userId: string, record: OperationRecord | undefined, reason: string): Promise<ClickOutcome> {
    return { kind: 'tell', text: buildClickAnswer(record, userId, reason, record && successLook(opOf(record), record)) };
  }

  return {
    async start(typed) {
      const { op } = typed;
      const change = op.change!;
      const account = typed.account ?? null;
      // Names become ids of this account before anything is shown, stored or sent (commands and forms alike).
      const resolved = await deps.names.resolve(op, typed.args, account);
      if (!resolved.ok) return { kind: 'tell', reply: buildCloudRefusal(op.command, resolved.message) };
      const req = { ...typed, args: resolved.args };
      // Two-person approval rests on who asked; a step's requester is only what its workflow names.
      if (req.via && needsApproval(op, { channelId: req.channelId, account })) {
        await deps.auditor?.record(
          auditEntry({ op, userId: req.userId, channelId: req.channelId, account, args: req.args, outcome: 'refused', errorCode: UNVERIFIED_REQUESTER, detail: `needs a second admin's approval; the step's requester is not verified (workflow ${req.via.workflow})` }),
        );
        return { kind: 'tell', reply: buildCloudRefusal(op.command, STEP_APPROVAL_UNVERIFIED) };
      }
      if (req.dryRun) return { kind: 'tell', reply: buildDryRun(change.describe(req.args as never, {}).title, maskedRequest(op, req.args), deps.accountLabel?.(account)) };

      let facts: Record<string, unknown> = {};
      if (change.precheck) {
        try {
          const pre = await change.precheck({ cloud: deps.cloudFor(account), clock: deps.clock }, req.args as never);
          if (pre.refuse) {
            await deps.auditor?.record(
              auditEntry({
                op,
                userId: req.userId,
                channelId: req.channelId,
                account,
                args: req.args,
                outcome: 'failed',
                errorCode: 'REFUSED_BEFORE_ASKING',
                detail: pre.refuse.replace(/[`*_]/g, '').slice(0, 300),
              }),
            );
            const reply = buildCloudRefusal(op.command, pre.refuse);
            return { kind: 'tell', reply, ...(pre.field ? { fieldErrors: { [pre.field]: fieldErrorText(pre.refuse) } } : {}) };
          }
          facts = pre.facts ?? {};
        } catch (e) {
          if (!isCloudApiError(e)) throw e;
          return { kind: 'tell', reply: buildCloudError(op.command, describeCloudError(e, { lookedUp: lookedUp(op, req.args) })) };
        }
      }

      const { plain, secrets } = splitSecrets(op, req.args);
      // Which secrets were given (names only), so the description can say so after they are sealed away.
      if (Object.keys(secrets).length) facts = { ...facts, givenSecrets: Object.keys(secrets) };
      // The request it will send, described once here (secrets masked) and stored with the record:
      // its status messages, its watch's parent message and its audit entries read it from there.
      if (!change.local) facts = withStoredRequest(facts, maskedRequest(op, req.args));
      // A schedule's run says so on its status message and in its audit entries.
      if (req.scheduled) facts = { ...facts, scheduled: { id: req.scheduled.scheduleId, by: req.userId } };
      if (req.via) facts = { ...facts, askFirst: true, via: `workflow ${req.via.workflow}` };
      // The request's trace (ids only), so its send, whoever confirms it and when, links back to it.
      const traceparent = deps.tracing?.traceparent();
      if (traceparent) facts = { ...facts, traceparent };
      const now = deps.clock.now();
      const created = await deps.store.create({
        opId: op.id,
        args: plain,
        facts,
        sealedSecrets: Object.keys(secrets).length ? deps.sealer.seal(secrets) : null,
        requestedBy: req.userId,
        teamId: req.teamId ?? null,
        channelId: req.channelId,
        account,
        dedupeKey: req.dedupeKey ?? null,
        expiresAt: now + ttl,
      });
      if (!created.created) return { kind: 'duplicate', record: created.record };
      let record = created.record;

      // Post before anything reaches the cloud: if the team cannot see it, it does not happen.
      // Any failure to post (a refusal, a 5xx, no answer in time) cancels the request with
      // Slack's reason. A post that timed out may still have landed: its buttons then find
      // the record cancelled and do nothing.
      const first = status(op, record, now);
      let posted: { channel: string; ts: string };
      try {
        posted = await deps.slack.postMessage({ channel: req.channelId, text: first.text, blocks: first.blocks });
      } catch (e) {
        const slackError = e instanceof SlackApiError ? e : undefined;
        const code = slackError?.code ?? 'request_failed';
        const unavailable = slackError ? slackError.failure === 'unavailable' : true;
        const reachable = !(slackError && !unavailable && NOT_REACHABLE.has(code));
        deps.logger.warn('could not post a status message; nothing was sent', { op: op.id, record: record.id, error: e });
        await deps.store.transition(record.id, {
          from: ['pending'],
          to: 'cancelled',
          now: deps.clock.now(),
          patch: reachable
            ? { errorCode: 'STATUS_NOT_POSTED', errorMessage: `Slack ${unavailable ? 'did not answer' : 'refused'} chat.postMessage: ${code}` }
            : { errorCode: 'NOT_IN_CHANNEL' },
        });
        return { kind: 'tell', reply: reachable ? buildStatusNotPosted(code, unavailable) : buildNotInChannel(code) };
      }
      await deps.store.setMessage(record.id, posted.channel, posted.ts);
      record = { ...record, channelId: posted.channel, messageTs: posted.ts };

      // A scheduled run was confirmed (and approved) when scheduled; a policy that now wants an
      // approval the schedule never had was refused before this (app/schedule-run.ts).
      if (!req.scheduled && (change.confirm || record.facts.askFirst === true || needsApproval(op, record))) {
        await audit(op, record, 'requested');
        return { kind: 'posted', record };
      }
      const claimed = await deps.store.transition(record.id, {
        from: ['pending'],
        to: 'confirmed',
        now: deps.clock.now(),
        patch: {
          confirmedBy: req.scheduled?.confirmedBy ?? req.userId,
          confirmedAt: deps.clock.now(),
          ...(req.scheduled?.approvedBy ? { approvedBy: req.scheduled.approvedBy, approvedAt: deps.clock.now() } : {}),
        },
      });
      if (!claimed.ok) {
        // Closed while its post was under way (a run taken over closed it: app/schedule-run.ts),
        // so nobody could edit the message then: it says so now rather than "starting" for good.
        const over = claimed.record?.status === 'cancelled' || claimed.record?.status === 'expired' ? claimed.record : undefined;
        if (over) await editStatus(op, { ...over, channelId: posted.channel, messageTs: posted.ts }, deps.clock.now());
        return { kind: 'posted', record };
      }
      const { record: final, unseen: notice } = await execute(op, claimed.record, req.userId);
      const fieldErrors = final.errorCode === 'VALIDATION_ERROR' ? validationFields(final) : undefined;
      if (fieldErrors && Object.keys(fieldErrors).length) return { kind: 'invalid', fieldErrors };
      return { kind: 'posted', record: final, ...(notice ? { unseen: notice } : {}) };
    },

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

function validationFields(record: OperationRecord): Record<string, string> {
  const details = (record.result?.errorDetails ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k, Array.isArray(v) ? v.map(String).join(' ') : String(v)]),
  );
}
