/**
 * Telling Slack a step's claimed outcome (functions.completeSuccess / completeError), so that
 * every step ends: a refusal Slack would repeat ends it now (outputs refused: completed as an
 * error saying so), and a Slack that stays unreachable is given up on after a bound.
 */
import { SlackApiError, STEP_ALREADY_OVER, type ChannelPosterDeps, type SlackApi, type StepCompletion } from '../chat/slack-api.js';
import type { Logger } from '../log.js';
import type { StepRecord, StepStore } from '../store/step-store.js';
import * as words from '../views/step-views.js';

/** The clock and log of a channel poster; the chat that completes steps; the step's row, held as `owner`. */
export interface TellDeps extends Omit<ChannelPosterDeps, 'slack'> {
  slack: Pick<SlackApi, 'completeStep'>;
  steps: Pick<StepStore, 'done'>;
  owner: string;
  /** How long a claimed completion is tried before the bot gives up (default 2 h). */
  giveUpMs?: number;
}

/** Refusals that may pass on their own; any other refusal would be given again. */
const SLACK_BUSY = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

type Told = 'told' | 'over' | 'again' | { refused: string };

async function send(deps: TellDeps, log: Logger, c: StepCompletion): Promise<Told> {
  try {
    await deps.slack.completeStep!(c);
    return 'told';
  } catch (e) {
    if (e instanceof SlackApiError && STEP_ALREADY_OVER.has(e.code)) return 'over';
    if (e instanceof SlackApiError && e.failure === 'refused' && !SLACK_BUSY.has(e.code)) return { refused: e.code };
    log.warn('could not complete a workflow step; trying again', { error: e });
    return 'again';
  }
}

/** Tells Slack, then marks the step done; a failure that may pass is left for the driver (once the claim's lease ends, then every pass). */
export async function tell(deps: TellDeps, step: StepRecord): Promise<void> {
  const log = deps.logger.child({ step: step.callbackId, execution: step.executionId });
  if (!deps.slack.completeStep) {
    log.warn('this chat cannot complete workflow steps');
    return;
  }
  const executionId = step.executionId;
  let told = await send(
    deps,
    log,
    step.outcome === 'success' ? { executionId, outputs: step.outputs ?? {} } : { executionId, error: step.error ?? words.stepOutcomeUnknown() },
  );
  if (typeof told === 'object' && step.outcome === 'success') {
    // Slack will never take these outputs: the step still ends, as failed, saying why.
    log.error('Slack refused a workflow step’s outputs; completing it as failed', { code: told.refused });
    told = await send(deps, log, { executionId, error: words.stepOutputsRefused(told.refused) });
  }
  if (told === 'again') {
    // updatedAt is when the outcome was claimed (claiming a due row leaves it).
    if (deps.clock.now() - step.updatedAt < (deps.giveUpMs ?? 2 * 3_600_000)) return;
    log.error('gave up completing a workflow step: Slack did not take it in time');
  } else if (typeof told === 'object') log.error('Slack refused to complete a workflow step; giving up', { code: told.refused });
  else if (told === 'over') log.info('Slack says the step is already over');
  else log.info('workflow step completed', { outcome: step.outcome });
  await deps.steps.done(executionId, deps.owner, deps.clock.now());
}
