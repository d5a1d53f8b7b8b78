/**
 * The bodies Slack sends an app, built from what the person typed in the shell: a slash
 * command, a button click (block_actions) and a modal submission (view_submission). Shapes
 * as Slack documents them, so Bolt and the bot's handlers cannot tell them apart.
 */
import { randomBytes } from 'node:crypto';
import { SHELL_APP_ID, SHELL_BOT, SHELL_CHANNEL, SHELL_TEAM, SHELL_USER } from './identity.js';
import type { JsonObject } from './local-model.js';

/** Like Slack's: leading unix seconds, then opaque parts. */
export function newTriggerId(): string {
  return `${Math.floor(Date.now() / 1000)}.${randomBytes(5).readUIntBE(0, 5)}.${randomBytes(16).toString('hex')}`;
}

/** A channel of the shell: its id and the name Slack would send with it. */
export interface ChannelRef {
  id: string;
  name: string;
}

const user = { id: SHELL_USER.id, username: SHELL_USER.name, name: SHELL_USER.name, team_id: SHELL_TEAM.id };
const team = { id: SHELL_TEAM.id, domain: SHELL_TEAM.domain };

/** `/cloud <text>` as Slack posts it (form fields, all strings), from `channel`. */
export function slashCommandBody(
  command: string,
  text: string,
  responseUrl: string,
  channel: ChannelRef = SHELL_CHANNEL,
  triggerId = newTriggerId(),
): Record<string, string> {
  return {
    token: 'local-shell',
    team_id: SHELL_TEAM.id,
    team_domain: SHELL_TEAM.domain,
    channel_id: channel.id,
    channel_name: channel.name,
    user_id: SHELL_USER.id,
    user_name: SHELL_USER.name,
    command,
    text,
    api_app_id: SHELL_APP_ID,
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: triggerId,
  };
}

export interface Clicked {
  /** The button element as the bot sent it. */
  element: JsonObject;
  blockId: string;
  /** Where it was: a channel message (or thread reply), or an ephemeral message. */
  where: { kind: 'message'; channel: string; ts: string; text: string; blocks: unknown[]; threadTs?: string } | { kind: 'ephemeral'; channel: string; ts: string };
}

/** What every click carries: who, the app, the trigger, and the one action with the element's `keys`. */
function blockActionsBase(element: JsonObject, blockId: string, keys: readonly string[], triggerId: string): JsonObject {
  const action: JsonObject = { type: element.type, block_id: blockId, action_id: element.action_id, action_ts: `${(Date.now() / 1000).toFixed(6)}` };
  for (const key of keys) if (key in element) action[key] = element[key];
  return { type: 'block_actions', user, api_app_id: SHELL_APP_ID, token: 'local-shell', trigger_id: triggerId, team, enterprise: null, is_enterprise_install: false, actions: [action] };
}

/** A click; `channelName` names the channel the clicked message is in. */
export function blockActionsBody(clicked: Clicked, responseUrl: string, channelName: string = SHELL_CHANNEL.name, triggerId = newTriggerId()): JsonObject {
  const { element, where } = clicked;
  const channel = { id: where.channel || SHELL_CHANNEL.id, name: channelName };
  const common: JsonObject = {
    ...blockActionsBase(element, clicked.blockId, ['text', 'value', 'style', 'url'], triggerId),
    channel,
    state: { values: {} },
    response_url: responseUrl,
  };
  if (where.kind === 'ephemeral') {
    // Slack sends no `message` for a click in an ephemeral message.
    return { ...common, container: { type: 'message', message_ts: where.ts, channel_id: channel.id, is_ephemeral: true } };
  }
  const message: JsonObject = {
    type: 'message',
    user: SHELL_BOT.userId,
    bot_id: SHELL_BOT.botId,
    app_id: SHELL_APP_ID,
    team: SHELL_TEAM.id,
    text: where.text,
    blocks: where.blocks,
    ts: where.ts,
    ...(where.threadTs ? { thread_ts: where.threadTs } : {}),
  };
  return { ...common, container: { type: 'message', message_ts: where.ts, channel_id: channel.id, is_ephemeral: false }, message };
}

/** A modal's submission: the view as Slack stores it, with `state.values` as filled in. */
export function viewSubmissionBody(view: JsonObject, values: Record<string, Record<string, JsonObject>>, triggerId = newTriggerId()): JsonObject {
  return {
    type: 'view_submission',
    team,
    user,
    api_app_id: SHELL_APP_ID,
    token: 'local-shell',
    trigger_id: triggerId,
    view: {
      team_id: SHELL_TEAM.id,
      type: 'modal',
      clear_on_close: false,
      notify_on_close: false,
      previous_view_id: null,
      app_id: SHELL_APP_ID,
      external_id: '',
      app_installed_team_id: SHELL_TEAM.id,
      bot_id: SHELL_BOT.botId,
      ...view,
      state: { values },
    },
    response_urls: [],
    is_enterprise_install: false,
    enterprise: null,
  };
}

/** The Events API envelope around `event`, stamped now, as Slack delivers it to the app. */
function eventCallbackBody(event: JsonObject): JsonObject {
  const now = Date.now();
  return {
    token: 'local-shell',
    team_id: SHELL_TEAM.id,
    api_app_id: SHELL_APP_ID,
    event: { ...event, event_ts: `${(now / 1000).toFixed(6)}` },
    type: 'event_callback',
    event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
    event_time: Math.floor(now / 1000),
    authorizations: [{ enterprise_id: null, team_id: SHELL_TEAM.id, user_id: SHELL_BOT.userId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
  };
}

/** `app_home_opened` for the shell's person, Home tab, as the Events API delivers it. */
export function appHomeOpenedBody(): JsonObject {
  return eventCallbackBody({ type: 'app_home_opened', user: SHELL_USER.id, channel: `D${SHELL_USER.id.slice(1)}`, tab: 'home' });
}

/** A click on a button of a view that is not a modal form (the Home tab): no channel, no response_url. */
export function viewActionBody(element: JsonObject, blockId: string, view: JsonObject, triggerId = newTriggerId()): JsonObject {
  return { ...blockActionsBase(element, blockId, ['text', 'value', 'style'], triggerId), container: { type: 'view', view_id: view.id }, view };
}

/** The message shortcut `callbackId` on a message of `text` that someone posted in `channel` (issue 23). */
export function messageShortcutBody(callbackId: string, text: string, responseUrl: string, channel: ChannelRef, messageTs: string, triggerId = newTriggerId()): JsonObject {
  return {
    type: 'message_action',
    token: 'local-shell',
    action_ts: `${(Date.now() / 1000).toFixed(6)}`,
    team,
    user,
    channel: { id: channel.id, name: channel.name },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: callbackId,
    trigger_id: triggerId,
    response_url: responseUrl,
    message_ts: messageTs,
    message: { type: 'message', user: SHELL_USER.id, text, ts: messageTs },
  };
}

/** `link_shared` for links the shell's person posted in `channel` at `messageTs`, as the Events API delivers it. */
export function linkSharedBody(urls: readonly string[], channel: ChannelRef, messageTs: string): JsonObject {
  return eventCallbackBody({
    type: 'link_shared',
    channel: channel.id,
    is_bot_user_member: true,
    user: SHELL_USER.id,
    message_ts: messageTs,
    unfurl_id: `C-${randomBytes(8).toString('hex')}`,
    source: 'conversations_history',
    links: urls.map((url) => ({ domain: new URL(url).hostname, url })),
  });
}

/** `function_executed`, as Workflow Builder sends it when it reaches one of the app's steps (`step …`). */
export function functionExecutedBody(callbackId: string, title: string, inputs: Record<string, unknown>, executionId: string): JsonObject {
  return eventCallbackBody({
    type: 'function_executed',
    function: { id: `Fn${randomBytes(5).toString('hex').toUpperCase()}`, callback_id: callbackId, title, type: 'app', input_parameters: [], output_parameters: [], app_id: SHELL_APP_ID, date_created: 0, date_updated: 0, date_deleted: 0 },
    inputs: inputs as JsonObject,
    function_execution_id: executionId,
    workflow_execution_id: `Wx${randomBytes(5).toString('hex').toUpperCase()}`,
    bot_access_token: 'xwfp-local-shell',
  });
}
