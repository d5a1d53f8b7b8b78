/**
 * views.open, views.push, views.update, views.publish (the Home tab). Trigger ids are single-use and expire 3 s after the
 * interaction (their leading unix seconds, as in real trigger ids); a view breaking Block
 * Kit limits gets `invalid_arguments` with `[ERROR] … [json-pointer:/view/…]` messages, as
 * Slack answers for views.
 *
 * Modals close as in Slack (https://api.slack.com/surfaces/modals#interactions): the rig
 * tells the model what the app acked to a view_submission (`viewSubmissionAcked`: an empty
 * body closes the submitted view — for a root view the whole modal —, `clear` the whole
 * stack, `update` replaces it under the same id, `push` stacks a new one, `errors` leaves it
 * open) and when the person closed a view (`viewInteractionDelivered` with view_closed).
 * views.update / views.push on a closed view then answer `not_found`, like a missing one.
 */
import { randomBytes } from 'node:crypto';
import { fail, ok, str, type MethodContext, type MethodHandler, type SlackResponse } from './fake-slack-context.js';
import { isOpenView, withBlockIds, type FakeSlackModel, type FakeView } from './fake-slack-model.js';
import { slackId } from './ids.js';
import { isObject, type JsonObject } from './json.js';
import { submissionAckProblems } from './submission-ack.js';

export const TRIGGER_TTL_SEC = 3;
/** Slack waits this long for the ack of an interactive payload; a later answer is ignored. */
export const ACK_DEADLINE_MS = 3000;
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

/**
 * What storing a view needs: the model, who the app is, and the clock. `judgesAckDeadline`:
 * the clock is the test's (injected), so a view_submission acked more than 3 s after its
 * delivery on it is ignored, as Slack does. On the default wall clock the rig does not judge:
 * a loaded machine would make a prompt ack look late and tests flaky.
 */
export type ViewContext = Pick<MethodContext, 'model' | 'identity' | 'now'> & { judgesAckDeadline?: boolean };

function stored(raw: JsonObject, ctx: Pick<MethodContext, 'identity' | 'now'>, id: string, rootId: string, previousId: string | null): JsonObject {
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
      // The modal the trigger came from (when the rig knows it), else the newest open one.
      const fromId = model.triggerViews.get(String(params.trigger_id));
      const from = fromId ? model.view(fromId) : model.viewList.filter(isOpenView).at(-1);
      if (!from || !isOpenView(from)) return fail('not_found');
      rootId = String(from.view.root_view_id);
      const stack = model.openStack(rootId);
      previousId = stack.at(-1)!.id;
      if (stack.length >= VIEW_STACK_LIMIT) return fail('push_limit_reached');
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
  const record = ctx.model.viewList.find((v) => isOpenView(v) && (viewId ? v.id === viewId : v.view.external_id === externalId));
  // A view Slack closed (submitted, cleared, closed by the person) is gone, as a missing one.
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

/** Closes `record` and every open view stacked above it (the person sees the one below, if any). */
function closeFrom(model: FakeSlackModel, record: FakeView, at: number): void {
  const stack = model.openStack(String(record.view.root_view_id));
  const from = stack.indexOf(record);
  for (const v of from < 0 ? [record] : stack.slice(from)) v.closedAt = at;
}

function closeStack(model: FakeSlackModel, record: FakeView, at: number): void {
  for (const v of model.openStack(String(record.view.root_view_id))) v.closedAt = at;
  record.closedAt ??= at;
}

/** The open modal view a payload is about (its `view.id`), if the fake opened it. */
function openViewOf(model: FakeSlackModel, payload: JsonObject): FakeView | undefined {
  const id = isObject(payload.view) ? str(payload.view.id) : undefined;
  const record = id ? model.view(id) : undefined;
  return record && isOpenView(record) ? record : undefined;
}

/**
 * Slack is about to deliver an interactive payload: a trigger_id from inside a modal is tied
 * to it (views.push stacks there), and a `view_closed` means the person already closed the
 * view (`is_cleared`: the whole stack). Nobody can submit, click in or close a modal Slack
 * closed: such a payload throws, unless it is Slack redelivering (`redelivery`) one it sent
 * before.
 */
export function viewInteractionDelivered(ctx: ViewContext, payload: JsonObject, redelivery = false): void {
  const id = isObject(payload.view) ? str(payload.view.id) : undefined;
  const known = id ? ctx.model.view(id) : undefined;
  if (known && !isOpenView(known) && !redelivery) {
    throw new Error(`Slack would not deliver this ${String(payload.type)}: modal view ${id} (${String(known.view.callback_id)}) is closed; a person can only use an open one`);
  }
  if (payload.type === 'view_submission') ctx.model.deliveredAt.set(payload, ctx.now());
  const record = openViewOf(ctx.model, payload);
  if (!record) return;
  const trigger = str(payload.trigger_id);
  if (trigger) ctx.model.triggerViews.set(trigger, record.id);
  if (payload.type === 'view_closed') {
    if (payload.is_cleared === true) closeStack(ctx.model, record, ctx.now());
    else closeFrom(ctx.model, record, ctx.now());
  }
}

/**
 * The app acked a `view_submission` (HTTP 200 / a Socket Mode ack) with `ack` (undefined for
 * an empty body). An answer Slack would refuse (submission-ack.ts) leaves the view open; so
 * does one later than 3 s after delivery (judged on an injected clock only, see ViewContext):
 * Slack has shown the person an error in the modal by then and ignores the answer.
 */
export function viewSubmissionAcked(ctx: ViewContext, payload: JsonObject, ack: unknown): void {
  if (payload.type !== 'view_submission') return;
  const record = openViewOf(ctx.model, payload);
  if (!record || submissionAckProblems(payload, ack).length > 0) return;
  const answer = isObject(ack) ? ack : {};
  const at = ctx.now();
  const deliveredAt = ctx.model.deliveredAt.get(payload);
  if (ctx.judgesAckDeadline && deliveredAt !== undefined && at - deliveredAt > ACK_DEADLINE_MS) {
    record.lateAcks = [...(record.lateAcks ?? []), at];
    return;
  }
  switch (answer.response_action) {
    case 'errors':
      return;
    case 'clear':
      closeStack(ctx.model, record, at);
      return;
    case 'update': {
      if (!isObject(answer.view)) return;
      const view = stored(answer.view, ctx, record.id, String(record.view.root_view_id), record.view.previous_view_id as string | null);
      record.view = view;
      record.versions.push(view);
      return;
    }
    case 'push': {
      if (!isObject(answer.view)) return;
      const id = slackId('V', 11);
      const view = stored(answer.view, ctx, id, String(record.view.root_view_id), record.id);
      ctx.model.viewList.push({ id, view, versions: [view], openedAt: at, method: 'response_action' });
      return;
    }
    default:
      closeFrom(ctx.model, record, at);
  }
}

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
