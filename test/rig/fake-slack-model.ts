/**
 * The workspace state behind the fake Slack Web API: channels, people, user groups, the
 * messages the bot posted (edited in place by chat.update, linked into threads), ephemeral
 * messages per user, and open views. Tests read it through `fake.messages` / `fake.views`.
 */
import { slackId } from './ids.js';
import { isObject, type JsonObject } from './json.js';
import type { FakeChannel, FakeUser } from './workspace.js';

export interface MessageVersion {
  text: string;
  blocks: unknown[] | undefined;
  at: number;
}

/** A channel message in the shape Slack returns it, plus `channel` and the rig's bookkeeping. */
export interface FakeMessage {
  type: 'message';
  channel: string;
  ts: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  user: string;
  bot_id: string;
  app_id: string;
  team: string;
  edited?: { user: string; ts: string };
  reply_count?: number;
  latest_reply?: string;
  /** Message metadata as posted (`event_type`, `event_payload`). */
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  /** Earlier versions, oldest first: each chat.update pushes the one it replaced. */
  versions: MessageVersion[];
  deleted: boolean;
  postedAt: number;
}

export interface FakeEphemeral {
  channel: string;
  user: string;
  message_ts: string;
  text: string;
  blocks?: unknown[];
  thread_ts?: string;
  at: number;
}

export interface FakeView {
  id: string;
  /** The view as Slack stores and echoes it (id, hash, state, root_view_id, …). */
  view: JsonObject;
  /** Every version, first the opened one; views.update appends. */
  versions: JsonObject[];
  openedAt: number;
  /** How it was opened: a Web API call, or the app's answer to a submission (`response_action: 'push'`). */
  method: 'views.open' | 'views.push' | 'response_action';
  /**
   * When Slack closed it: the app acked its submission with an empty body (or `clear`, or it
   * sat under one cleared), or the person closed it (view_closed). views.update / views.push
   * on a closed view answer `not_found`.
   */
  closedAt?: number;
  /**
   * When the app answered a submission of it more than 3 s after Slack delivered it (judged on
   * an injected clock only): Slack had shown the person an error and ignored the answer.
   */
  lateAcks?: number[];
}

export const isOpenView = (v: FakeView): boolean => v.closedAt === undefined;

/** Slack gives every block without a block_id a random one; buttons in messages then carry it. */
export function withBlockIds(blocks: unknown[]): unknown[] {
  return blocks.map((b) => (isObject(b) && b.block_id === undefined ? { ...b, block_id: slackId('', 5) } : b));
}

/** A workflow step Slack started (function_executed sent), and how it ended. */
export interface FakeExecution {
  id: string;
  callbackId: string;
  state: 'running' | 'completed' | 'failed';
  outputs?: Record<string, unknown>;
  error?: string;
}

export class FakeSlackModel {
  /** Workflow step executions by function_execution_id (functions.completeSuccess / completeError). */
  readonly executions = new Map<string, FakeExecution>();
  readonly channels = new Map<string, FakeChannel>();
  readonly users = new Map<string, FakeUser>();
  readonly usergroups = new Map<string, string[]>();
  readonly messageList: FakeMessage[] = [];
  readonly ephemeralList: FakeEphemeral[] = [];
  readonly viewList: FakeView[] = [];
  /** Each person's published Home tab (views.publish), every version, newest last. */
  readonly homes = new Map<string, JsonObject[]>();
  readonly usedTriggers = new Set<string>();
  /** When each view_submission payload was delivered to the app (the ack deadline counts from it). */
  readonly deliveredAt = new WeakMap<object, number>();
  /** The modal a trigger_id came from (an interaction inside it): views.push stacks there. */
  readonly triggerViews = new Map<string, string>();
  /** Links people shared, by `channel/ts` of their message (chat.unfurl may unfurl only these). */
  readonly sharedLinks = new Map<string, Set<string>>();
  /** What chat.unfurl attached, by `channel/ts`, then URL. */
  readonly unfurls = new Map<string, Record<string, JsonObject>>();

  constructor(channels: readonly FakeChannel[], users: readonly FakeUser[], usergroups: Record<string, readonly string[]>) {
    for (const c of channels) this.channels.set(c.id, { ...c });
    for (const u of users) this.users.set(u.id, { ...u });
    for (const [id, members] of Object.entries(usergroups)) this.usergroups.set(id, [...members]);
  }

  /** The app's DM with a person (conversations.open, or chat.postMessage to a user id). */
  dmWith(userId: string): FakeChannel {
    const id = `D${userId.slice(1)}`.slice(0, 11);
    let dm = this.channels.get(id);
    if (!dm) {
      dm = { id, name: userId, botIsMember: true, isIm: true, isPrivate: true, members: [userId] };
      this.channels.set(id, dm);
    }
    return dm;
  }

  message(channel: string, ts: string): FakeMessage | undefined {
    return this.messageList.find((m) => m.channel === channel && m.ts === ts && !m.deleted);
  }

  view(id: string): FakeView | undefined {
    return this.viewList.find((v) => v.id === id);
  }

  /** The open views of one modal, root first (the person sees the last). */
  openStack(rootId: string): FakeView[] {
    return this.viewList.filter((v) => isOpenView(v) && v.view.root_view_id === rootId);
  }
}
