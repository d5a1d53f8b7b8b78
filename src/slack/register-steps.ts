/**
 * Workflow Builder steps (issue 23): one listener for `function_executed`, which acks first and
 * hands a step the catalog declares (operations/steps.ts, manifest.yml `functions`) to the core;
 * an execution of a function the catalog does not declare is acked and left alone. One listener,
 * not an `app.function` per step: Bolt runs every listener's middleware for every request, the
 * slash commands' included. The step then runs detached in the core
 * (app/run-step.ts, the core's `step`), which completes it through the chat interface — not through Bolt's
 * `complete`/`fail`, since a step that waits for a person may be completed by another replica
 * or after a restart.
 */
import type { ListenerRoutes } from './listener-routes.js';
import { stepById } from '../operations/steps.js';
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
    const s = stepById(event.function.callback_id);
    if (!s) return;
    const exec = {
      executionId: event.function_execution_id,
      callbackId: s.callbackId,
      inputs: (event.inputs ?? {}) as Record<string, unknown>,
      ...(event.workflow_execution_id ? { workflow: event.workflow_execution_id } : {}),
      ...(typeof body.team_id === 'string' ? { teamId: body.team_id } : {}),
    };
    deps.afterAck.run(`workflow step ${s.callbackId}`, async () => void (await step(exec)));
  });
}
