/**
 * The whole bot on loopback: the real Bolt app in HTTP mode on port 0, the fake Slack Web
 * API, response_url endpoints, the sandbox cloud and a log that is kept for inspection.
 * Tests talk to it the way Slack does (signed requests) and assert what the cloud received
 * (`sandbox.requests`) and what the person saw (response_url posts, Slack messages).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webApi } from '@slack/bolt';
import { createCloudClient, type ClosableCloudClient } from '../../src/cloud/client.js';
import { systemClock, type Clock } from '../../src/clock.js';
import { createRuntime, WATCHER_USER_AGENT, type Runtime } from '../../src/runtime.js';
import { createSandbox } from '../../src/sandbox/index.js';
import { SLACK_RETRY } from '../../src/slack/app.js';
import type { Store } from '../../src/store/index.js';
import type { UnfurlConfig } from '../../src/config.js';
import type { AfterAckLimits } from '../../src/slack/after-ack.js';
import type { Sandbox, SandboxOptions } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeMessage, type FakeSlack } from '../rig/fake-slack.js';
import { blockActionsPayload, viewSubmissionPayload, type BlockActionsInput, type SlashCommandInput } from '../rig/payloads.js';
import { createResponseUrls, type ResponseUrlPost, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender, type SendOptions, type SlackSender } from '../rig/slack-sender.js';
import type { SignedResponse } from '../rig/http.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, BOT_TOKEN, DEFAULT_CHANNELS, DEFAULT_USERS, OPS_CHANNEL, SIGNING_SECRET, type FakeChannel, type FakeUser } from '../rig/workspace.js';
import type { AccessConfig, TelemetryConfig } from '../../src/config.js';
import type { PolicyFile } from '../../src/access/policy-file.js';
import { startRigAccounts, type RigAccount, type RigAccountOptions } from './rig-accounts.js';
import { monitorParts, type RigMonitorOptions } from './rig-monitor.js';

export const CLOUD_TOKEN = 'cloud-token-e2e-0123456789';
/** The watcher's own User-Agent (the production one), so a command's requests can be told apart. */
export const WATCHER_AGENT = WATCHER_USER_AGENT;
/** The rig's default roles: Alice admin, Bob operator, Carol (on no list) a viewer. */
export const DEFAULT_ACCESS: AccessConfig = {
  admins: [ALICE.id],
  operators: [BOB.id],
  viewers: undefined,
  channels: undefined,
  policyFile: undefined,
  approval: undefined,
};

/** Real time, plus a jump a test can make (a confirmation's lifetime passes without waiting it out). */
export interface JumpClock extends Clock {
  jump(ms: number): void;
}

export function createJumpClock(): JumpClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    sleep: (ms, signal) => systemClock.sleep(ms, signal),
    jump: (ms) => void (offset += ms),
  };
}

export interface BotRigOptions {
  sandbox?: SandboxOptions;
  /** Default: a JumpClock (`rig.clock`). */
  clock?: Clock;
  slowNoticeMs?: number;
  confirmTtlMs?: number;
  watch?: { intervalMs?: number; broadcast?: 'final' | 'failures' | 'none'; concurrency?: number };
  access?: Partial<AccessConfig>;
  /** The policy file; a function gets the base URLs of `accounts`' sandboxes by account name. */
  policy?: PolicyFile | ((urls: Record<string, string>) => PolicyFile);
  /** The runtime's reloadPolicy (SIGHUP), given the same URLs; throws PolicyFileError for a bad file. */
  reloadPolicy?: (urls: Record<string, string>) => PolicyFile;
  /** The policy file's path, for messages and audit entries. */
  policyPath?: string;
  /** Cloud accounts besides the default one (issue 12): each its own sandbox with its own token. */
  accounts?: Record<string, RigAccountOptions>;
  groupCacheMs?: number;
  auditChannel?: string;
  /** Channels besides the rig's defaults (e.g. one for AUDIT_CHANNEL). */
  extraChannels?: FakeChannel[];
  /** People besides the rig's defaults (Alice, Bob, Carol). */
  extraUsers?: FakeUser[];
  cloudRetry?: { budgetMs?: number; maxAttempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Slack Web API retries; default: production's number of tries (SLACK_RETRY) without its waits. */
  slackRetry?: webApi.RetryOptions;
  /** Slack Web API timeout per call; default production's (SLACK_CALL_TIMEOUT_MS). */
  slackCallTimeoutMs?: number;
  /** Subscriptions (issue 13): settings, and `monitorLoop: false` to tick it by hand. */
  monitor?: RigMonitorOptions;
  /** Bounds on work in flight after acks (after-ack.ts): small ones make shedding reachable. */
  afterAck?: AfterAckLimits;
  /** METRICS_TOKEN and traces (issue 24); /metrics is served either way. */
  telemetry?: TelemetryConfig;
  /** Which links unfurl (issue 23); default RIG_UNFURL. */
  unfurl?: UnfurlConfig;
  /** Schedules (issue 25): the grace for missed runs and the retention's poll; the loop never runs (tests call `bot.scheduler.tick()`). */
  schedule?: { graceMs?: number; backupPollMs?: number };
  /** true: waiting workflow steps move on their own; default false, tests call `bot.steps.tick()`. */
  stepLoop?: boolean;
  /** false: the watcher polls only when a test calls `bot.watcher.tick()` (rig-watch.ts); default true. */
  watchLoop?: boolean;
}

/** The rig's panel and workers' domain (the sandbox's workers answer under workers.example.net). */
export const RIG_UNFURL: UnfurlConfig = { panelUrl: 'https://panel.example.com', workersDomain: 'workers.example.net' };

/** The bot's Slack retry policy with the waits taken out: as many tries, at once. */
export const RIG_SLACK_RETRY: webApi.RetryOptions = { ...SLACK_RETRY, minTimeout: 0, maxTimeout: 1 };

export interface CommandResult {
  ack: SignedResponse;
  responseUrl: string;
  /** Posts to this command's response_url, once the final answer (not the slow notice) arrived. */
  posts: ResponseUrlPost[];
  /** The last post's body: what the person sees now. */
  final: Record<string, unknown>;
  /** Cloud requests made while answering. */
  cloudRequests: Sandbox['requests'];
}

export interface BotRig {
  sandbox: Sandbox;
  /** The sandbox's base URL (…/v2); its control API is under /__sandbox. */
  cloudUrl: string;
  /** The sandboxes of `options.accounts`, by account name. */
  accounts: Record<string, RigAccount>;
  slack: FakeSlack;
  responses: ResponseUrls;
  send: SlackSender;
  eventsUrl: string;
  logLines: string[];
  /** A client of the rig's own, for tests that change the cloud behind the bot's back. */
  cloud: ClosableCloudClient;
  /** The bot as src/main.ts runs it (src/runtime.ts), over the rig's Slack and cloud. */
  bot: Runtime;
  store: Store;
  /** The bot's clock: the rig's JumpClock unless a clock was given. */
  clock: Clock & Partial<Pick<JumpClock, 'jump'>>;
  databasePath: string;
  /** Stops the bot and starts a new instance on the same database file (a restart). */
  restartBot(): Promise<void>;
  /** Sends `/cloud <text>` and waits for the answer that is not the slow notice. */
  command(text: string, input?: SlashCommandInput, send?: SendOptions): Promise<CommandResult>;
  /** Sends `/cloud <text>` and returns once acked (for changes, whose answer is in the channel). */
  sendCommand(text: string, input?: SlashCommandInput, send?: SendOptions): Promise<SignedResponse>;
  /** The newest top-level bot message in a channel, once there is one newer than `after`. */
  statusMessage(channel?: string, after?: number): Promise<FakeMessage>;
  /**
   * Top-level messages posted in `channel` by Slack calls at index `from` or later, oldest first,
   * as they are now (take `from` as `rig.slack.calls.length` before acting): a cursor no clock can fool.
   */
  postsSince(from: number, channel?: string): FakeMessage[];
  /** The first of `postsSince`, once there is one. */
  postedSince(from: number, channel?: string): Promise<FakeMessage>;
  /** Clicks a button of a channel message as `userId`. */
  click(message: FakeMessage, actionId: string, userId: string): Promise<SignedResponse>;
  /** Mutating requests (POST/PATCH/DELETE) the cloud received since `from`. */
  mutations(from?: number): Sandbox['requests'];
  /** Clicks a button in a message the bot posted through a response_url. */
  clickInResponse(post: ResponseUrlPost, actionId: string, input?: Partial<BlockActionsInput>): Promise<CommandResult>;
  close(): Promise<void>;
}

const isSlowNotice = (p: ResponseUrlPost) => typeof p.body.text === 'string' && p.body.text.includes('the cloud is slow to answer');

export async function startBotRig(options: BotRigOptions = {}): Promise<BotRig> {
  const sandbox = createSandbox({ token: CLOUD_TOKEN, ...options.sandbox });
  const cloudServer = await sandbox.listen();
  const { accounts, urls, tokens, close: closeAccounts } = await startRigAccounts(options.accounts);
  const policy = typeof options.policy === 'function' ? options.policy(urls) : options.policy;
  const reloadPolicy = options.reloadPolicy;
  const slack = await createFakeSlack({
    ...(options.extraChannels ? { channels: [...DEFAULT_CHANNELS, ...options.extraChannels] } : {}),
    ...(options.extraUsers ? { users: [...DEFAULT_USERS, ...options.extraUsers] } : {}),
  });
  const responses = await createResponseUrls();
  const logLines: string[] = [];
  const clock = options.clock ?? createJumpClock();
  const cloud = createCloudClient({ baseUrl: cloudServer.baseUrl, token: CLOUD_TOKEN });
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-e2e-'));
  const databasePath = join(dir, 'cloudbot.db');
  const monitor = monitorParts(options.monitor);
  // A bot instance: its own store connection, pool and HTTP port, over the same database file,
  // as a restarted process would have.
  const startInstance = async () => {
    const bot = createRuntime(
      {
        slack: { mode: 'http', botToken: BOT_TOKEN, appToken: undefined, signingSecret: SIGNING_SECRET, port: 0, apiUrl: slack.url },
        cloud: { baseUrl: cloudServer.baseUrl, token: CLOUD_TOKEN },
        databasePath,
        access: {
          config: { ...DEFAULT_ACCESS, ...options.access },
          ...(policy ? { policy } : {}),
          ...(reloadPolicy ? { reloadPolicy: () => reloadPolicy(urls) } : {}),
          ...(options.policyPath ? { policyPath: options.policyPath } : {}),
        },
        tokens,
        auditChannel: options.auditChannel,
        unfurl: options.unfurl ?? RIG_UNFURL,
        ...(options.watch ? { watch: options.watch } : {}),
        ...monitor.settings,
        ...(options.schedule ? { schedule: options.schedule } : {}),
        log: { level: 'debug', sink: (l) => logLines.push(l) },
        ...(options.telemetry ? { telemetry: options.telemetry } : {}),
      },
      {
        clock,
        cloudRetry: { budgetMs: 1500, baseDelayMs: 50, maxDelayMs: 200, ...options.cloudRetry },
        slackRetryConfig: options.slackRetry ?? RIG_SLACK_RETRY,
        ...(options.slackCallTimeoutMs ? { slackCallTimeoutMs: options.slackCallTimeoutMs } : {}),
        slowNoticeMs: options.slowNoticeMs ?? 1000,
        ...(options.confirmTtlMs ? { confirmTtlMs: options.confirmTtlMs } : {}),
        ...(options.groupCacheMs !== undefined ? { groupCacheMs: options.groupCacheMs } : {}),
        ...(options.watch?.concurrency ? { watchConcurrency: options.watch.concurrency } : {}),
        ...(options.afterAck ? { afterAck: options.afterAck } : {}),
        stepLoop: options.stepLoop ?? false,
        ...(options.watchLoop === false ? { watchLoop: false } : {}),
        ...monitor.overrides,
        schedulerLoop: false,
      },
    );
    const { port } = await bot.start();
    const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
    return { store: bot.store, bot, eventsUrl, send: createSlackSender(eventsUrl, { slack }) };
  };
  let instance = await startInstance();

  const awaitAnswer = async (responseUrl: string, before: number, ack: SignedResponse): Promise<CommandResult> => {
    const posts = await waitFor(
      () => {
        const mine = responses.postsTo(responseUrl);
        return mine.some((p) => !isSlowNotice(p)) ? mine : undefined;
      },
      { timeoutMs: 10_000 },
    );
    const cloudRequests = sandbox.requests.slice(before).filter((r) => r.userAgent !== WATCHER_AGENT);
    return { ack, responseUrl, posts, final: posts[posts.length - 1]!.body, cloudRequests };
  };

  const rig: BotRig = {
    sandbox,
    cloudUrl: cloudServer.baseUrl,
    accounts,
    slack,
    responses,
    get send() {
      return instance.send;
    },
    get eventsUrl() {
      return instance.eventsUrl;
    },
    logLines,
    cloud,
    get bot() {
      return instance.bot;
    },
    get store() {
      return instance.store;
    },
    clock,
    databasePath,
    async restartBot() {
      await instance.bot.stop(); // closes its store connection too
      instance = await startInstance();
    },
    async command(text, input = {}, sendOptions) {
      const responseUrl = responses.next();
      const before = sandbox.requests.length;
      const ack = await instance.send.command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, ...input, text, responseUrl }, sendOptions);
      return awaitAnswer(responseUrl, before, ack);
    },
    sendCommand(text, input = {}, sendOptions) {
      return instance.send.command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl: responses.next(), ...input, text }, sendOptions);
    },
    statusMessage(channel = OPS_CHANNEL.id, after = -1) {
      return waitFor(() => slack.messages.inChannel(channel).filter((m) => m.postedAt > after).at(-1), { timeoutMs: 10_000 });
    },
    postsSince(from, channel = OPS_CHANNEL.id) {
      return slack.calls
        .slice(from)
        .filter((c) => c.method === 'chat.postMessage' && c.response.ok === true && c.response.channel === channel && !c.params.thread_ts)
        .map((c) => slack.messages.get(channel, String(c.response.ts)))
        .filter((m): m is FakeMessage => m !== undefined);
    },
    postedSince(from, channel = OPS_CHANNEL.id) {
      return waitFor(() => rig.postsSince(from, channel)[0], { timeoutMs: 10_000 });
    },
    click(message, actionId, userId) {
      return instance.send.interaction(blockActionsPayload({ actionId, message, userId, channelId: message.channel, responseUrl: responses.next() }));
    },
    mutations(from = 0) {
      return sandbox.requests.slice(from).filter((r) => r.method !== 'GET');
    },
    async clickInResponse(post, actionId, input = {}) {
      const responseUrl = responses.next();
      const before = sandbox.requests.length;
      const payload = blockActionsPayload({
        actionId,
        // Slack's payload for a click in an ephemeral message carries no message object.
        ephemeral: { channel: OPS_CHANNEL.id, message_ts: `${Math.floor(post.at / 1000)}.000100`, blocks: post.body.blocks as unknown[] },
        userId: ALICE.id,
        channelId: OPS_CHANNEL.id,
        responseUrl,
        ...input,
      });
      const ack = await instance.send.interaction(payload);
      return awaitAnswer(responseUrl, before, ack);
    },
    async close() {
      await instance.bot.stop();
      await cloud.close();
      await cloudServer.close();
      await closeAccounts();
      await slack.close();
      await responses.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return rig;
}

/** Everything a person can read in a Slack payload: text plus every text object in the blocks. */
export function visibleText(body: Record<string, unknown>): string {
  const out: string[] = [];
  if (typeof body.text === 'string') out.push(body.text);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      // Slack renders mrkdwn's three escapes back to the characters a person reads.
      if (o.type === 'mrkdwn' && typeof o.text === 'string') out.push(o.text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
      else if (o.type === 'plain_text' && typeof o.text === 'string') out.push(o.text);
      else Object.values(o).forEach(walk);
    }
  };
  walk(body.blocks);
  return out.join('\n');
}

/**
 * Helpers most end-to-end files need, bound to a rig that is created in `beforeAll`:
 * `const { text, latest, until, ephemeralTo, buttons } = rigHelpers(() => rig);`
 */
export function rigHelpers(get: () => BotRig) {
  const text = (m: { blocks?: unknown[]; text: string }) => visibleText({ text: m.text, blocks: m.blocks });
  /** The message as it is now (after any chat.update). */
  const latest = (m: { channel: string; ts: string }) => get().slack.messages.get(m.channel, m.ts)!;
  return {
    text,
    latest,
    /** Waits until the message's text contains `word`; returns it then. */
    until: (m: { channel: string; ts: string }, word: string, timeoutMs = 5000) =>
      waitFor(() => (text(latest(m)).includes(word) ? latest(m) : undefined), { timeoutMs }),
    /** What one person was shown privately, as text. */
    ephemeralTo: (user: string) => get().slack.messages.ephemeral(user).map((e) => visibleText({ text: e.text, blocks: e.blocks })),
    /** Clicks Confirm on a message whose confirmation asks to type a word, and types it. */
    async confirmByTyping(m: { channel: string; ts: string }, typed: string, userId: string = ALICE.id) {
      const rig = get();
      const dialogs = () => rig.slack.views.all().filter((v) => v.view.callback_id === 'cloud_type_confirm');
      const seen = dialogs().length;
      await rig.click(latest(m), 'op_confirm', userId);
      const dialog = await waitFor(() => dialogs()[seen], { timeoutMs: 5000 });
      return rig.send.interaction(viewSubmissionPayload({ view: { ...dialog.view, id: dialog.id }, values: { typed }, userId }));
    },
    /**
     * Runs a change that must be refused before anyone is asked: only GETs reach the cloud,
     * nothing is posted in the channel, and the answer says it was not sent. Returns the text.
     */
    async refusedBeforeAsking(command: string, input: SlashCommandInput = {}) {
      const rig = get();
      const before = Date.now();
      const r = await rig.command(command, input);
      if (!r.cloudRequests.every((q) => q.method === 'GET')) throw new Error(`${command}: a change reached the cloud`);
      const posted = rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt > before);
      if (posted.length) throw new Error(`${command}: something was posted in the channel`);
      const shown = visibleText(r.final);
      if (!shown.includes('was not sent.')) throw new Error(`${command}: the answer does not say it was not sent: ${shown}`);
      return shown;
    },
    /** The action ids of the bot's own buttons on a message. */
    buttons: (m: { blocks?: unknown[] }) => JSON.stringify(m.blocks ?? []).match(/"action_id":"op_[a-z_]+"/g) ?? [],
  };
}
