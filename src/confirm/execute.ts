/**
 * Sending a change once it is claimed (confirmed): the cloud call, then the record, the status
 * message and the audit entry. The cloud's word decides the outcome; a store or Slack that
 * fails afterwards changes how it is told, never what happened.
 */
import { cloudFailureLogWords, isCloudApiError } from '../cloud/errors.js';
import type { Logger } from '../log.js';
import { MASK, rememberSecrets, rememberSecretsIn } from '../access/secrets.js';
import type { AuditOutcome } from '../domain/audit-entry.js';
import type { AnyOperation, SecretTold } from '../operations/types.js';
import type { Reply } from '../views/types.js';
import type { OperationRecord } from '../store/types.js';
import type { ChangeFlowDeps } from './change-types.js';
import type { RenderOptions } from '../views/status-message.js';
import type { EditFailure } from './status-message.js';

export interface ExecuteContext {
  deps: ChangeFlowDeps;
  audit(op: AnyOperation, r: OperationRecord, outcome: AuditOutcome, detail?: string): Promise<void>;
  /** Edits the status message; resolves with why it could not, if it could not. */
  editStatus(op: AnyOperation, r: OperationRecord, now: number, extra?: Pick<RenderOptions, 'underway'>): Promise<EditFailure | undefined>;
  /** The record's state as a private reply, when its status message could not be edited. */
  unseen(op: AnyOperation, r: OperationRecord, failure: EditFailure | undefined): Reply | undefined;
}

export type Execute = (op: AnyOperation, record: OperationRecord, answering: string) => Promise<{ record: OperationRecord; unseen?: Reply | undefined }>;

export function createExecutor({ deps, audit, editStatus, unseen }: ExecuteContext): Execute {
  /** The cloud call failed (or the bot did, around it): recorded, shown and audited as failed. */
  async function failed(op: AnyOperation, running: OperationRecord, e: unknown, log: Logger, secrets: readonly string[] = []): Promise<{ record: OperationRecord; unseen?: Reply | undefined }> {
    const code = isCloudApiError(e) ? e.code : 'INTERNAL';
    // A refusal that quotes what was sent (a 422 about the password) must not carry the secret
    // into the record, the status message or the audit: every secret value sent is masked in it.
    const scrub = (text: string, form = (s: string) => s) => secrets.reduce((t, s) => (s.length >= 4 ? t.split(form(s)).join(MASK) : t), text);
    const message = scrub(e instanceof Error ? e.message : String(e));
    if (!isCloudApiError(e)) log.error('change failed inside the bot', { error: e });
    else log.warn(`change ${cloudFailureLogWords(e)}`, { code, status: e.status });
    const details = isCloudApiError(e) && e.details ? { errorDetails: JSON.parse(scrub(JSON.stringify(e.details), (s) => JSON.stringify(s).slice(1, -1))) as Record<string, unknown> } : {};
    // The HTTP status too: the status message tells a 502 from a refusal (0: no answer, or the bot).
    const status = isCloudApiError(e) ? { errorStatus: e.status } : {};
    const now = deps.clock.now();
    // A 429's Retry-After (seconds or an HTTP date, provider notes), as a time on the bot's clock:
    // the status message tells the wait the cloud named, from whenever it is rendered.
    const retryAt = isCloudApiError(e) && e.retryAfterMs !== undefined ? { errorRetryAt: now + e.retryAfterMs } : {};
    const patch = { errorCode: code, errorMessage: message, result: { ...details, ...status, ...retryAt } };
    const moved = await deps.store.transition(running.id, { from: ['running'], to: 'failed', now, patch }).catch((error: unknown) => {
      log.error('the change failed and its record could not be updated', { error });
      return { ok: false as const, record: { ...running, ...patch, status: 'failed' as const, finishedAt: now, updatedAt: now } };
    });
    const final = moved.ok ? moved.record : moved.record?.status === 'failed' ? moved.record : running;
    const edited = editStatus(op, final, deps.clock.now());
    await audit(op, final, 'failed');
    return { record: final, unseen: unseen(op, final, await edited) };
  }

  /** Whether the requester may be sent the change's private reply now; a check that fails withholds it. */
  async function secretTold(record: OperationRecord, log: Logger): Promise<SecretTold> {
    if (!deps.maySeeSecret) return 'sent';
    const may = await deps.maySeeSecret(record).catch((error: unknown) => {
      log.warn('could not check whether the requester may read the change’s private reply; it is not sent', { error });
      return 'unchecked' as const;
    });
    if (may !== 'yes') log.info('the requester may not read the change’s private reply here now; it was not sent', { user: record.requestedBy, why: may });
    return may === 'yes' ? 'sent' : may === 'no' ? 'withheld' : 'unchecked';
  }

  async function tellPrivately(record: OperationRecord, reply: Reply): Promise<boolean> {
    try {
      await deps.slack.postEphemeral({ channel: record.channelId, user: record.requestedBy, text: reply.text, blocks: reply.blocks });
      return true;
    } catch (e) {
      deps.logger.warn('could not send a private message to the requester', { record: record.id, error: e });
      return false;
    }
  }

  /**
   * Sends the change once. Status edits never hold it: "running" is edited while the request
   * is under way, and the final edit is awaited only after the outcome is stored and audited
   * (before a watch starts editing the same message), so that an edit Slack keeps failing can
   * be answered privately (`unseen`).
   */
  const execute: Execute = async (op, record, answering) => {
    const log = deps.logger.child({ op: op.id, record: record.id });
    // requireDue: a change in an undo window is never sent before its sendAt, whoever calls.
    const running = await deps.store.transition(record.id, { from: ['confirmed'], to: 'running', now: deps.clock.now(), requireDue: true });
    if (!running.ok) return { record: running.record ?? record };
    void editStatus(op, running.record, deps.clock.now());
    const secrets = running.record.sealedSecrets ? deps.sealer.open(running.record.sealedSecrets) : {};
    rememberSecrets(deps.logger, Object.values(secrets));
    const args = { ...running.record.args, ...secrets };
    let result: unknown;
    try {
      result = await op.run({ cloud: deps.cloudFor(record.account), clock: deps.clock }, args);
    } catch (e) {
      return failed(op, running.record, e, log, Object.values(secrets));
    }
    // A password the cloud generated must be masked before any log line can carry it.
    rememberSecretsIn(deps.logger, result);
    deps.names.remember(op, result, args, { account: record.account, now: deps.clock.now() }, (error) => log.warn('could not remember what the answer showed', { error }));
    // A credential for the requester goes only where they may read it now (it is sent below).
    const secret = op.change!.privateReply?.(result as never, args as never);
    const told = secret ? await secretTold(running.record, log) : undefined;
    const summary = op.change!.summarize(result as never, args as never, told ? { secret: told } : undefined);
    const now = deps.clock.now();
    // What a workflow step may output (ids, addresses; never a secret) is kept with the record.
    const outputs = op.change!.outputs?.(result as never, args as never);
    const patch = { result: { text: summary.text, ...(summary.details ? { details: summary.details } : {}), ...(outputs ? { outputs } : {}) } };
    // The cloud did it: a store that cannot record it now must not turn it into a failure.
    // The message and the audit entry (kept by the auditor until the store takes it) say done.
    const done = await deps.store.transition(record.id, { from: ['running'], to: 'succeeded', now, patch }).catch((error: unknown) => {
      log.error('the change succeeded but its record could not be updated', { error });
      return { ok: false as const, record: { ...running.record, ...patch, status: 'succeeded' as const, finishedAt: now, updatedAt: now } };
    });
    const final = done.ok ? done.record : done.record?.status === 'succeeded' ? done.record : running.record;
    const target = op.change!.watch?.(result as never, args as never);
    // The watch is stored now, right after the outcome, so a stop during the Slack calls below
    // cannot lose it; held, it polls once the final edit is through, or one watch lease later
    // when this process stopped before (it then edits the message itself).
    const watch =
      target && deps.startWatch
        ? await deps
            .startWatch({ ...target, account: final.account, channelId: final.channelId, threadTs: final.messageTs, requestedBy: final.requestedBy, operationId: final.id, held: true })
            .catch((error: unknown) => void log.error('could not start a watch', { error }))
        : undefined;
    // Followed by a watch: headed with the kind's word ("building") until the watch ends, not "done".
    const watched = target && deps.startWatch ? { underway: deps.catalog.watchKinds[target.kind].underway } : undefined;
    const edited = editStatus(op, final, deps.clock.now(), watched);
    // A success its entry says did not do what was asked (a too-late Confirm) is audited as such.
    await audit(op, final, 'succeeded', op.change!.succeededAs?.(outputs ?? {})?.audit);
    // A watch edits this message too: it begins once the final edit is through (or given up).
    const failure = await edited;
    // A private reply Slack would not take goes back with the outcome (to the response_url),
    // but only to the requester: a second admin's approving click never sees it.
    const undelivered = secret && told === 'sent' && !(await tellPrivately(final, secret)) && answering === final.requestedBy ? secret : undefined;
    if (watch) await deps.beginWatch?.(watch.id).catch((error: unknown) => log.warn('could not begin a watch; it begins when its hold ends', { error }));
    log.info('change succeeded');
    return { record: final, unseen: both(unseen(op, final, failure), undelivered) };
  };
  // Traced, a change's send is one span linked to the request that asked for it (the traceparent
  // stored in its facts at start): a Confirm click, an approval, the undo window's send or a
  // schedule's run leads back to the slash command. Off, the send as it is.
  const tracing = deps.tracing;
  if (!tracing?.on) return execute;
  return (op, record, answering) =>
    tracing.linked('change execute', { attributes: { 'cloudbot.operation': op.id, 'cloudbot.tier': op.tier } }, record.facts.traceparent, () => execute(op, record, answering));
}

/** Two private replies as one (either may be missing). */
function both(a: Reply | undefined, b: Reply | undefined): Reply | undefined {
  return a && b ? { text: a.text, blocks: [...a.blocks, ...b.blocks] } : (a ?? b);
}

