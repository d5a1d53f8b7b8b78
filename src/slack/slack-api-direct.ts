/**
 * The bot's chat interface over slack-http.ts instead of Bolt's WebClient (issue 15: the
 * WebClient's per-call CPU sat on the loop every ack waits on). New posts go as `post` calls
 * (never re-sent after a timeout or 5xx, see slack-http.ts); everything else is repeatable.
 */
import { SlackApiError, type MessageMetadata, type SlackApi, type ThreadMessage } from '../chat/slack-api.js';
import type { SlackHttp } from './slack-http.js';

/** Pages of 200 read of a channel's history at most: 4,000 messages. */
export const HISTORY_PAGE_CAP = 20;

/**
 * Every page of a cursor-paginated read with include_all_metadata, up to `cap` pages; `complete`
 * when the cursor ended. Metadata is kept only on messages `botId` posted: another app in the
 * channel (a second cloudbot for staging, whose window and watch ids start alike) may post the
 * same event type, and its post must not pass for ours.
 */
async function readPages(http: SlackHttp, method: string, params: Record<string, string>, cap: number, botId: string): Promise<{ messages: ThreadMessage[]; complete: boolean }> {
  const out: ThreadMessage[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < cap; page++) {
    const r = await http.call(method, { ...params, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) });
    const messages = Array.isArray(r.messages) ? (r.messages as { ts?: unknown; bot_id?: unknown; metadata?: MessageMetadata }[]) : [];
    for (const m of messages) {
      if (typeof m.ts !== 'string' || !m.ts) continue;
      const metadata = m.bot_id === botId ? m.metadata : undefined;
      out.push({ ts: m.ts, ...(metadata?.event_type ? { metadata: { event_type: metadata.event_type, event_payload: metadata.event_payload ?? {} } } : {}) });
    }
    const next = (r.response_metadata as { next_cursor?: unknown } | undefined)?.next_cursor;
    cursor = r.has_more && typeof next === 'string' && next ? next : undefined;
    if (!cursor) return { messages: out, complete: true };
  }
  return { messages: out, complete: false };
}

export function slackApiDirect(http: SlackHttp): SlackApi {
  // The bot's own bot id (auth.test), asked once when a read first needs it; a failed ask is asked again next time.
  let self: Promise<string> | undefined;
  const askBotId = async (): Promise<string> => {
    const r = await http.call('auth.test', {});
    if (typeof r.bot_id !== 'string' || !r.bot_id) throw new SlackApiError('no_bot_id', 'auth.test', 'unavailable');
    return r.bot_id;
  };
  const ownBotId = (): Promise<string> =>
    (self ??= askBotId().catch((e: unknown) => {
      self = undefined;
      throw e;
    }));
  return {
    postMessage: async (args) => {
      const { thread_ts, reply_broadcast, ...rest } = args;
      // A broadcast flag only goes with a thread reply.
      const r = await http.call('chat.postMessage', thread_ts ? { ...rest, thread_ts, reply_broadcast: reply_broadcast ?? false } : rest, 'post');
      return { channel: String(r.channel), ts: String(r.ts) };
    },
    update: async (args) => void (await http.call('chat.update', { ...args })),
    deleteMessage: async (args) => void (await http.call('chat.delete', { ...args })),
    postEphemeral: async (args) => void (await http.call('chat.postEphemeral', { ...args })),
    openView: async (triggerId, view) => {
      const r = await http.call('views.open', { trigger_id: triggerId, view });
      const opened = (r.view ?? {}) as { id?: unknown; hash?: unknown };
      return { id: String(opened.id), ...(typeof opened.hash === 'string' && opened.hash ? { hash: opened.hash } : {}) };
    },
    updateView: async (viewId, view, hash) => void (await http.call('views.update', { view_id: viewId, view, ...(hash ? { hash } : {}) })),
    publishView: async (userId, view) => void (await http.call('views.publish', { user_id: userId, view })),
    unfurl: async (args) => void (await http.call('chat.unfurl', { ...args })),
    completeStep: async (c) =>
      void (await ('outputs' in c
        ? http.call('functions.completeSuccess', { function_execution_id: c.executionId, outputs: c.outputs })
        : http.call('functions.completeError', { function_execution_id: c.executionId, error: c.error }))),
    usergroupMembers: async (groupId) => {
      const r = await http.call('usergroups.users.list', { usergroup: groupId });
      return Array.isArray(r.users) ? r.users.map(String) : [];
    },
    userTimeZone: async (userId) => {
      const r = await http.call('users.info', { user: userId });
      const tz = (r.user as { tz?: unknown } | undefined)?.tz;
      return typeof tz === 'string' && tz ? tz : undefined;
    },
    // A watch thread is short; the page cap only stops a runaway cursor.
    threadReplies: async (args) => (await readPages(http, 'conversations.replies', { channel: args.channel, ts: args.ts }, 50, await ownBotId())).messages,
    // Read since a maintenance window ended: a busy channel may pass the cap, and then it cannot say.
    channelHistory: async (args) => {
      const read = await readPages(http, 'conversations.history', { channel: args.channel, oldest: args.oldest }, HISTORY_PAGE_CAP, await ownBotId());
      if (!read.complete) throw new SlackApiError('too_many_pages', 'conversations.history', 'unavailable');
      return read.messages;
    },
  };
}
