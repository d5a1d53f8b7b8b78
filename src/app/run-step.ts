/**
 * A Workflow Builder step (issue 23), from any surface: its inputs become the operation's
 * arguments, checked by the catalog's schemas and by access (the requester, in the step's
 * channel) before anything is sent. A read runs at once; a change goes through the change flow
 * like a slash command — the same card in the step's channel, always asking a person first —
 * and the step completes only when the change (and the watch after it) has finished.
 *
 * Exactly once: the step's row (store/step-store.ts) is inserted once per function_execution_id,
 * the change's record once per `step:<execution id>` (its dedupe key), and the completion is
 * claimed (running → completing) before Slack hears it. Whoever holds the row's lease moves it;
 * the step driver (step-driver.ts) resumes rows a stopped replica left.
 */
import { z } from 'zod';
import { maskedArgs } from '../access/secrets.js';
import { isCloudApiError } from '../cloud/errors.js';
import type { CloudClient } from '../cloud/cloud-client.js';
import type { ChangeFlow } from '../confirm/change-types.js';
import type { Catalog } from '../operations/catalog.js';
import { declaredOnly, outputsFromWatch, stepArgs, stepById, type StepOutputs, type StepSpec } from '../operations/steps.js';
import type { AnyOperation } from '../operations/types.js';
import type { SlackApi } from '../chat/slack-api.js';
import type { OperationRecord, OperationStore } from '../store/types.js';
import type { StepOutcome, StepRecord, StepStore } from '../store/step-store.js';
import type { WatchStore } from '../store/watch-store.js';
import { md, val } from '../views/mrkdwn.js';
import * as words from '../views/step-views.js';
import { STEP_GAVE_UP } from '../views/status-views.js';
import { recordFailure } from '../views/record-failure.js';
import { syncPending } from '../views/status-message.js';
import { admit, type GuardDeps } from './guard.js';
import { runOperation, type RunDeps } from './run-operation.js';
import { giveUp } from './step-give-up.js';
import { tell } from './step-completion.js';
import { validate } from './submit-form.js';

export interface StepDeps extends RunDeps, GuardDeps {
  catalog: Catalog;
  flow: ChangeFlow;
  steps: StepStore;
  /** A change's record; a pending one closed when its step gives up, found by its dedupe key if never noted. */
  operations: Pick<OperationStore, 'get' | 'transition' | 'byDedupeKey'>;
  watchRecords: Pick<WatchStore, 'forOperation'>;
  slack: Pick<SlackApi, 'completeStep'>;
  /** The client of a record's account (a backup step looks until the backup is finished). */
  cloudFor: (account: string | null) => CloudClient;
  /** This replica's name in the steps' leases. */
  owner: string;
  /** How long a claimed step stays this replica's (default 60 s). */
  leaseMs?: number;
  /** How often a waiting step is looked at again (default 10 s). */
  checkEveryMs?: number;
  /** A step still waiting this long after it began fails (default 2 h: a confirmation plus a watch); a completion Slack does not take is tried as long. */
  giveUpMs?: number;
}

/** function_executed as a surface reads it. */
export interface StepExecution {
  executionId: string;
  callbackId: string;
  inputs: Record<string, unknown>;
  workflow?: string;
  teamId?: string;
}

export type StepStart = { kind: 'started'; record: StepRecord } | { kind: 'duplicate' } | { kind: 'not-recorded' };

const leaseOf = (deps: StepDeps) => deps.leaseMs ?? 60_000;
/** The step's own inputs, in the shapes Slack gives (channel_id and user_id types). */
const Where = z.object({
  channel: z.string().regex(/^[CGD][A-Z0-9]{2,20}$/, { error: 'must be a channel id like C0123ABCD' }),
  requester: z.string().regex(/^[UW][A-Z0-9]{2,20}$/, { error: 'must be a Slack user id like U0123ABCD' }),
});
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** Takes a step once (a retried delivery or another replica finds it taken) and moves it as far as it can go now. */
export async function runStep(deps: StepDeps, exec: StepExecution): Promise<StepStart> {
  const now = deps.clock.now();
  const begun = await deps.steps
    .begin(
      {
        executionId: exec.executionId,
        callbackId: exec.callbackId,
        workflow: exec.workflow ?? null,
        channelId: str(exec.inputs.channel) ?? null,
        requestedBy: str(exec.inputs.requester) ?? null,
        inputs: exec.inputs,
      },
      deps.owner,
      now,
      leaseOf(deps),
    )
    .catch((error: unknown) => void deps.logger.error('could not record a workflow step; failing it', { execution: exec.executionId, error }));
  if (!begun) {
    await notRecorded(deps, exec.executionId);
    return { kind: 'not-recorded' };
  }
  if (!begun.created) return { kind: 'duplicate' };
  await advanceStep(deps, begun.record, exec.teamId);
  return { kind: 'started', record: begun.record };
}

/**
 * No row, so nothing would ever complete the step: failed now (nothing was started, so nothing
 * was sent). A row the store wrote but did not confirm is ours: settled too, if the store lets us.
 */
async function notRecorded(deps: StepDeps, executionId: string): Promise<void> {
  const error = words.stepNotRecorded();
  try {
    await deps.slack.completeStep?.({ executionId, error });
  } catch (e) {
    deps.logger.error('could not fail a workflow step the bot could not record', { execution: executionId, error: e });
    return;
  }
  const now = deps.clock.now();
  await deps.steps
    .settle(executionId, deps.owner, now, { outcome: 'error', error }, leaseOf(deps))
    .then((row) => row && deps.steps.done(executionId, deps.owner, now))
    .catch(() => undefined);
}

/** Moves a step this replica holds: start it, look at its change, or tell Slack its outcome. */
export async function advanceStep(deps: StepDeps, step: StepRecord, teamId?: string): Promise<void> {
  if (step.status === 'completing') return tell(deps, step);
  if (step.status !== 'running') return;
  const spec = stepById(step.callbackId);
  const op = spec && deps.catalog.byId(spec.opId);
  if (!spec || !op) return settle(deps, step, { outcome: 'error', error: words.stepUnknown(step.callbackId) });
  const overdue = () => deps.clock.now() - step.createdAt >= (deps.giveUpMs ?? 2 * 3_600_000);
  let operationId = step.operationId;
  if (!operationId) {
    if (overdue()) {
      // A replica that stopped after storing the change but before noting it left a card that may be live.
      const orphan = await deps.operations.byDedupeKey(`step:${step.executionId}`);
      if (!orphan) return settle(deps, step, { outcome: 'error', error: words.stepGaveUp() });
      return settle(deps, step, (await follow(deps, spec, orphan)) ?? (await giveUp(deps, op, orphan, (r) => follow(deps, spec, r))));
    }
    const begun = await begin(deps, step, spec, op, teamId);
    if (begun.kind === 'settled') return settle(deps, step, begun.outcome);
    if (begun.kind === 'wait') return later(deps, step);
    operationId = begun.record.id;
    await deps.steps.setOperation(step.executionId, operationId, deps.owner, deps.clock.now());
  }
  const record = await deps.operations.get(operationId);
  const outcome = record ? await follow(deps, spec, record) : { outcome: 'error' as const, error: words.stepOutcomeUnknown() };
  // An outcome already there is told even past the give-up time: only a step still waiting gives up.
  if (outcome) return settle(deps, step, outcome);
  return overdue() ? settle(deps, step, await giveUp(deps, op, record!, (r) => follow(deps, spec, r))) : later(deps, step);
}

type Begun = { kind: 'settled'; outcome: StepOutcome } | { kind: 'wait' } | { kind: 'change'; record: OperationRecord };

/** Inputs → arguments → access → the read run, or the change started (its card posted). */
async function begin(deps: StepDeps, step: StepRecord, spec: StepSpec, op: AnyOperation, teamId?: string): Promise<Begun> {
  const error = (e: string): Begun => ({ kind: 'settled', outcome: { outcome: 'error', error: e } });
  const channelId = str(step.inputs.channel);
  const userId = str(step.inputs.requester);
  if (!channelId || !userId) return error(words.stepNeedsWhere());
  // Whose role is checked and where: real ids only (a name would meet no policy entry).
  const where = Where.safeParse({ channel: channelId, requester: userId });
  if (!where.success) {
    const issue = where.error.issues[0]!;
    return error(words.stepBadInput(String(issue.path[0]), issue.message));
  }
  const checked = validate(op, stepArgs(spec, step.inputs));
  if (!checked.ok) {
    const [arg, message] = Object.entries(checked.fieldErrors)[0]!;
    const input = spec.inputs.find((p) => p.arg === arg)?.name ?? arg;
    return error(words.stepBadInput(input, message));
  }
  const admitted = await admit(deps, op, userId, channelId, maskedArgs(op, checked.args));
  if (!admitted.ok) return error(words.stepErrorOf(admitted.reply));
  if (!op.change) {
    const via = `workflow ${step.workflow ?? step.callbackId}`;
    const read = await runOperation(deps, op, checked.args, { userId, channelId, via, ...(teamId ? { teamId } : {}) }, admitted.account);
    if (!read.ok) return error(words.stepErrorOf(read.reply));
    return { kind: 'settled', outcome: { outcome: 'success', outputs: declaredOnly(spec, spec.readOutputs?.(read.result) ?? {}) } };
  }
  const started = await deps.flow.start({
    op,
    args: checked.args,
    userId,
    channelId,
    account: admitted.account,
    ...(teamId ? { teamId } : {}),
    dedupeKey: `step:${step.executionId}`,
    via: { workflow: step.workflow ?? step.callbackId },
  });
  switch (started.kind) {
    case 'tell':
      return error(words.stepErrorOf(started.reply));
    case 'invalid': {
      const [arg, message] = Object.entries(started.fieldErrors)[0] ?? ['', 'was refused'];
      return error(words.stepBadInput(spec.inputs.find((p) => p.arg === arg)?.name ?? arg, message));
    }
    case 'duplicate':
      // A replica that stopped after storing the change: its record carries on.
      return started.record ? { kind: 'change', record: started.record } : { kind: 'wait' };
    case 'posted':
      return { kind: 'change', record: started.record };
  }
}

/** What the change's record (and the watch after it) came to; undefined while it is still under way. */
async function follow(deps: StepDeps, spec: StepSpec, record: OperationRecord): Promise<StepOutcome | undefined> {
  const error = (e: string): StepOutcome => ({ outcome: 'error', error: e });
  switch (record.status) {
    case 'pending':
    case 'confirmed':
    case 'running':
      return undefined;
    case 'cancelled':
      if (record.errorCode === 'STATUS_NOT_POSTED' || record.errorCode === 'NOT_IN_CHANNEL') return error(words.stepNotPosted());
      // Closed by a give-up whose completion a stopped replica never claimed: nobody cancelled it.
      if (record.errorCode === STEP_GAVE_UP) return error(words.stepGaveUpClosed());
      return error(words.stepCancelled(record));
    case 'expired':
      // Confirmed, but its undo window ended while no bot ran (confirm/undo-window.ts): not sent late.
      return error(typeof record.result?.lateBy === 'number' ? words.stepSendTimePassed() : words.stepExpired());
    case 'failed':
      return error(record.errorCode === 'INTERRUPTED' ? words.stepOutcomeUnknown() : words.stepCloudFailed(recordFailure(record, deps.clock.now())!, syncPending(record)));
    case 'succeeded':
      break;
  }
  const outputs = ((record.result as { outputs?: StepOutputs } | null)?.outputs ?? {}) as StepOutputs;
  if (spec.waitsForWatch) {
    const watch = await deps.watchRecords.forOperation(record.id);
    if (!watch || watch.status === 'active' || watch.status === 'finalizing') return undefined;
    const state = watch.state ?? {};
    if (watch.status === 'done' && watch.outcome === 'succeeded') return { outcome: 'success', outputs: outputsFromWatch(spec, outputs, state) };
    const what = spec.waitsForWatch === 'worker' ? md`Worker ${val(str(state.name) ?? watch.resource)}` : md`Server ${val(watch.resource)}`;
    const seen = str(state.error) ?? str(state.status) ?? str(state.server_status);
    // Ended at its deadline while its polls failed: not "was not finished", which it could not see.
    if (watch.status === 'expired' && watch.unread) return error(words.stepWatchUnread(what, seen, watch.unread));
    const why = watch.status === 'done' ? 'failed' : watch.status;
    return error(words.stepWatchEnded(what, seen, why));
  }
  if (spec.settle) {
    try {
      const settled = await spec.settle(deps.cloudFor(record.account), outputs, AbortSignal.timeout(deps.operationTimeoutMs ?? 25_000));
      if (settled.kind === 'wait') return undefined;
      return settled.kind === 'done' ? { outcome: 'success', outputs: declaredOnly(spec, settled.outputs) } : error(settled.error);
    } catch (e) {
      // The cloud did not answer now: looked at again later; a bug is logged and looked at again too.
      if (!isCloudApiError(e)) deps.logger.error('a step could not look at its change', { step: spec.callbackId, error: e });
      return undefined;
    }
  }
  return { outcome: 'success', outputs: declaredOnly(spec, outputs) };
}

/**
 * A success missing an output the manifest requires would be refused by Slack every time (a
 * rule added by a retried sync: the cloud's 502 never gave its id): failed, saying so, instead.
 */
function withRequired(step: StepRecord, outcome: StepOutcome): StepOutcome {
  if (outcome.outcome !== 'success') return outcome;
  const missing = (stepById(step.callbackId)?.outputs ?? []).filter((o) => !o.optional && outcome.outputs[o.name] === undefined).map((o) => o.name);
  return missing.length ? { outcome: 'error', error: words.stepOutputsUnknown(missing) } : outcome;
}

async function later(deps: StepDeps, step: StepRecord): Promise<void> {
  const now = deps.clock.now();
  await deps.steps.later(step.executionId, deps.owner, now, now + (deps.checkEveryMs ?? 10_000));
}

/** Claims the step's one outcome, then tells Slack. */
async function settle(deps: StepDeps, step: StepRecord, outcome: StepOutcome): Promise<void> {
  outcome = withRequired(step, outcome);
  const claimed = await deps.steps.settle(step.executionId, deps.owner, deps.clock.now(), outcome, leaseOf(deps));
  if (claimed) await tell(deps, claimed);
}
