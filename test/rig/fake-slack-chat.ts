/** chat.postMessage, chat.postEphemeral, chat.update, chat.delete — answered like Slack. */
import { fail, ok, str, type MethodContext, type MethodHandler, type SlackResponse } from './fake-slack-context.js';
import { isObject } from './json.js';
import { withBlockIds, type FakeMessage } from './fake-slack-model.js';
import type { FakeChannel } from './workspace.js';

type Resolved = { channel: FakeChannel } | { error: SlackResponse };

/** The channel a bot token may write to, or the error Slack gives (membership matters). */
function writableChannel(ctx: MethodContext, id: string): Resolved {
  const { model } = ctx;
  const channel = /^[UW]/.test(id) && model.users.has(id) ? model.dmWith(id) : model.channels.get(id);
  if (!channel || (channel.isPrivate && !channel.botIsMember)) return { error: fail('channel_not_found') };
  if (channel.isArchived) return { error: fail('is_archived') };
  if (!channel.botIsMember) return { error: fail('not_in_channel') };
  return { channel };
}

type Content = { text: string; blocks: unknown[] | undefined } | { error: SlackResponse };

/** text and blocks, decoded and checked against Block Kit limits; at least one is needed. */
function content(params: Record<string, unknown>, ctx: MethodContext, requireSome: boolean): Content {
  const text = typeof params.text === 'string' ? params.text : '';
  const rawBlocks = params.blocks;
  if (rawBlocks !== undefined && !Array.isArray(rawBlocks)) return { error: fail('invalid_blocks_format') };
  const blocks = rawBlocks === undefined ? undefined : withBlockIds(rawBlocks);
  if (requireSome && text === '' && (blocks === undefined || blocks.length === 0) && params.attachments === undefined) {
    return { error: fail('no_text') };
  }
  const violations = ctx.check({ text, blocks: rawBlocks });
  if (violations.some((v) => v.path === '/text')) return { error: fail('msg_too_long') };
  if (violations.length > 0) {
    return { error: fail('invalid_blocks', { response_metadata: { messages: violations.map((v) => `[ERROR] ${v.message} [json-pointer:${v.path}]`) } }) };
  }
  return { text, blocks };
}

function slackShape(m: FakeMessage) {
  const { versions: _v, deleted: _d, postedAt: _p, channel: _c, ...message } = m;
  return message;
}

/** Message metadata: `event_type` (a name) and an object `event_payload`, or Slack's error. */
function metadataOf(raw: unknown): { metadata?: NonNullable<FakeMessage['metadata']> } | { error: SlackResponse } {
  if (raw === undefined) return {};
  if (!isObject(raw)) return { error: fail('invalid_metadata_format') };
  const { event_type, event_payload } = raw;
  if (typeof event_type !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(event_type) || !isObject(event_payload)) {
    return { error: fail('invalid_metadata_schema') };
  }
  return { metadata: { event_type, event_payload: { ...event_payload } } };
}

const postMessage: MethodHandler = (params, ctx) => {
  const resolved = writableChannel(ctx, String(params.channel));
  if ('error' in resolved) return resolved.error;
  const body = content(params, ctx, true);
  if ('error' in body) return body.error;
  const meta = metadataOf(params.metadata);
  if ('error' in meta) return meta.error;
  const { model, identity } = ctx;
  const channel = resolved.channel.id;
  let threadTs = str(params.thread_ts);
  const parent = threadTs ? model.message(channel, threadTs) : undefined;
  if (parent?.thread_ts && parent.thread_ts !== parent.ts) threadTs = parent.thread_ts; // a reply's ts: Slack threads under its parent
  const ts = ctx.nextTs();
  const message: FakeMessage = {
    type: 'message',
    channel,
    ts,
    text: body.text,
    ...(body.blocks ? { blocks: body.blocks } : {}),
    ...(threadTs ? { thread_ts: threadTs } : {}),
    ...meta,
    user: identity.botUserId,
    bot_id: identity.botId,
    app_id: identity.appId,
    team: identity.teamId,
    versions: [],
    deleted: false,
    postedAt: ctx.now(),
  };
  model.messageList.push(message);
  const root = threadTs ? model.message(channel, threadTs) : undefined;
  if (root) {
    root.thread_ts = root.ts;
    root.reply_count = (root.reply_count ?? 0) + 1;
    root.latest_reply = ts;
  }
  return ok({ channel, ts, message: slackShape(message) });
};

const postEphemeral: MethodHandler = (params, ctx) => {
  const resolved = writableChannel(ctx, String(params.channel));
  if ('error' in resolved) return resolved.error;
  const user = String(params.user);
  const members = resolved.channel.members;
  if (!ctx.model.users.has(user) || (members && !members.includes(user))) return fail('user_not_in_channel');
  const body = content(params, ctx, true);
  if ('error' in body) return body.error;
  const messageTs = ctx.nextTs();
  ctx.model.ephemeralList.push({
    channel: resolved.channel.id,
    user,
    message_ts: messageTs,
    text: body.text,
    ...(body.blocks ? { blocks: body.blocks } : {}),
    ...(str(params.thread_ts) ? { thread_ts: String(params.thread_ts) } : {}),
    at: ctx.now(),
  });
  return ok({ message_ts: messageTs });
};

function ownMessage(params: Record<string, unknown>, ctx: MethodContext, notMine: string): FakeMessage | SlackResponse {
  const channel = ctx.model.channels.get(String(params.channel));
  if (!channel || (channel.isPrivate && !channel.botIsMember)) return fail('channel_not_found');
  const message = ctx.model.message(channel.id, String(params.ts));
  if (!message) return fail('message_not_found');
  if (message.user !== ctx.identity.botUserId) return fail(notMine);
  return message;
}

const update: MethodHandler = (params, ctx) => {
  const message = ownMessage(params, ctx, 'cant_update_message');
  if ('ok' in message) return message;
  const body = content(params, ctx, false);
  if ('error' in body) return body.error;
  if (body.text === '' && params.blocks === undefined && message.blocks === undefined) return fail('no_text');
  message.versions.push({ text: message.text, blocks: message.blocks, at: ctx.now() });
  message.text = body.text;
  // Slack keeps the previous blocks when `blocks` is left out; an empty array removes them.
  if (body.blocks !== undefined) message.blocks = body.blocks;
  message.edited = { user: ctx.identity.botUserId, ts: ctx.nextTs() };
  return ok({ channel: message.channel, ts: message.ts, text: message.text, message: slackShape(message) });
};

const remove: MethodHandler = (params, ctx) => {
  const message = ownMessage(params, ctx, 'cant_delete_message');
  if ('ok' in message) return message;
  message.deleted = true;
  return ok({ channel: message.channel, ts: message.ts });
};

export const chatMethods: Record<string, MethodHandler> = {
  'chat.postMessage': postMessage,
  'chat.postEphemeral': postEphemeral,
  'chat.update': update,
  'chat.delete': remove,
};
