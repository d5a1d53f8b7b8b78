/**
 * The few Web API calls the bot makes, behind one small interface: the change flow and the
 * watcher talk to this, Bolt's WebClient implements it, and a local shell can implement it
 * too. Slack's refusals become `SlackApiError` with Slack's own code (`not_in_channel`, …).
 */
import type { webApi } from '@slack/bolt';
import type { Block } from '../operations/types.js';
import type { ModalView } from './views/modal-views.js';

export interface MessageArgs {
  channel: string;
  text: string;
  blocks: Block[];
  thread_ts?: string;
  reply_broadcast?: boolean;
}

export interface SlackApi {
  postMessage(args: MessageArgs): Promise<{ channel: string; ts: string }>;
  update(args: { channel: string; ts: string; text: string; blocks: Block[] }): Promise<void>;
  deleteMessage(args: { channel: string; ts: string }): Promise<void>;
  postEphemeral(args: { channel: string; user: string; text: string; blocks: Block[] }): Promise<void>;
  openView(triggerId: string, view: ModalView): Promise<{ id: string; hash?: string }>;
  updateView(viewId: string, view: ModalView, hash?: string): Promise<void>;
  /** Members of a user group (usergroups.users.list; scope usergroups:read). */
  usergroupMembers(groupId: string): Promise<string[]>;
}

export class SlackApiError extends Error {
  override readonly name = 'SlackApiError';
  constructor(
    readonly code: string,
    readonly method: string,
  ) {
    super(`Slack refused ${method}: ${code}`);
  }
}

/** Channels the bot cannot post to until someone invites it. */
export const NOT_REACHABLE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);

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
