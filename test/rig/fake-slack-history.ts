/**
 * conversations.replies — a thread as Slack lists it: the parent first, then the replies,
 * oldest first — and conversations.history — a channel's top-level messages, newest first,
 * between `oldest` and `latest` (both exclusive unless `inclusive`) — each paginated by cursor.
 * Their scope depends on the channel: channels:history for a public channel, groups:history for
 * a private one, im:history for a DM (HISTORY_SCOPES), and the bot must be in it. Message
 * metadata comes back only with include_all_metadata, the way the bot asks for it.
 */
import { fail, ok, str, type MethodContext, type MethodHandler, type SlackResponse } from './fake-slack-context.js';
import type { FakeMessage } from './fake-slack-model.js';
import type { FakeChannel } from './workspace.js';
import { HISTORY_SCOPES } from './manifest-scopes.js';

const truthy = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;

function shape(m: FakeMessage, withMetadata: boolean) {
  const { versions: _v, deleted: _d, postedAt: _p, channel: _c, metadata, ...message } = m;
  return { ...message, ...(withMetadata && metadata ? { metadata } : {}) };
}

/** The channel whose history the bot may read, or Slack's error (channel, scope, membership, in Slack's order). */
function readable(params: Record<string, unknown>, ctx: MethodContext): FakeChannel | SlackResponse {
  const channel = ctx.model.channels.get(String(params.channel));
  if (!channel || (channel.isPrivate && !channel.botIsMember)) return fail('channel_not_found');
  const needed = channel.isIm ? HISTORY_SCOPES.im : channel.isPrivate ? HISTORY_SCOPES.private : HISTORY_SCOPES.public;
  if (!ctx.scopes.has(needed)) return fail('missing_scope', { needed, provided: [...ctx.scopes].join(',') });
  if (!channel.botIsMember) return fail('not_in_channel');
  return channel;
}

/** One page of `list` from the `next:<offset>` cursor, `limit` (default, 1..max) a page. */
function page(list: FakeMessage[], params: Record<string, unknown>, defaults: { limit: number; max: number }): SlackResponse {
  const limit = Math.min(Math.max(Number(str(params.limit) ?? defaults.limit) || defaults.limit, 1), defaults.max);
  const cursor = str(params.cursor);
  const start = cursor ? Number(/^next:(\d+)$/.exec(cursor)?.[1] ?? NaN) : 0;
  if (!Number.isInteger(start)) return fail('invalid_cursor');
  const more = start + limit < list.length;
  return ok({
    messages: list.slice(start, start + limit).map((m) => shape(m, truthy(params.include_all_metadata))),
    has_more: more,
    response_metadata: { next_cursor: more ? `next:${start + limit}` : '' },
  });
}

const replies: MethodHandler = (params, ctx) => {
  const channel = readable(params, ctx);
  if ('ok' in channel) return channel;
  const parent = ctx.model.message(channel.id, String(params.ts));
  if (!parent) return fail('thread_not_found');
  const root = parent.thread_ts ?? parent.ts;
  const thread = ctx.model.messageList
    .filter((m) => !m.deleted && m.channel === channel.id && (m.ts === root || m.thread_ts === root))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
  return page(thread, params, { limit: 1000, max: 1000 });
};

/** A ts bound of conversations.history: absent, or a Slack ts (seconds with up to six decimals). */
const tsBound = (v: unknown): number | undefined | 'invalid' => {
  const s = str(v);
  if (s === undefined) return undefined;
  return /^\d+(\.\d{1,6})?$/.test(s) ? Number(s) : 'invalid';
};

// Slack's method reference (api.slack.com/methods/conversations.history): `channel` required;
// `oldest` (default 0) and `latest` (default now) exclusive unless `inclusive`; `limit` default
// 100, at most 999; top-level messages only (thread replies are read with conversations.replies).
const history: MethodHandler = (params, ctx) => {
  const channel = readable(params, ctx);
  if ('ok' in channel) return channel;
  const oldest = tsBound(params.oldest);
  if (oldest === 'invalid') return fail('invalid_ts_oldest');
  const latest = tsBound(params.latest);
  if (latest === 'invalid') return fail('invalid_ts_latest');
  const inclusive = truthy(params.inclusive);
  const after = (ts: number) => oldest === undefined || ts > oldest || (inclusive && ts === oldest);
  const before = (ts: number) => latest === undefined || ts < latest || (inclusive && ts === latest);
  const messages = ctx.model.messageList
    .filter((m) => !m.deleted && m.channel === channel.id && (!m.thread_ts || m.thread_ts === m.ts) && after(Number(m.ts)) && before(Number(m.ts)))
    .sort((a, b) => Number(b.ts) - Number(a.ts));
  return page(messages, params, { limit: 100, max: 999 });
};

export const historyMethods: Record<string, MethodHandler> = { 'conversations.replies': replies, 'conversations.history': history };
