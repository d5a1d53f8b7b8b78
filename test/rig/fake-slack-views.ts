/**
 * views.open, views.push, views.update, views.publish (the Home tab). Trigger ids are single-use and expire 3 s after the
 * interaction (their leading unix seconds, as in real trigger ids); a view breaking Block
 * Kit limits gets `invalid_arguments` with `[ERROR] … [json-pointer:/view/…]` messages, as
 * Slack answers for views.
 */
import { randomBytes } from 'node:crypto';
import { fail, ok, str, type MethodContext, type MethodHandler, type SlackResponse } from './fake-slack-context.js';
import { withBlockIds, type FakeView } from './fake-slack-model.js';
import { slackId } from './ids.js';
import { isObject, type JsonObject } from './json.js';

export const TRIGGER_TTL_SEC = 3;
/** Slack allows a stack of at most 3 views (root + 2 pushed). */
export const VIEW_STACK_LIMIT = 3;

function useTrigger(triggerId: string, ctx: MethodContext): SlackResponse | undefined {
  const issuedSec = Number(/^(\d+)\./.exec(triggerId)?.[1]);
  if (!Number.isFinite(issuedSec)) return fail('invalid_trigger_id');
  if (ctx.model.usedTriggers.has(triggerId)) return fail('exchanged_trigger_id');
  if (Math.floor(ctx.now() / 1000) - issuedSec > TRIGGER_TTL_SEC) return fail('expired_trigger_id');
  ctx.model.usedTriggers.add(triggerId);
  return undefined;
}

function checkedView(raw: unknown, ctx: MethodContext): JsonObject | SlackResponse {
  if (!isObject(raw)) return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] view must be a JSON object [json-pointer:/view]'] } });
  const violations = ctx.check(raw);
  if (violations.length > 0) {
    const messages = violations.map((v) => `[ERROR] ${v.message} [json-pointer:/view${v.path}]`);
    return fail('invalid_arguments', { response_metadata: { messages } });
  }
  return raw;
}

function stored(raw: JsonObject, ctx: MethodContext, id: string, rootId: string, previousId: string | null): JsonObject {
  const { identity } = ctx;
  return {
    id,
    team_id: identity.teamId,
    type: raw.type,
    blocks: withBlockIds(Array.isArray(raw.blocks) ? raw.blocks : []),
    private_metadata: raw.private_metadata ?? '',
    callback_id: raw.callback_id ?? '',
    state: { values: {} },
    hash: `${Math.floor(ctx.now() / 1000)}.${randomBytes(4).toString('hex')}`,
    title: raw.title,
    clear_on_close: raw.clear_on_close ?? false,
    notify_on_close: raw.notify_on_close ?? false,
    close: raw.close ?? null,
    submit: raw.submit ?? null,
    previous_view_id: previousId,
    root_view_id: rootId,
    app_id: identity.appId,
    external_id: raw.external_id ?? '',
    app_installed_team_id: identity.teamId,
    bot_id: identity.botId,
  };
}

function open(method: 'views.open' | 'views.push'): MethodHandler {
  return (params, ctx) => {
    const triggerError = useTrigger(String(params.trigger_id), ctx);
    if (triggerError) return triggerError;
    const raw = checkedView(params.view, ctx);
    if ('ok' in raw) return raw as SlackResponse;
    if (raw.type !== 'modal') return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] view type must be modal [json-pointer:/view/type]'] } });
    const { model } = ctx;
    const id = slackId('V', 11);
    let rootId = id;
    let previousId: string | null = null;
    if (method === 'views.push') {
      const top = model.viewList.at(-1);
      if (!top) return fail('not_found');
      rootId = String(top.view.root_view_id);
      previousId = top.id;
      const depth = model.viewList.filter((v) => v.view.root_view_id === rootId).length;
      if (depth >= VIEW_STACK_LIMIT) return fail('push_limit_reached');
    }
    const view = stored(raw, ctx, id, rootId, previousId);
    const record: FakeView = { id, view, versions: [view], openedAt: ctx.now(), method };
    model.viewList.push(record);
    return ok({ view });
  };
}

const update: MethodHandler = (params, ctx) => {
  const viewId = str(params.view_id);
  const externalId = str(params.external_id);
  const record = ctx.model.viewList.find((v) => (viewId ? v.id === viewId : v.view.external_id === externalId));
  if (!record) return fail('not_found');
  const hash = str(params.hash);
  if (hash && hash !== record.view.hash) return fail('hash_conflict');
  const raw = checkedView(params.view, ctx);
  if ('ok' in raw) return raw as SlackResponse;
  const view = stored(raw, ctx, record.id, String(record.view.root_view_id), record.view.previous_view_id as string | null);
  record.view = view;
  record.versions.push(view);
  return ok({ view });
};

/** views.publish: a Home tab per person; needs a known user and a `home` view within Block Kit limits. */
const publish: MethodHandler = (params, ctx) => {
  const userId = str(params.user_id);
  if (!userId || !ctx.model.users.has(userId)) return fail('user_not_found');
  const raw = checkedView(params.view, ctx);
  if ('ok' in raw) return raw as SlackResponse;
  if (raw.type !== 'home') return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] view type must be home [json-pointer:/view/type]'] } });
  const versions = ctx.model.homes.get(userId) ?? [];
  const hash = str(params.hash);
  if (hash && hash !== versions.at(-1)?.hash) return fail('hash_conflict');
  const view = stored(raw, ctx, String(versions.at(-1)?.id ?? slackId('V', 11)), '', null);
  view.root_view_id = view.id;
  ctx.model.homes.set(userId, [...versions, view]);
  return ok({ view });
};

export const viewMethods: Record<string, MethodHandler> = {
  'views.open': open('views.open'),
  'views.push': open('views.push'),
  'views.update': update,
  'views.publish': publish,
};
