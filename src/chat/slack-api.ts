/**
 * The chat interface: the few Web API calls the bot makes, behind one small interface. The
 * change flow, the watcher and the auditor talk to this; direct JSON calls over one keep-alive
 * pool implement it (`slack/slack-api-direct.ts`, `slack/slack-http.ts`), and so does the local shell. Slack's refusals become
 * `SlackApiError` with Slack's own code (`not_in_channel`, …).
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Block } from '../views/types.js';
import type { ModalView } from '../views/modal-views.js';
import type { HomeView } from '../views/home-views.js';

/** Slack message metadata: machine-readable, invisible to people, returned by conversations.replies and .history. */
export interface MessageMetadata {
  event_type: string;
  event_payload: Record<string, string | number | boolean>;
}

export interface MessageArgs {
  channel: string;
  text: string;
  blocks: Block[];
  thread_ts?: string;
  reply_broadcast?: boolean;
  metadata?: MessageMetadata;
}

/** A message as conversations.replies or conversations.history gives it (what the bot reads of it). */
export interface ThreadMessage {
  ts: string;
  /** Only on messages this bot posted with metadata (another app's metadata is left off: slack/slack-api-direct.ts). */
  metadata?: MessageMetadata;
}

/**
 * Metadata naming one record of the bot's (a watch, a maintenance window) on the post that
 * reports it, so a replica that cannot account for the post finds it again instead of posting twice.
 */
export const recordTag = (eventType: string, key: string, id: string): MessageMetadata => ({ event_type: eventType, event_payload: { [key]: id } });

/** The ts of the message carrying `tag` (recordTag), if `messages` has one. */
export function findTagged(messages: readonly ThreadMessage[], tag: MessageMetadata): string | undefined {
  const [[key, id] = []] = Object.entries(tag.event_payload);
  return messages.find((m) => m.metadata?.event_type === tag.event_type && key !== undefined && m.metadata.event_payload[key] === id)?.ts;
}

/** How far before a post's earliest time a look for it reads the channel (Slack's clock may be behind the bot's). */
export const FIND_SKEW_MS = 60 * 60_000;

/**
 * The ts of the bot's own post carrying `tag` (recordTag) in `channel`, posted no earlier than
 * `since` (epoch ms, the bot's clock); null when the channel's history has none. Only the bot's
 * own messages carry metadata here (slack-api-direct.ts leaves another app's off, by bot_id).
 * Throws what channelHistory throws: then it cannot say.
 */
/** Whether this chat can read a channel's history (a test's may not). */
export const readsHistory = (slack: Pick<SlackApi, 'channelHistory'> | undefined): slack is Required<Pick<SlackApi, 'channelHistory'>> => typeof slack?.channelHistory === 'function';

export async function findInChannel(slack: Required<Pick<SlackApi, 'channelHistory'>>, channel: string, since: number, tag: MessageMetadata): Promise<string | null> {
  const oldest = Math.max(0, since - FIND_SKEW_MS);
  const messages = await slack.channelHistory({ channel, oldest: (oldest / 1000).toFixed(6) });
  return findTagged(messages, tag) ?? null;
}

/** What a background job that posts to channels on its own (schedules, maintenance summaries) needs. */
export interface ChannelPosterDeps {
  slack: Pick<SlackApi, 'postMessage'>;
  clock: Clock;
  logger: Logger;
}

export interface SlackApi {
  postMessage(args: MessageArgs): Promise<{ channel: string; ts: string }>;
  update(args: { channel: string; ts: string; text: string; blocks: Block[] }): Promise<void>;
  deleteMessage(args: { channel: string; ts: string }): Promise<void>;
  postEphemeral(args: { channel: string; user: string; text: string; blocks: Block[] }): Promise<void>;
  openView(triggerId: string, view: ModalView): Promise<{ id: string; hash?: string }>;
  updateView(viewId: string, view: ModalView, hash?: string): Promise<void>;
  /** The person's App Home tab (views.publish; no scope beyond the bot token). */
  publishView(userId: string, view: HomeView): Promise<void>;
  /** Members of a user group (usergroups.users.list; scope usergroups:read). */
  usergroupMembers(groupId: string): Promise<string[]>;
  /**
   * The parent and replies of a thread, every page (conversations.replies with
   * include_all_metadata; scopes channels:history / groups:history). The watcher reads it to
   * learn whether a final post it cannot account for is already there. Optional: a chat without
   * it cannot check, and the watcher then posts.
   */
  threadReplies?(args: { channel: string; ts: string }): Promise<ThreadMessage[]>;
  /**
   * A channel's messages since `oldest` (a Slack ts), newest first (conversations.history with
   * include_all_metadata; scopes channels:history / groups:history). Maintenance summaries read
   * it to learn whether a summary another replica may have posted is there. Throws a
   * SlackApiError ('unavailable', `too_many_pages`) when the page cap ends the reading before the
   * channel does: what was not read cannot say a message is absent. Optional, as threadReplies.
   */
  channelHistory?(args: { channel: string; oldest: string }): Promise<ThreadMessage[]>;
  /**
   * Attaches a card under each link of a posted message (chat.unfurl; scope links:write, the
   * domains listed in the manifest's app_unfurl_domains). Optional: a chat without it unfurls nothing.
   */
  unfurl?(args: { channel: string; ts: string; unfurls: Record<string, { blocks: Block[] }> }): Promise<void>;
  /** The person's time zone as Slack has it (users.info `tz`; scope users:read); undefined when Slack gives none. Optional. */
  userTimeZone?(userId: string): Promise<string | undefined>;
  /**
   * Ends a workflow step (issue 23): functions.completeSuccess with its outputs, or
   * functions.completeError with a sentence. Optional: a chat without workflows has none.
   */
  completeStep?(args: StepCompletion): Promise<void>;
}

export type StepCompletion = { executionId: string } & ({ outputs: Record<string, unknown> } | { error: string });

/** Slack's answers meaning the step is already over: nothing is left to tell it. */
export const STEP_ALREADY_OVER = new Set(['execution_not_in_running_state', 'function_execution_not_found']);

/**
 * `refused`: Slack answered `{ok:false}` with `code`. `unavailable`: Slack answered an HTTP error
 * (`code` is `http_500`, …) or did not answer in time or at all (`timeout`, `request_failed`),
 * after the client's bounded retries.
 */
export type SlackFailure = 'refused' | 'unavailable';

export class SlackApiError extends Error {
  override readonly name = 'SlackApiError';
  constructor(
    readonly code: string,
    readonly method: string,
    readonly failure: SlackFailure = 'refused',
    /** On `ratelimited`: Slack's Retry-After, in milliseconds, when it was given. */
    readonly retryAfterMs?: number,
  ) {
    super(failure === 'refused' ? `Slack refused ${method}: ${code}` : `Slack did not answer ${method}: ${code}`);
  }
}

/** Channels the bot cannot post to until someone invites it. */
export const NOT_REACHABLE = new Set(['not_in_channel', 'channel_not_found', 'is_archived', 'restricted_action']);
