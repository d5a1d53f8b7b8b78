/**
 * Workflow Builder steps (issue 23): one `app.function` per step the catalog declares
 * (operations/steps.ts, manifest.yml `functions`). Bolt acknowledges `function_executed` before
 * the listener runs (autoAcknowledge); the step then runs detached in the core
 * (app/run-step.ts, the core's `step`), which completes it through the chat interface — not through Bolt's
 * `complete`/`fail`, since a step that waits for a person may be completed by another replica
 * or after a restart.
 */
import type { App } from '@slack/bolt';
import { STEPS } from '../operations/steps.js';
import type { AppCore } from '../app/app-core.js';
import type { AfterAck } from './after-ack.js';

export interface StepListenerDeps {
  afterAck: AfterAck;
  /** `core.step` absent: the bot offers no workflow steps. */
  core: Pick<AppCore, 'step'>;
}

export function registerSteps(app: App, deps: StepListenerDeps): void {
  const step = deps.core.step;
  if (!step) return;
  for (const s of STEPS) {
    app.function(s.callbackId, { autoAcknowledge: true }, async ({ event, body }) => {
      const exec = {
        executionId: event.function_execution_id,
        callbackId: event.function.callback_id,
        inputs: (event.inputs ?? {}) as Record<string, unknown>,
        ...(event.workflow_execution_id ? { workflow: event.workflow_execution_id } : {}),
        ...(typeof body.team_id === 'string' ? { teamId: body.team_id } : {}),
      };
      deps.afterAck.run(`workflow step ${s.callbackId}`, async () => void (await step(exec)));
    });
  }
}
