/**
 * The hostile-output tour of workflow steps (issue 23): hostile text typed into step inputs
 * (echoed by refusals and shown on the cards a change step posts) and ending in a step's error
 * sentence. Every completion goes through the fake Slack, whose calls the checker reads.
 */
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';
import type { BotRig } from './bot-rig.js';

/** Runs a step and waits for its card (a change) or its completion (anything else); returns the card if one came. */
async function step(rig: BotRig, callbackId: string, inputs: Record<string, unknown>) {
  const executionId = newExecutionId();
  const before = Date.now();
  rig.slack.executions.start(executionId, callbackId);
  await rig.send.event(functionExecutedEnvelope({ callbackId, executionId, inputs: { channel: OPS_CHANNEL.id, requester: ALICE.id, ...inputs } }));
  await rig.bot.settled();
  const ended = () => rig.slack.calls.some((c) => c.method.startsWith('functions.complete') && c.params.function_execution_id === executionId);
  const card = await waitFor(() => (ended() ? 'ended' : rig.slack.messages.inChannel(OPS_CHANNEL.id).find((m) => m.postedAt >= before)), { timeoutMs: 10_000 });
  return { executionId, card: card === 'ended' ? undefined : card };
}

/** Each step once with hostile values in its inputs; change steps are cancelled (an error sentence) or confirmed. */
export async function stepTour(rig: BotRig, value: (i: number) => string): Promise<void> {
  await step(rig, 'server_status', { server: value(0) });
  const backup = await step(rig, 'backup_create', { server: '101', name: value(1) });
  if (backup.card) {
    await rig.send.interaction((await import('../rig/payloads.js')).blockActionsPayload({ actionId: 'op_cancel', message: backup.card, userId: BOB.id, channelId: OPS_CHANNEL.id, responseUrl: rig.responses.next() }));
  }
  const rule = await step(rig, 'sg_add_rule', { group: '7', direction: 'in', action: 'allow', protocol: 'tcp', port: '443', comment: value(2) });
  if (rule.card) {
    await rig.send.interaction((await import('../rig/payloads.js')).blockActionsPayload({ actionId: 'op_confirm', message: rule.card, userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl: rig.responses.next() }));
  }
  await step(rig, 'worker_deploy', { name: value(3), location: 1, repo: 'https://github.com/example/app' });
  await step(rig, 'ip_reserve', { location: 1, subnet: value(4) });
  await rig.bot.settled();
  rig.clock.jump?.(10_001);
  await rig.bot.steps.tick();
}
