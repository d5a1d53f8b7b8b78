/**
 * Payloads of the issue-23 surfaces as Slack sends them: a message shortcut (`message_action`,
 * an interactive payload) and `link_shared` (an Events API envelope). Shapes from Slack's
 * reference and @slack/bolt's MessageShortcut / @slack/types' LinkSharedEvent; defaults are
 * Alice in #cloud-ops of the fake team.
 */
import { randomBytes } from 'node:crypto';
import { tsAt, triggerId as newTriggerId } from './ids.js';
import type { JsonObject } from './json.js';
import { UNSET_RESPONSE_URL } from './payloads.js';
import { ALICE, APP_ID, BOT, DEFAULT_CHANNELS, DEFAULT_USERS, OPS_CHANNEL, TEAM, VERIFICATION_TOKEN } from './workspace.js';

export interface MessageShortcutInput {
  callbackId: string;
  /** The message the shortcut was used on: its text, and blocks when a bot posted it. */
  message: { text: string; user?: string; ts?: string; blocks?: unknown[]; attachments?: unknown[] };
  userId?: string;
  channelId?: string;
  responseUrl?: string;
  triggerId?: string;
  nowMs?: number;
}

const userName = (id: string) => DEFAULT_USERS.find((u) => u.id === id)?.name ?? id.toLowerCase();
const channelName = (id: string) => DEFAULT_CHANNELS.find((c) => c.id === id)?.name ?? id.toLowerCase();

export function messageShortcutPayload(input: MessageShortcutInput): JsonObject {
  const nowMs = input.nowMs ?? Date.now();
  const userId = input.userId ?? ALICE.id;
  const channelId = input.channelId ?? OPS_CHANNEL.id;
  const ts = input.message.ts ?? tsAt(nowMs - 60_000);
  return {
    type: 'message_action',
    token: VERIFICATION_TOKEN,
    action_ts: tsAt(nowMs),
    team: { id: TEAM.id, domain: TEAM.domain },
    user: { id: userId, username: userName(userId), name: userName(userId), team_id: TEAM.id },
    channel: { id: channelId, name: channelName(channelId) },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: input.callbackId,
    trigger_id: input.triggerId ?? newTriggerId(nowMs),
    response_url: input.responseUrl ?? UNSET_RESPONSE_URL,
    message_ts: ts,
    message: {
      type: 'message',
      user: input.message.user ?? ALICE.id,
      text: input.message.text,
      ts,
      ...(input.message.blocks ? { blocks: input.message.blocks } : {}),
      ...(input.message.attachments ? { attachments: input.message.attachments } : {}),
    },
  };
}

export interface LinkSharedInput {
  urls: readonly string[];
  /** The message (posted by `userId`) the links are in. */
  messageTs: string;
  userId?: string;
  channelId?: string;
  source?: 'conversations_history' | 'composer';
  /** Whether the bot is in the channel (Slack's `is_bot_user_member`); default true; null leaves the field out. */
  botIsMember?: boolean | null;
  nowMs?: number;
}

export function linkSharedEnvelope(input: LinkSharedInput): JsonObject {
  const nowMs = input.nowMs ?? Date.now();
  const composer = input.source === 'composer';
  return {
    token: VERIFICATION_TOKEN,
    team_id: TEAM.id,
    api_app_id: APP_ID,
    event: {
      type: 'link_shared',
      // In the composer the message is not posted yet: Slack names no channel or ts there.
      channel: composer ? 'COMPOSER' : (input.channelId ?? OPS_CHANNEL.id),
      ...(input.botIsMember === null ? {} : { is_bot_user_member: input.botIsMember ?? true }),
      user: input.userId ?? ALICE.id,
      message_ts: composer ? `${input.userId ?? ALICE.id}-${randomBytes(8).toString('hex')}` : input.messageTs,
      unfurl_id: `C-${randomBytes(12).toString('hex')}`,
      source: input.source ?? 'conversations_history',
      links: input.urls.map((url) => ({ domain: new URL(url).hostname, url })),
      event_ts: tsAt(nowMs),
    },
    type: 'event_callback',
    event_id: `Ev${randomBytes(6).toString('hex').toUpperCase()}`,
    event_time: Math.floor(nowMs / 1000),
    authorizations: [{ enterprise_id: null, team_id: TEAM.id, user_id: BOT.userId, is_bot: true, is_enterprise_install: false }],
    is_ext_shared_channel: false,
    event_context: `4-${randomBytes(16).toString('hex')}`,
  };
}
