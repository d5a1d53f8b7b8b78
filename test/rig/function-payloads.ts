/**
 * `function_executed` as Slack delivers it to the Events API request URL (an `event_callback`)
 * when Workflow Builder reaches one of the app's steps (issue 23): the step's definition as the
 * manifest declares it (parameters as a list), its inputs, the execution ids, and a short-lived
 * workflow token (`bot_access_token`). Shape from Slack's `function_executed` event reference
 * and @slack/types' FunctionExecutedEvent.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { slackId, tsAt } from './ids.js';
import { isObject, type JsonObject } from './json.js';
import { MANIFEST_URL } from './manifest-scopes.js';
import { APP_ID, BOT, TEAM, VERIFICATION_TOKEN } from './workspace.js';

export interface FunctionExecutedInput {
  callbackId: string;
  inputs: Record<string, unknown>;
  /** Default a fresh `Fx…` id; a retried delivery sends the same. */
  executionId?: string;
  workflowExecutionId?: string;
  /** A retried delivery carries the first one's event_id. */
  eventId?: string;
  nowMs?: number;
  teamId?: string;
}

function declared(callbackId: string): JsonObject {
  const m: unknown = parse(readFileSync(MANIFEST_URL, 'utf8'));
  const fn = isObject(m) && isObject(m.functions) ? m.functions[callbackId] : undefined;
  return isObject(fn) ? fn : {};
}

const params = (o: unknown): JsonObject[] => (isObject(o) ? Object.entries(o).map(([name, p]) => ({ name, ...(isObject(p) ? p : {}) })) : []);

export const newExecutionId = (): string => slackId('Fx', 10);

export function functionExecutedEnvelope(input: FunctionExecutedInput): JsonObject {
  const nowMs = input.nowMs ?? Date.now();
  const teamId = input.teamId ?? TEAM.id;
  const fn = declared(input.callbackId);
  return {
    token: VERIFICATION_TOKEN,
    team_id: teamId,
    api_app_id: APP_ID,
    event: {
      type: 'function_executed',
      function: {
        id: slackId('Fn', 10),
        callback_id: input.callbackId,
        title: typeof fn.title === 'string' ? fn.title : input.callbackId,
        description: typeof fn.description === 'string' ? fn.description : '',
        type: 'app',
        input_parameters: params(fn.input_parameters),
        output_parameters: params(fn.output_parameters),
        app_id: APP_ID,
        date_created: Math.floor(nowMs / 1000) - 86_400,
        date_updated: Math.floor(nowMs / 1000) - 3600,
        date_deleted: 0,
      },
      inputs: input.inputs as JsonObject,
      function_execution_id: input.executionId ?? newExecutionId(),
      workflow_execution_id: input.workflowExecutionId ?? slackId('Wx', 10),
      event_ts: tsAt(nowMs),
      bot_access_token: `xwfp-${slackId('', 24).toLowerCase()}`,
    },
    type: 'event_callback',
    event_id: input.eventId ?? slackId('Ev', 10),
    event_time: Math.floor(nowMs / 1000),
    authorizations: [{ enterprise_id: null, team_id: teamId, user_id: BOT.userId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: `4-fake-${teamId}`,
  };
}
