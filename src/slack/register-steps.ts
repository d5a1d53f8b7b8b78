/**
 * Workflow Builder steps (issue 23): one listener for `function_executed`, which acks first and
 * hands every execution to the core, which runs a step the catalog declares (operations/steps.ts,
 * manifest.yml `functions`) and fails any other, so none is left waiting. One listener,
 * not an `app.function` per step: Bolt runs every listener's middleware for every request, the
 * slash commands' included. The step then runs detached in the core
 * (app/run-step.ts, the core's `step`), which completes it through the chat interface — not through Bolt's
 * `complete`/`fail`, since a step that waits for a person may be completed by another replica
 * or after a restart.
 */
import type { ListenerRoutes } from './listener-routes.js';
import type { AppCore } from '../app/app-core.js';
import type { AfterAck } from './after-ack.js';

export interface StepListenerDeps {
  afterAck: AfterAck;
  /** `core.step` absent: the bot offers no workflow steps. */
  core: Pick<AppCore, 'step'>;
}

export function registerSteps(routes: ListenerRoutes, deps: StepListenerDeps): void {
  const step = deps.core.step;
  if (!step) return;
  routes.event('function_executed', async ({ ack, event, body }) => {
    // As app.function's autoAcknowledge does: before anything else (Slack waits 3 s).
    await ack();
    // A function this version does not declare goes on too: the core fails it, saying so.
    const callbackId = event.function.callback_id;
    const exec = {
      executionId: event.function_execution_id,
      callbackId,
      inputs: (event.inputs ?? {}) as Record<string, unknown>,
      ...(event.workflow_execution_id ? { workflow: event.workflow_execution_id } : {}),
      ...(typeof body.team_id === 'string' ? { teamId: body.team_id } : {}),
    };
    deps.afterAck.run(`workflow step ${callbackId}`, async () => void (await step(exec)));
  });
}
