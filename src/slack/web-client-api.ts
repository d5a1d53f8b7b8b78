/** Bolt's WebClient as the bot's chat interface; Slack's `{ok:false}` answers become `SlackApiError`. */
import type { webApi } from '@slack/bolt';
import { SlackApiError, type SlackApi } from '../chat/slack-api.js';

async function call<T>(method: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    const data = (e as { data?: { error?: unknown } }).data;
    if (data && typeof data.error === 'string') throw new SlackApiError(data.error, method);
    throw e;
  }
}

export function slackApiFromClient(client: webApi.WebClient): SlackApi {
  return {
    postMessage: (args) =>
      call('chat.postMessage', async () => {
        const { thread_ts, reply_broadcast, ...rest } = args;
        // The Web API's types want a thread reply's broadcast flag only with a thread.
        const r = thread_ts
          ? await client.chat.postMessage({ ...rest, thread_ts, reply_broadcast: reply_broadcast ?? false })
          : await client.chat.postMessage(rest);
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
    updateView: (viewId, view, hash) =>
      call('views.update', async () => void (await client.views.update({ view_id: viewId, view, ...(hash ? { hash } : {}) }))),
  };
}
