/**
 * conversations.replies — a thread as Slack lists it: the parent first, then the replies,
 * oldest first, paginated by cursor. Its scope depends on the channel: channels:history for a
 * public channel, groups:history for a private one, im:history for a DM (CHANNEL_SCOPES).
 * Message metadata comes back only with include_all_metadata, the way the bot asks for it.
 */
import { fail, ok, str, type MethodHandler } from './fake-slack-context.js';
import type { FakeMessage } from './fake-slack-model.js';
import { HISTORY_SCOPES } from './manifest-scopes.js';

const truthy = (v: unknown) => v === true || v === 'true' || v === '1' || v === 1;

function shape(m: FakeMessage, withMetadata: boolean) {
  const { versions: _v, deleted: _d, postedAt: _p, channel: _c, metadata, ...message } = m;
  return { ...message, ...(withMetadata && metadata ? { metadata } : {}) };
}

const replies: MethodHandler = (params, ctx) => {
  const channel = ctx.model.channels.get(String(params.channel));
  if (!channel || (channel.isPrivate && !channel.botIsMember)) return fail('channel_not_found');
  const needed = channel.isIm ? HISTORY_SCOPES.im : channel.isPrivate ? HISTORY_SCOPES.private : HISTORY_SCOPES.public;
  if (!ctx.scopes.has(needed)) return fail('missing_scope', { needed, provided: [...ctx.scopes].join(',') });
  if (!channel.botIsMember) return fail('not_in_channel');
  const parent = ctx.model.message(channel.id, String(params.ts));
  if (!parent) return fail('thread_not_found');
  const root = parent.thread_ts ?? parent.ts;
  const thread = ctx.model.messageList
    .filter((m) => !m.deleted && m.channel === channel.id && (m.ts === root || m.thread_ts === root))
    .sort((a, b) => Number(a.ts) - Number(b.ts));
  const limit = Math.min(Math.max(Number(str(params.limit) ?? 1000) || 1000, 1), 1000);
  const cursor = str(params.cursor);
  const start = cursor ? Number(/^next:(\d+)$/.exec(cursor)?.[1] ?? NaN) : 0;
  if (!Number.isInteger(start)) return fail('invalid_cursor');
  const page = thread.slice(start, start + limit);
  const more = start + limit < thread.length;
  return ok({
    messages: page.map((m) => shape(m, truthy(params.include_all_metadata))),
    has_more: more,
    response_metadata: { next_cursor: more ? `next:${start + limit}` : '' },
  });
};

export const historyMethods: Record<string, MethodHandler> = { 'conversations.replies': replies };
