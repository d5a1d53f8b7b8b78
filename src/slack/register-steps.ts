/**
 * Workflow Builder steps (issue 23): one `app.function` per step the catalog declares
 * (operations/steps.ts, manifest.yml `functions`). Bolt acknowledges `function_executed` before
 * the listener runs (autoAcknowledge); the step then runs detached in the core
 * (app/run-step.ts), which completes it through the chat interface — not through Bolt's
 * `complete`/`fail`, since a step that waits for a person may be completed by another replica
 * or after a restart.
 */
import type { App } from '@slack/bolt';
import { STEPS } from '../operations/steps.js';
import { runStep, type StepDeps } from '../app/run-step.js';
import type { AfterAck } from './after-ack.js';

export interface StepListenerDeps {
  afterAck: AfterAck;
  /** The core's steps (absent: the bot offers no workflow steps). */
  steps?: StepDeps;
}

export function registerSteps(app: App, deps: StepListenerDeps): void {
  const core = deps.steps;
  if (!core) return;
  for (const step of STEPS) {
    app.function(step.callbackId, { autoAcknowledge: true }, async ({ event, body }) => {
      const exec = {
        executionId: event.function_execution_id,
        callbackId: event.function.callback_id,
        inputs: (event.inputs ?? {}) as Record<string, unknown>,
        ...(event.workflow_execution_id ? { workflow: event.workflow_execution_id } : {}),
        ...(typeof body.team_id === 'string' ? { teamId: body.team_id } : {}),
      };
      deps.afterAck.run(`workflow step ${step.callbackId}`, async () => void (await runStep(core, exec)));
    });
  }
}
