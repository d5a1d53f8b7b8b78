/** Bolt's WebClient as the bot's chat interface; Slack's `{ok:false}` answers become `SlackApiError`. */
import type { webApi } from '@slack/bolt';
import { SlackApiError, type MessageMetadata, type SlackApi, type ThreadMessage } from '../chat/slack-api.js';

async function call<T>(method: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const data = (e as { data?: { error?: unknown } }).data;
    if (data && typeof data.error === 'string') throw new SlackApiError(data.error, method);
    // After the client's retries (app.ts SLACK_RETRY): an HTTP error, or no answer in time.
    const failed = e as { code?: unknown; statusCode?: unknown; original?: { name?: unknown } };
    if (failed.code === 'slack_webapi_http_error') throw new SlackApiError(`http_${String(failed.statusCode)}`, method, 'unavailable');
    if (failed.code === 'slack_webapi_request_error') {
      throw new SlackApiError(failed.original?.name === 'TimeoutError' ? 'timeout' : 'request_failed', method, 'unavailable');
    }
    // Still rate limited after the retries (the client throws a plain Error for that).
    if (failed.code === 'slack_webapi_rate_limited_error' || (e instanceof Error && e.message.startsWith('A rate limit was exceeded'))) {
      throw new SlackApiError('ratelimited', method, 'unavailable');
    }
    throw e;
  }
}

/** At most this many waits on a 429 before a post gives up (each at most MAX_RATE_WAIT_MS). */
const POST_RATE_RETRIES = 2;
const MAX_RATE_WAIT_MS = 10_000;

/**
 * `postClient` posts new messages. It must not retry on its own: a post that timed out or got
 * a 5xx may have landed, and posting it again is a second status message or a second final
 * broadcast (the watcher looks in the thread before posting again instead). Only a 429, which
 * Slack did not process, is waited out and sent again. Every other call is safe to repeat and
 * goes through `client` with its retry policy.
 */
export function slackApiFromClient(client: webApi.WebClient, postClient: webApi.WebClient = client, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): SlackApi {
  const post = async (args: Parameters<webApi.WebClient['chat']['postMessage']>[0]) => {
    for (let attempt = 0; ; attempt++) {
      try {
        return await postClient.chat.postMessage(args);
      } catch (e) {
        const retrySec = (e as { code?: unknown; retryAfter?: unknown }).code === 'slack_webapi_rate_limited_error' ? Number((e as { retryAfter?: unknown }).retryAfter) : NaN;
        if (attempt >= POST_RATE_RETRIES || !Number.isFinite(retrySec)) throw e;
        await sleep(Math.min(Math.max(retrySec, 0) * 1000, MAX_RATE_WAIT_MS));
      }
    }
  };
  return {
    postMessage: (args) =>
      call('chat.postMessage', async () => {
        const { thread_ts, reply_broadcast, ...rest } = args;
        // The Web API's types want a thread reply's broadcast flag only with a thread.
        const r = thread_ts ? await post({ ...rest, thread_ts, reply_broadcast: reply_broadcast ?? false }) : await post(rest);
        return { channel: String(r.channel), ts: String(r.ts) };
      }),
    update: (args) => call('chat.update', async () => void (await client.chat.update(args))),
    deleteMessage: (args) => call('chat.delete', async () => void (await client.chat.delete(args))),
    postEphemeral: (args) => call('chat.postEphemeral', async () => void (await client.chat.postEphemeral(args))),
    openView: (triggerId, view) =>
      call('views.open', async () => {
        const r = await client.views.open({ trigger_id: triggerId, view });
        return { id: String(r.view?.id), ...(r.view?.hash ? { hash: r.view.hash } : {}) };
      }),
    usergroupMembers: (groupId) =>
      call('usergroups.users.list', async () => {
        const r = await client.usergroups.users.list({ usergroup: groupId });
        return (r.users ?? []).map(String);
      }),
    threadReplies: (args) =>
      call('conversations.replies', async () => {
        const out: ThreadMessage[] = [];
        let cursor: string | undefined;
        // A watch thread is short; the page cap only stops a runaway cursor.
        for (let page = 0; page < 50; page++) {
          const r = await client.conversations.replies({ channel: args.channel, ts: args.ts, include_all_metadata: true, limit: 200, ...(cursor ? { cursor } : {}) });
          for (const m of r.messages ?? []) {
            if (!m.ts) continue;
            const metadata = m.metadata as MessageMetadata | undefined;
            out.push({ ts: m.ts, ...(metadata?.event_type ? { metadata: { event_type: metadata.event_type, event_payload: metadata.event_payload ?? {} } } : {}) });
          }
          cursor = r.has_more ? r.response_metadata?.next_cursor || undefined : undefined;
          if (!cursor) break;
        }
        return out;
      }),
    updateView: (viewId, view, hash) =>
      call('views.update', async () => void (await client.views.update({ view_id: viewId, view, ...(hash ? { hash } : {}) }))),
  };
}
