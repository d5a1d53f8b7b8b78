/**
 * Starting a change (DESIGN "Interaction rules"): names resolved, the two-person rule checked
 * against who asked, a look first (precheck), the record made with the request it will send
 * (masked) stored on it, one status message posted before anything reaches the cloud, and then
 * either a wait for Confirm or the send.
 */
import { isCloudApiError } from '../cloud/errors.js';
import { maskedRequest, splitSecrets } from '../access/secrets.js';
import { describeCloudError } from '../views/cloud-error-text.js';
import { lookedUp } from '../operations/looked-up.js';
import type { AnyOperation } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { OperationRecord } from '../store/types.js';
import type { AuditOutcome } from '../domain/audit-entry.js';
import { NOT_REACHABLE, SlackApiError } from '../chat/slack-api.js';
import { buildCloudError } from '../views/error-views.js';
import { buildDryRun } from '../views/status-views.js';
import { fieldErrorText } from '../views/modal-views.js';
import { buildNotInChannel } from '../views/change-notices.js';
import { buildCloudRefusal, STEP_APPROVAL_UNVERIFIED } from '../views/click-views.js';
import { withStoredRequest } from '../views/status-message.js';
import { buildStatusNotPosted } from '../views/slack-failure-views.js';
import { auditEntry } from '../audit/entry.js';
import type { Execute } from './execute.js';
import type { ChangeFlowDeps, ChangeRequest, StartOutcome } from './change-types.js';
import { JUDGED_AS } from './judged-as.js';

/** The audit code of a step's change refused because it needs an approval its requester cannot carry. */
export const UNVERIFIED_REQUESTER = 'APPROVAL_UNVERIFIED_REQUESTER';

/** What the flow shares with a start. */
export interface StartContext {
  deps: ChangeFlowDeps;
  /** How long its Confirm button works. */
  ttlMs: number;
  /** Whether it waits for a second admin (judged-as.ts: as the operations its facts name, if any). */
  needsApproval(op: AnyOperation, where: Pick<OperationRecord, 'channelId' | 'account' | 'facts'>): boolean;
  audit(op: AnyOperation, r: OperationRecord, outcome: AuditOutcome, detail?: string): Promise<void>;
  /** The record's status message as it stands. */
  status(op: AnyOperation, r: OperationRecord, now: number): Reply;
  editStatus(op: AnyOperation, r: OperationRecord, now: number): Promise<unknown>;
  execute: Execute;
}

export function createStart(ctx: StartContext): (typed: ChangeRequest) => Promise<StartOutcome> {
  const { deps, needsApproval, audit, status, editStatus, execute } = ctx;
  const ttl = ctx.ttlMs;
  return async function start(typed) {
    const { op } = typed;
    const change = op.change!;
    const account = typed.account ?? null;
    // Names become ids of this account before anything is shown, stored or sent (commands and forms alike).
    const resolved = await deps.names.resolve(op, typed.args, account);
    if (!resolved.ok) return { kind: 'tell', reply: buildCloudRefusal(op.command, resolved.message) };
    const req = { ...typed, args: resolved.args };
    // Whose rules its clicks follow, kept with the record so every later click asks the same.
    const judged: Record<string, unknown> = req.judgedAs ? { [JUDGED_AS]: req.judgedAs.map((o) => o.id) } : {};
    // Two-person approval rests on who asked; a step's requester is only what its workflow names.
    if (req.via && needsApproval(op, { channelId: req.channelId, account, facts: judged })) {
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
    facts = { ...facts, ...judged };
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
    // approval the schedule never had, or an approver who may no longer approve it, was refused
    // before this (app/schedule-run.ts).
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
  };
}

/** The cloud's field errors a change failed with (VALIDATION_ERROR's details), by field. */
export function validationFields(record: OperationRecord): Record<string, string> {
  const details = (record.result?.errorDetails ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k, Array.isArray(v) ? v.map(String).join(' ') : String(v)]),
  );
}
