/**
 * Required parameters of the Web API methods the bot uses, derived from Slack's OpenAPI
 * description (shared/slack/web-api-methods.json), plus the few places that 2021 spec is
 * stale. The fake Slack rejects a call missing any of them, as Slack would.
 */
import { readFileSync } from 'node:fs';
import { isObject } from './json.js';

export const WEB_API_SPEC_URL = new URL('../fixtures/slack/web-api-methods.json', import.meta.url);

export interface MethodSpec {
  method: string;
  /** Required non-token parameters. */
  required: string[];
  /** At least one of each group must be present (e.g. views.update: view_id or external_id). */
  oneOf: string[][];
  /** Error codes the spec lists for the method (empty when the spec lists none). */
  errors: string[];
}

/**
 * Where the spec is stale, corrected from Slack's current method reference: every method
 * needs a token (the spec marks it optional on a few), chat.delete needs channel and ts,
 * conversations.join a channel, users.info a user, views.update a view.
 */
const ALSO_REQUIRED: Record<string, string[]> = {
  'chat.delete': ['channel', 'ts'],
  'conversations.join': ['channel'],
  'users.info': ['user'],
  'views.update': ['view'],
};
const ONE_OF: Record<string, string[][]> = {
  'views.update': [['view_id', 'external_id']],
  'conversations.open': [['channel', 'users']],
};

/**
 * Not in the spec subset: Socket Mode's own method (needs an app-level token),
 * conversations.replies (the watcher looks for its own final post) and conversations.history
 * (so does a maintenance summary's take-over), from Slack's method reference, and views.publish (the Home tab), from Slack's OpenAPI description.
 */
const EXTRA_METHODS: MethodSpec[] = [
  { method: 'apps.connections.open', required: [], oneOf: [], errors: [] },
  // The App Home tab (issue 14). Slack's OpenAPI description (slackapi/slack-api-specs,
  // operation views_publish): `user_id` and `view` required, `hash` optional, scope none.
  { method: 'views.publish', required: ['user_id', 'view'], oneOf: [], errors: [] },
  // Link unfurls (issue 23): not in the 2021 subset. Slack's method reference and
  // @slack/web-api's ChatUnfurlArguments: `unfurls`, and either channel + ts or unfurl_id +
  // source (fake-slack-unfurl.ts checks the pairs).
  {
    method: 'chat.unfurl',
    required: ['unfurls'],
    oneOf: [['channel', 'unfurl_id']],
    errors: ['cannot_unfurl_url', 'cannot_find_message', 'cannot_prompt', 'cannot_unfurl_message', 'invalid_unfurls_format', 'missing_scope', 'not_authed', 'invalid_auth'],
  },
  // Workflow steps (issue 23), from Slack's method reference: no scope; errors as it lists them.
  {
    method: 'functions.completeSuccess',
    required: ['function_execution_id', 'outputs'],
    oneOf: [],
    errors: ['execution_not_in_running_state', 'function_execution_not_found', 'parameter_validation_failed'],
  },
  {
    method: 'functions.completeError',
    required: ['function_execution_id', 'error'],
    oneOf: [],
    errors: ['execution_not_in_running_state', 'function_execution_not_found', 'parameter_validation_failed'],
  },
  // Maintenance summaries (a take-over looks for one a stopped replica posted), from Slack's
  // method reference (api.slack.com/methods/conversations.history): `channel` required; cursor,
  // include_all_metadata, inclusive, latest, limit, oldest optional; errors as it lists them.
  {
    method: 'conversations.history',
    required: ['channel'],
    oneOf: [],
    errors: ['channel_not_found', 'invalid_cursor', 'invalid_ts_latest', 'invalid_ts_oldest', 'missing_scope', 'not_in_channel'],
  },
  {
    method: 'conversations.replies',
    required: ['channel', 'ts'],
    oneOf: [],
    errors: ['channel_not_found', 'thread_not_found', 'missing_scope', 'not_in_channel', 'invalid_cursor'],
  },
];

export function loadWebApiSpec(url: URL = WEB_API_SPEC_URL): Map<string, MethodSpec> {
  const doc: unknown = JSON.parse(readFileSync(url, 'utf8'));
  const paths = isObject(doc) && isObject(doc.paths) ? doc.paths : {};
  const specs = new Map<string, MethodSpec>();
  for (const [path, operations] of Object.entries(paths)) {
    const method = path.replace(/^\//, '');
    for (const op of Object.values(isObject(operations) ? operations : {})) {
      if (!isObject(op)) continue;
      const params = Array.isArray(op.parameters) ? op.parameters.filter(isObject) : [];
      const required = params.filter((p) => p.required === true && p.name !== 'token').map((p) => String(p.name));
      const errorSchema = isObject(op.responses) && isObject(op.responses.default) ? op.responses.default.schema : undefined;
      const errorEnum = isObject(errorSchema) && isObject(errorSchema.properties) && isObject(errorSchema.properties.error)
        ? errorSchema.properties.error.enum
        : undefined;
      specs.set(method, {
        method,
        required: [...new Set([...required, ...(ALSO_REQUIRED[method] ?? [])])],
        oneOf: ONE_OF[method] ?? [],
        errors: Array.isArray(errorEnum) ? errorEnum.map(String) : [],
      });
    }
  }
  for (const extra of EXTRA_METHODS) specs.set(extra.method, extra);
  return specs;
}

/**
 * The error Slack answers for a missing parameter: the specific code where the method's
 * error list has one (`channel_not_found`, `message_not_found`, `user_not_found`,
 * `user_not_in_channel`), otherwise `invalid_arguments` with a `[ERROR] missing required
 * field` message, as Slack's schema-validated methods (views.*, …) do.
 */
export function missingParamError(spec: MethodSpec, param: string): { error: string; messages?: string[] } {
  const specific: Record<string, string[]> = {
    channel: ['channel_not_found'],
    ts: ['message_not_found'],
    user: ['user_not_found', 'user_not_in_channel'],
  };
  const code = (specific[param] ?? []).find((e) => spec.errors.includes(e));
  if (code) return { error: code };
  return { error: 'invalid_arguments', messages: [`[ERROR] missing required field: ${param}`] };
}
