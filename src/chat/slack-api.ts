/**
 * The chat interface: the few Web API calls the bot makes, behind one small interface. The
 * change flow, the watcher and the auditor talk to this; Bolt's WebClient implements it
 * (`slack/web-client-api.ts`) and so does the local shell. Slack's refusals become
 * `SlackApiError` with Slack's own code (`not_in_channel`, …).
 */
import type { Block } from '../operations/types.js';
import type { ModalView } from '../views/modal-views.js';

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
