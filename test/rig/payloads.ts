/**
 * Raw request bodies as Slack sends them to an app: slash commands as form fields, and
 * interactive payloads (block_actions, view_submission, view_closed, block_suggestion) as a
 * form field `payload=<JSON>`. Defaults come from `workspace.ts`, so they match the fake Slack.
 *
 * The default `response_url` points at a closed loopback port: a test that forgets to give a
 * real one (from `createResponseUrls`) fails fast and never reaches the internet.
 */
import { elementOptions, findElement } from './block-elements.js';
import { tsAt, triggerId as newTriggerId } from './ids.js';
import type { JsonObject } from './json.js';
import { elementState, viewStateValues, type InputValue } from './view-state.js';
import { ALICE, APP_ID, BOT, DEFAULT_CHANNELS, DEFAULT_USERS, OPS_CHANNEL, TEAM, VERIFICATION_TOKEN } from './workspace.js';

export const UNSET_RESPONSE_URL = 'http://127.0.0.1:9/response-url-not-set';

/** Who acts, and where. Every field defaults to Alice in #cloud-ops of the fake team. */
export interface Actor {
  userId?: string;
  userName?: string;
  teamId?: string;
  teamDomain?: string;
  apiAppId?: string;
  /** Legacy verification token field; Bolt ignores it (it verifies signatures). */
  token?: string;
  triggerId?: string;
  /** Unix ms used for trigger ids and action_ts; default now. */
  nowMs?: number;
}

interface ResolvedActor {
  userId: string;
  userName: string;
  teamId: string;
  teamDomain: string;
  apiAppId: string;
  token: string;
  triggerId: string;
  nowMs: number;
}

function resolve(a: Actor): ResolvedActor {
  const userId = a.userId ?? ALICE.id;
  const nowMs = a.nowMs ?? Date.now();
  return {
    userId,
    userName: a.userName ?? DEFAULT_USERS.find((u) => u.id === userId)?.name ?? userId.toLowerCase(),
    teamId: a.teamId ?? TEAM.id,
    teamDomain: a.teamDomain ?? TEAM.domain,
    apiAppId: a.apiAppId ?? APP_ID,
    token: a.token ?? VERIFICATION_TOKEN,
    triggerId: a.triggerId ?? newTriggerId(nowMs),
    nowMs,
  };
}

const channelName = (id: string) => DEFAULT_CHANNELS.find((c) => c.id === id)?.name ?? id.toLowerCase();

/** The fields every interactive payload carries. */
function interaction(type: string, a: ResolvedActor): JsonObject {
  return {
    type,
    user: { id: a.userId, username: a.userName, name: a.userName, team_id: a.teamId },
    api_app_id: a.apiAppId,
    token: a.token,
    team: { id: a.teamId, domain: a.teamDomain },
    enterprise: null,
    is_enterprise_install: false,
  };
}

/** `payload=<url-encoded JSON>`: how Slack delivers every interactive payload over HTTP. */
export function interactiveBody(payload: JsonObject): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

// ── slash commands ──────────────────────────────────────────────────────────────────────

export interface SlashCommandInput extends Actor {
  /** Everything after the command, e.g. `server status 42`. */
  text?: string;
  command?: string;
  channelId?: string;
  channelName?: string;
  responseUrl?: string;
}

/** The fields of a slash command in the order Slack sends them. */
export function slashCommandFields(input: SlashCommandInput = {}): Record<string, string> {
  const a = resolve(input);
  const channelId = input.channelId ?? OPS_CHANNEL.id;
  return {
    token: a.token,
    team_id: a.teamId,
    team_domain: a.teamDomain,
    channel_id: channelId,
    channel_name: input.channelName ?? channelName(channelId),
    user_id: a.userId,
    user_name: a.userName,
    command: input.command ?? '/cloud',
    text: input.text ?? '',
    api_app_id: a.apiAppId,
    is_enterprise_install: 'false',
    response_url: input.responseUrl ?? UNSET_RESPONSE_URL,
    trigger_id: a.triggerId,
  };
}

/** `token=…&team_id=…&command=%2Fcloud&text=…`: the raw form body Slack posts. */
export function slashCommandBody(input: SlashCommandInput = {}): string {
  return new URLSearchParams(slashCommandFields(input)).toString();
}

// ── block_actions ───────────────────────────────────────────────────────────────────────

/** A message as the fake Slack records it (`fake.messages`), or as a test writes it. */
export interface MessageLike {
  ts: string;
  channel?: string;
  text?: string;
  blocks?: unknown[];
  thread_ts?: string;
}

/** The fields of a message Slack puts into an interaction payload (no rig bookkeeping). */
const MESSAGE_FIELDS = ['type', 'subtype', 'user', 'bot_id', 'app_id', 'team', 'text', 'blocks', 'ts', 'thread_ts', 'edited', 'reply_count', 'latest_reply', 'metadata'];

function messageObject(message: MessageLike, teamId: string): JsonObject {
  const source = message as unknown as JsonObject;
  const picked = Object.fromEntries(MESSAGE_FIELDS.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
  return { type: 'message', user: BOT.userId, bot_id: BOT.botId, app_id: APP_ID, team: teamId, ...picked };
}

/** A view as `views.open` returned it (`fake.views`), or a hand-written one. */
export interface ViewLike {
  id?: string;
  blocks?: unknown[];
  callback_id?: string;
  private_metadata?: string;
  [key: string]: unknown;
}

export interface BlockActionsInput extends Actor {
  /** The element clicked or changed; looked up in the message's or view's blocks. */
  actionId: string;
  blockId?: string;
  /** A select's chosen value(s), a picker's id, a date…; buttons carry their own value. */
  selected?: InputValue;
  /** The message holding the element (not for ephemeral messages: Slack omits it there). */
  message?: MessageLike;
  /** An ephemeral message holding the element (e.g. from `fake.messages.ephemeral(user)`); Slack sends no `message` object for these. */
  ephemeral?: { channel: string; message_ts: string; blocks?: unknown[] };
  /** The modal holding the element; `values` are its inputs' current contents. */
  view?: ViewLike;
  values?: Record<string, InputValue>;
  channelId?: string;
  channelName?: string;
  responseUrl?: string;
}

function actionFor(element: JsonObject, blockId: string, selected: InputValue | undefined, actionTs: string): JsonObject {
  const type = String(element.type);
  const base: JsonObject = { type, block_id: blockId, action_id: element.action_id, action_ts: actionTs };
  if (type === 'button' || type === 'workflow_button') {
    for (const key of ['text', 'value', 'style', 'url'] as const) if (key in element) base[key] = element[key];
    return base;
  }
  if (type === 'overflow') {
    const value = typeof selected === 'string' ? selected : undefined;
    const option = elementOptions(element).find((o) => o.value === value);
    if (!option) throw new Error(`overflow "${String(element.action_id)}" has no option "${String(value)}"`);
    return { ...base, selected_option: option };
  }
  const { type: _t, ...state } = elementState(element, selected);
  const placeholder = 'placeholder' in element ? { placeholder: element.placeholder } : {};
  return { ...base, ...placeholder, ...state };
}

export function blockActionsPayload(input: BlockActionsInput): JsonObject {
  const a = resolve(input);
  const blocks = input.view?.blocks ?? input.message?.blocks ?? input.ephemeral?.blocks ?? [];
  const found = findElement(blocks, input.actionId, input.blockId);
  const action = actionFor(found.element, found.blockId, input.selected, tsAt(a.nowMs));
  const channelId = input.channelId ?? input.message?.channel ?? input.ephemeral?.channel ?? OPS_CHANNEL.id;
  const common = { ...interaction('block_actions', a), trigger_id: a.triggerId };
  if (input.view) {
    const values = viewStateValues(input.view.blocks, input.values);
    return {
      ...common,
      container: { type: 'view', view_id: input.view.id },
      view: { ...input.view, state: { values } },
      actions: [action],
    };
  }
  const channel = { id: channelId, name: input.channelName ?? channelName(channelId) };
  const responseUrl = input.responseUrl ?? UNSET_RESPONSE_URL;
  if (input.ephemeral) {
    return {
      ...common,
      container: { type: 'message', message_ts: input.ephemeral.message_ts, channel_id: channelId, is_ephemeral: true },
      channel,
      state: { values: {} },
      response_url: responseUrl,
      actions: [action],
    };
  }
  const message = input.message;
  if (!message) throw new Error('blockActionsPayload needs a message, an ephemeral message or a view');
  return {
    ...common,
    container: { type: 'message', message_ts: message.ts, channel_id: channelId, is_ephemeral: false },
    channel,
    message: messageObject(message, a.teamId),
    state: { values: {} },
    response_url: responseUrl,
    actions: [action],
  };
}

// ── modals ──────────────────────────────────────────────────────────────────────────────

/** The view as Slack echoes it back: every field it stores, with the state filled in. */
function echoedView(view: ViewLike, a: ResolvedActor, values: Record<string, InputValue> | undefined): JsonObject {
  const id = view.id ?? 'VFAKEVIEW1';
  return {
    id,
    team_id: a.teamId,
    type: 'modal',
    private_metadata: '',
    callback_id: '',
    hash: `${Math.floor(a.nowMs / 1000)}.fakehash`,
    clear_on_close: false,
    notify_on_close: false,
    close: null,
    submit: null,
    previous_view_id: null,
    root_view_id: id,
    app_id: a.apiAppId,
    external_id: '',
    app_installed_team_id: a.teamId,
    bot_id: BOT.botId,
    ...view,
    state: { values: viewStateValues(view.blocks, values) },
  };
}

export interface ViewSubmissionInput extends Actor {
  view: ViewLike;
  /** Input contents keyed by action_id (or `block_id.action_id`); untouched inputs keep initial values. */
  values?: Record<string, InputValue>;
}

export function viewSubmissionPayload(input: ViewSubmissionInput): JsonObject {
  const a = resolve(input);
  return {
    ...interaction('view_submission', a),
    trigger_id: a.triggerId,
    view: echoedView(input.view, a, input.values),
    response_urls: [],
  };
}

export interface ViewClosedInput extends Actor {
  view: ViewLike;
  /** True when the whole stack was closed (clear_on_close / "x" on a pushed view). */
  isCleared?: boolean;
}

/** Sent only for views opened with `notify_on_close: true`. */
export function viewClosedPayload(input: ViewClosedInput): JsonObject {
  const a = resolve(input);
  return { ...interaction('view_closed', a), view: echoedView(input.view, a, undefined), is_cleared: input.isCleared ?? false };
}

export interface BlockSuggestionInput extends Actor {
  actionId: string;
  blockId?: string;
  /** What the person has typed so far. */
  value: string;
  /** The modal holding the external_select; without it, a message container in #cloud-ops. */
  view?: ViewLike;
  message?: MessageLike;
}

/** An `external_select` asking for options; answer within 3 s with `{ options: [...] }` (≤ 100). */
export function blockSuggestionPayload(input: BlockSuggestionInput): JsonObject {
  const a = resolve(input);
  const blocks = input.view?.blocks ?? input.message?.blocks;
  const blockId = blocks ? findElement(blocks, input.actionId, input.blockId).blockId : (input.blockId ?? 'block');
  const container = input.view
    ? { type: 'view', view_id: input.view.id }
    : { type: 'message', message_ts: input.message?.ts, channel_id: input.message?.channel ?? OPS_CHANNEL.id };
  const payload: JsonObject = {
    ...interaction('block_suggestion', a),
    container,
    action_id: input.actionId,
    block_id: blockId,
    value: input.value,
  };
  if (input.view) payload.view = echoedView(input.view, a, undefined);
  if (input.message) payload.message = messageObject(input.message, a.teamId);
  return payload;
}

// ── events (Events API) ─────────────────────────────────────────────────────────────────

/** Events API envelopes are JSON bodies (signed like every other request). */
export const JSON_CONTENT_TYPE = 'application/json';

export interface AppHomeOpenedInput extends Actor {
  /** `home` or `messages`: the event comes for either tab. */
  tab?: 'home' | 'messages';
  /** The Home view last published to this person, when there was one (Slack echoes it). */
  view?: JsonObject;
}

/** `app_home_opened` as Slack delivers it to the Events API request URL (an `event_callback`). */
export function appHomeOpenedEnvelope(input: AppHomeOpenedInput = {}): JsonObject {
  const a = resolve(input);
  const eventTs = tsAt(a.nowMs);
  return {
    token: a.token,
    team_id: a.teamId,
    api_app_id: a.apiAppId,
    event: {
      type: 'app_home_opened',
      user: a.userId,
      // The app's DM with the person.
      channel: `D${a.userId.slice(1)}`.slice(0, 11),
      tab: input.tab ?? 'home',
      event_ts: eventTs,
      ...(input.view ? { view: input.view } : {}),
    },
    type: 'event_callback',
    event_id: `Ev${a.nowMs.toString(36).toUpperCase()}${Math.floor(Math.random() * 1e6)}`,
    event_time: Math.floor(a.nowMs / 1000),
    authorizations: [{ enterprise_id: null, team_id: a.teamId, user_id: BOT.userId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: `4-fake-${a.teamId}`,
  };
}
