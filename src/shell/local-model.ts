/**
 * What the local Web API keeps: channel messages by ts (threads hang from their parent's ts),
 * ephemeral messages, open views, and response_urls. Every change is also told to listeners
 * (the shell renders it); nothing here knows about terminals.
 */
import { randomBytes } from 'node:crypto';

export type JsonObject = Record<string, unknown>;

export interface ShellMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  /** The parent's ts, for a thread reply. */
  threadTs?: string;
  /** Message metadata, as posted (the watcher finds its final post by it). */
  metadata?: JsonObject;
  deleted?: boolean;
}

export interface ShellEphemeral {
  channel: string;
  /** Its message_ts: a click on one of its buttons names it. */
  ts: string;
  text: string;
  blocks: unknown[];
  deleted?: boolean;
}

export interface ShellView {
  id: string;
  hash: string;
  /** The view as Slack stores it: the app's fields plus id, hash, state. */
  view: JsonObject;
}

export type LocalEvent =
  | { type: 'message'; message: ShellMessage; broadcast: boolean }
  | { type: 'update'; message: ShellMessage }
  | { type: 'delete'; message: ShellMessage }
  | { type: 'ephemeral'; ephemeral: ShellEphemeral; replaced: boolean }
  | { type: 'ephemeral-delete'; ephemeral: ShellEphemeral }
  | { type: 'view'; view: ShellView; opened: boolean }
  | { type: 'unfurl'; message: ShellMessage; url: string }
  /** A workflow step ended (functions.completeSuccess / completeError). */
  | { type: 'step'; executionId: string; outputs?: JsonObject; error?: string };

/** The id of the shell person's Home tab view. */
export const HOME_VIEW_ID = 'VHOMETAB01';

export class LocalModel {
  readonly messages = new Map<string, ShellMessage>();
  readonly ephemerals = new Map<string, ShellEphemeral>();
  readonly views = new Map<string, ShellView>();
  /** Links the person pasted, by the ts of their message (chat.unfurl may preview only these). */
  readonly pasted = new Map<string, { channel: string; urls: Set<string> }>();
  /** How many link previews were attached so far. */
  unfurled = 0;
  /** response_url id → its channel, and the ephemeral message it may replace (set once something was posted). */
  private readonly responseUrls = new Map<string, { originalTs: string | undefined; channel: string }>();
  private readonly listeners: ((e: LocalEvent) => void)[] = [];
  private seq = 0;
  /**
   * This process's mark in its view ids: as Slack's, they must not repeat in a later session on
   * the same database, where the change flow's dedupe keys (an Act on this button's, a form's)
   * would take a new request for an old one and send nothing.
   */
  private readonly viewTag = randomBytes(4).toString('hex').toUpperCase();

  /** `home`: the channel of response_url answers that name none (the shell's own channel). */
  constructor(private readonly home: string) {}

  onEvent(listener: (e: LocalEvent) => void): void {
    this.listeners.push(listener);
  }

  private emit(e: LocalEvent): void {
    for (const l of this.listeners) l(e);
  }

  /** Workflow steps the shell started (`step …`), and whether each has ended. */
  readonly steps = new Map<string, 'running' | 'ended'>();

  /** A step's completion, as Slack takes it once: false when it is unknown or already ended. */
  endStep(executionId: string, end: { outputs: JsonObject } | { error: string }): boolean {
    if (this.steps.get(executionId) !== 'running') return false;
    this.steps.set(executionId, 'ended');
    this.emit({ type: 'step', executionId, ...end });
    return true;
  }

  /** Slack-shaped, increasing timestamps: `seconds.sequence`. */
  nextTs(): string {
    this.seq += 1;
    return `${Math.floor(Date.now() / 1000)}.${String(this.seq).padStart(6, '0')}`;
  }

  post(args: { channel: string; text: string; blocks: unknown[]; threadTs?: string; broadcast?: boolean; metadata?: JsonObject }): ShellMessage {
    const parent = args.threadTs ? this.messages.get(args.threadTs) : undefined;
    // A reply to a reply threads under the parent, as in Slack.
    const threadTs = parent?.threadTs ?? (args.threadTs ? args.threadTs : undefined);
    const message: ShellMessage = {
      channel: args.channel,
      ts: this.nextTs(),
      text: args.text,
      blocks: args.blocks,
      ...(threadTs ? { threadTs } : {}),
      ...(args.metadata ? { metadata: args.metadata } : {}),
    };
    this.messages.set(message.ts, message);
    this.emit({ type: 'message', message, broadcast: args.broadcast === true && !!threadTs });
    return message;
  }

  /** A link preview (chat.unfurl) under the person's message: kept like a message, so its buttons can be pressed. */
  unfurl(channel: string, url: string, blocks: unknown[]): ShellMessage {
    this.unfurled += 1;
    const message: ShellMessage = { channel, ts: this.nextTs(), text: url, blocks };
    this.messages.set(message.ts, message);
    this.emit({ type: 'unfurl', message, url });
    return message;
  }

  update(ts: string, text: string, blocks: unknown[] | undefined): ShellMessage | undefined {
    const message = this.messages.get(ts);
    if (!message || message.deleted) return undefined;
    message.text = text;
    // Slack keeps the blocks when `blocks` is left out.
    if (blocks !== undefined) message.blocks = blocks;
    this.emit({ type: 'update', message });
    return message;
  }

  /** A thread as conversations.replies lists it: the parent, then its live replies, oldest first. */
  thread(channel: string, ts: string): ShellMessage[] | undefined {
    const parent = this.messages.get(ts);
    if (!parent || parent.deleted || parent.channel !== channel) return undefined;
    const root = parent.threadTs ?? parent.ts;
    return [...this.messages.values()].filter((m) => !m.deleted && m.channel === channel && (m.ts === root || m.threadTs === root));
  }

  /** A channel's live top-level messages, oldest first (conversations.history lists them newest first). */
  history(channel: string): ShellMessage[] {
    return [...this.messages.values()].filter((m) => !m.deleted && m.channel === channel && !m.threadTs);
  }

  remove(ts: string): ShellMessage | undefined {
    const message = this.messages.get(ts);
    if (!message || message.deleted) return undefined;
    message.deleted = true;
    this.emit({ type: 'delete', message });
    return message;
  }

  postEphemeral(args: { channel: string; text: string; blocks: unknown[]; replaceTs?: string }): ShellEphemeral {
    const old = args.replaceTs ? this.ephemerals.get(args.replaceTs) : undefined;
    if (old && !old.deleted) {
      old.text = args.text;
      old.blocks = args.blocks;
      this.emit({ type: 'ephemeral', ephemeral: old, replaced: true });
      return old;
    }
    const ephemeral: ShellEphemeral = { channel: args.channel, ts: this.nextTs(), text: args.text, blocks: args.blocks };
    this.ephemerals.set(ephemeral.ts, ephemeral);
    this.emit({ type: 'ephemeral', ephemeral, replaced: false });
    return ephemeral;
  }

  removeEphemeral(ts: string): void {
    const e = this.ephemerals.get(ts);
    if (!e || e.deleted) return;
    e.deleted = true;
    this.emit({ type: 'ephemeral-delete', ephemeral: e });
  }

  /** A response_url for one command or click in `channel`; `originalTs` is the ephemeral clicked in, if any. */
  issueResponseUrl(originalTs?: string, channel = this.home): string {
    this.seq += 1;
    const id = `r${this.seq}`;
    this.responseUrls.set(id, { originalTs, channel });
    return id;
  }

  /** A post to a response_url, as Slack handles it: replace or delete the original, or add a reply. */
  respond(id: string, body: JsonObject): boolean {
    const url = this.responseUrls.get(id);
    if (!url) return false;
    if (body.delete_original === true) {
      if (url.originalTs) this.removeEphemeral(url.originalTs);
      return true;
    }
    const text = typeof body.text === 'string' ? body.text : '';
    const blocks = Array.isArray(body.blocks) ? body.blocks : [];
    if (body.response_type === 'in_channel' && body.replace_original !== true) {
      this.post({ channel: url.channel, text, blocks });
      return true;
    }
    const replaceTs = body.replace_original === true ? url.originalTs : undefined;
    const posted = this.postEphemeral({ channel: url.channel, text, blocks, ...(replaceTs ? { replaceTs } : {}) });
    url.originalTs = posted.ts;
    return true;
  }

  openView(view: JsonObject): ShellView {
    this.seq += 1;
    const id = `V${this.viewTag}${String(this.seq).padStart(6, '0')}`;
    const stored = this.store(id, view, id);
    this.emit({ type: 'view', view: stored, opened: true });
    return stored;
  }

  updateView(id: string, view: JsonObject): ShellView | undefined {
    const old = this.views.get(id);
    if (!old) return undefined;
    const stored = this.store(id, view, String(old.view.root_view_id ?? id));
    this.emit({ type: 'view', view: stored, opened: false });
    return stored;
  }

  /** The person's Home tab (views.publish): one view, replaced by each publish. */
  publishHome(view: JsonObject): ShellView {
    const stored = this.store(HOME_VIEW_ID, view, HOME_VIEW_ID);
    this.emit({ type: 'view', view: stored, opened: true });
    return stored;
  }

  closeView(id: string): void {
    this.views.delete(id);
  }

  private store(id: string, view: JsonObject, rootId: string): ShellView {
    this.seq += 1;
    const hash = `${Math.floor(Date.now() / 1000)}.h${this.seq}`;
    const stored: ShellView = {
      id,
      hash,
      view: { ...view, id, hash, root_view_id: rootId, state: { values: {} }, private_metadata: view.private_metadata ?? '', callback_id: view.callback_id ?? '' },
    };
    this.views.set(id, stored);
    return stored;
  }
}
