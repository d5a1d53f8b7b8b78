/**
 * What Slack does with the answer to a `view_submission`: `response_action: 'errors'` must key
 * each message by the block_id of an input block in the submitted view, and an `update` or
 * `push` view must keep Block Kit's limits; otherwise Slack shows the person "We had some
 * trouble connecting" and the answer is lost.
 * https://api.slack.com/surfaces/modals#displaying_errors
 */
import { findBlockKitViolations } from './block-kit-limits.js';
import type { JsonObject } from './json.js';

export function submissionAckProblems(payload: JsonObject, ack: unknown): string[] {
  if (payload.type !== 'view_submission' || typeof ack !== 'object' || ack === null) return [];
  const answer = ack as { response_action?: string; errors?: Record<string, unknown>; view?: unknown };
  if (answer.response_action === 'errors') {
    const view = payload.view as { blocks?: { type?: string; block_id?: string }[] } | undefined;
    const inputs = new Set((view?.blocks ?? []).filter((b) => b.type === 'input').map((b) => b.block_id));
    const keys = Object.keys(answer.errors ?? {});
    if (keys.length === 0) return ['response_action errors with no errors'];
    return keys.filter((k) => !inputs.has(k)).map((k) => `errors key ${JSON.stringify(k)} is no input block of the submitted view`);
  }
  if (answer.response_action === 'update' || answer.response_action === 'push') {
    return findBlockKitViolations(answer.view).map((v) => `${answer.response_action} view ${v.path || '/'}: ${v.message}`);
  }
  return [];
}
