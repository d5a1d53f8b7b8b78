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
import type { CloudClient } from '../cloud/cloud-client.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import { maskedRequest, splitSecrets } from '../access/secrets.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation, Reply } from '../operations/types.js';
import type { Sealer } from '../store/seal.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import type { WatchKind } from '../store/watch-store.js';
import { NOT_REACHABLE, SlackApiError, type SlackApi } from '../chat/slack-api.js';
import { buildCloudError } from '../views/error-views.js';
import { buildDryRun } from '../views/status-views.js';
import { buildNotInChannel, buildClickAnswer } from '../views/change-notices.js';
import { buildCloudRefusal, onlyRequesterMay, OWN_REQUEST_NEEDS_APPROVAL, typedMismatch, UNKNOWN_REQUEST } from '../views/click-views.js';
import type { Mrkdwn } from '../views/mrkdwn.js';
import { createStatusEditor, renderStatus, type EditFailure } from './status-message.js';
import { buildOutcomeNotShown, buildStatusNotPosted } from '../views/slack-failure-views.js';
import { expireDue, recoverInterrupted, retrySync, type FlowContext } from './upkeep.js';
import { createExecutor } from './execute.js';
import { auditEntry } from '../audit/entry.js';
import type { AuditOutcome, Auditor } from '../audit/types.js';

export interface ChangeFlowDeps {
  store: OperationStore;
  cloud: CloudClient;
  clock: Clock;
  logger: Logger;
  slack: SlackApi;
  sealer: Sealer;
  catalog: Catalog;
  /** How long a Confirm button works (default 10 minutes). */
  confirmTtlMs?: number;
  /** Every request, outcome, cancellation and expiry is recorded here. */
  auditor?: Auditor;
  /** Starts a watch after a change that asks for one (a build, a reinstall). */
  startWatch?: (input: { kind: WatchKind; resource: string; channelId: string; threadTs: string | null; requestedBy: string; operationId: string }) => Promise<unknown>;
  /**
   * Whether this person may confirm, cancel or retry: undefined when allowed, else what to
   * tell them. Access control replaces the default (the requester only).
   */
  authorize?: (record: OperationRecord, op: AnyOperation, userId: string, action: 'confirm' | 'cancel' | 'retry') => Promise<Mrkdwn | undefined>;
  /** Whether an operation needs a second admin's approval instead of the requester's Confirm. */
  needsApproval?: (op: AnyOperation) => boolean;
  /**
   * A change still confirmed or running this long after its last move was left by a process
   * that died (any replica's); `recoverInterrupted` marks it failed. Default 2 minutes.
   */
  staleRunningMs?: number;
}

export interface ChangeRequest {
  op: AnyOperation;
  args: Record<string, unknown>;
  userId: string;
  channelId: string;
  teamId?: string;
  /** Same key for a retried delivery (the slash command's trigger_id, a modal's view id). */
  dedupeKey?: string;
  dryRun?: boolean;
}

export type StartOutcome =
  /** Something for the requester only: a dry run, a refusal, an invitation hint. */
  | { kind: 'tell'; reply: Reply }
  /** A retried delivery: the first one is handling it. */
  | { kind: 'duplicate' }
  /**
   * The status message is up; waiting for a click, or already done. `unseen`: the outcome,
   * for the requester, when the message could not be edited to show it.
   */
  | { kind: 'posted'; record: OperationRecord; unseen?: Reply }
  /** The cloud rejected fields (VALIDATION_ERROR) before anything changed: show them on the form. */
  | { kind: 'invalid'; fieldErrors: Record<string, string> };

/**
 * `tell`: a private answer to the clicker, made by a view. `show`: the same with a whole reply —
 * the outcome, when the status message in the channel could not be edited to show it.
 */
export type ClickOutcome =
  | { kind: 'tell'; text: Mrkdwn }
  | { kind: 'show'; reply: Reply }
  | { kind: 'type-to-confirm'; expected: string; what: Mrkdwn }
  | { kind: 'done' };

export interface ChangeFlow {
  start(req: ChangeRequest): Promise<StartOutcome>;
  confirm(recordId: string, userId: string, typed?: string): Promise<ClickOutcome>;
  cancel(recordId: string, userId: string): Promise<ClickOutcome>;
  retrySync(recordId: string, userId: string): Promise<ClickOutcome>;
  /** Pending records past their time: marked expired, messages edited. Returns how many. */
  expireDue(): Promise<number>;
  /** After a crash: records left confirmed/running are marked failed (their outcome is unknown). */
  recoverInterrupted(): Promise<number>;
}

export function createChangeFlow(deps: ChangeFlowDeps): ChangeFlow {
  const ttl = deps.confirmTtlMs ?? 10 * 60_000;
  const opOf = (r: OperationRecord) => deps.catalog.byId(r.opId);
  const needsApproval = deps.needsApproval ?? (() => false);
  const authorize =
    deps.authorize ??
    (async (r: OperationRecord, _op: AnyOperation, u: string, action: 'confirm' | 'cancel' | 'retry') =>
      r.requestedBy === u ? undefined : onlyRequesterMay(r.requestedBy, action));
  /** One audit entry for a record's move; arguments are stored without secrets already. */
  const audit = (op: AnyOperation, r: OperationRecord, outcome: AuditOutcome, detail?: string) =>
    deps.auditor?.record(
      auditEntry({
        op,
        userId: r.requestedBy,
        channelId: r.channelId,
        args: r.args,
        outcome,
        record: r,
        ...(detail ? { detail } : { request: maskedRequest(op, r.args) }),
      }),
    ) ?? Promise.resolve();
  const status = (op: AnyOperation, r: OperationRecord, now: number) => renderStatus(op, r, now, { approval: needsApproval(op) });
  const editor = createStatusEditor(deps);
  const refresh = (op: AnyOperation, r: OperationRecord, now: number) => editor(op, r, now, { approval: needsApproval(op) });
  const ctx: FlowContext = { deps, opOf, authorize, audit, refresh: (op, r, now) => refresh(op, r, now).then(() => undefined) };
  /** The record's state as a private reply, when its status message could not be edited. */
  const unseen = (op: AnyOperation, r: OperationRecord, failure: EditFailure | undefined): Reply | undefined =>
    failure ? buildOutcomeNotShown(status(op, r, deps.clock.now()), failure.code, failure.unavailable) : undefined;

  const execute = createExecutor({ deps, audit, refresh, unseen });

  async function claimAnswer(recordId: string, userId: string, record: OperationRecord | undefined, reason: string): Promise<ClickOutcome> {
    return { kind: 'tell', text: buildClickAnswer(record, userId, reason) };
  }

  return {
    async start(req) {
      const { op } = req;
      const change = op.change!;
      if (req.dryRun) return { kind: 'tell', reply: buildDryRun(change.describe(req.args as never, {}).title, maskedRequest(op, req.args)) };

      let facts: Record<string, unknown> = {};
      if (change.precheck) {
        try {
          const pre = await change.precheck({ cloud: deps.cloud, clock: deps.clock }, req.args as never);
          if (pre.refuse) {
            await deps.auditor?.record(
              auditEntry({
                op,
                userId: req.userId,
                channelId: req.channelId,
                args: req.args,
                outcome: 'failed',
                errorCode: 'REFUSED_BEFORE_ASKING',
                detail: pre.refuse.replace(/[`*_]/g, '').slice(0, 300),
              }),
            );
            return { kind: 'tell', reply: buildCloudRefusal(op.command, pre.refuse) };
          }
          facts = pre.facts ?? {};
        } catch (e) {
          if (!isCloudApiError(e)) throw e;
          return { kind: 'tell', reply: buildCloudError(op.command, describeCloudError(e)) };
        }
      }

      const { plain, secrets } = splitSecrets(op, req.args);
      // Which secrets were given (names only), so the description can say so after they are sealed away.
      if (Object.keys(secrets).length) facts = { ...facts, givenSecrets: Object.keys(secrets) };
      const now = deps.clock.now();
      const created = await deps.store.create({
        opId: op.id,
        args: plain,
        facts,
        sealedSecrets: Object.keys(secrets).length ? deps.sealer.seal(secrets) : null,
        requestedBy: req.userId,
        teamId: req.teamId ?? null,
        channelId: req.channelId,
        dedupeKey: req.dedupeKey ?? null,
        expiresAt: now + ttl,
      });
      if (!created.created) return { kind: 'duplicate' };
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

      if (change.confirm || needsApproval(op)) {
        await audit(op, record, 'requested');
        return { kind: 'posted', record };
      }
      const claimed = await deps.store.transition(record.id, {
        from: ['pending'],
        to: 'confirmed',
        now: deps.clock.now(),
        patch: { confirmedBy: req.userId, confirmedAt: deps.clock.now() },
      });
      if (!claimed.ok) return { kind: 'posted', record };
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
      const approval = needsApproval(op);
      if (approval && userId === record.requestedBy) {
        return { kind: 'tell', text: OWN_REQUEST_NEEDS_APPROVAL };
      }
      const refused = await authorize(record, op, userId, 'confirm');
      if (refused) return { kind: 'tell', text: refused };
      const expected = op.change.typeToConfirm?.(record.args as never, record.facts);
      if (expected && typed === undefined) {
        return { kind: 'type-to-confirm', expected, what: op.change.describe(record.args as never, record.facts).title };
      }
      if (expected && typed?.trim() !== expected) return { kind: 'tell', text: typedMismatch(expected) };
      const now = deps.clock.now();
      const claimed = await deps.store.transition(recordId, {
        from: ['pending'],
        to: 'confirmed',
        now,
        requireUnexpired: true,
        patch: { confirmedBy: userId, confirmedAt: now, ...(approval ? { approvedBy: userId, approvedAt: now } : {}) },
      });
      if (!claimed.ok) {
        if (claimed.reason === 'expired' && claimed.record?.status === 'pending') {
          const expired = await deps.store.transition(recordId, { from: ['pending'], to: 'expired', now });
          // Audited here too: once expired, the sweep (expireDue) never sees this record again.
          if (expired.ok) {
            await refresh(op, expired.record, now);
            await audit(op, expired.record, 'expired');
          }
        }
        return claimAnswer(recordId, userId, claimed.record, claimed.reason);
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
      const edited = refresh(op, cancelled.record, now);
      await audit(op, cancelled.record, 'cancelled', `cancelled by ${userId}`);
      const notice = unseen(op, cancelled.record, await edited);
      return notice ? { kind: 'show', reply: notice } : { kind: 'done' };
    },

    retrySync: (recordId, userId) => retrySync(ctx, recordId, userId),
    expireDue: () => expireDue(ctx),
    recoverInterrupted: () => recoverInterrupted(ctx),
  };
}

function validationFields(record: OperationRecord): Record<string, string> {
  const details = (record.result?.errorDetails ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k, Array.isArray(v) ? v.map(String).join(' ') : String(v)]),
  );
}
