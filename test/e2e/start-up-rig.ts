/**
 * The bot in its start-up window: the real runtime over the fake Slack (HTTP or Socket Mode),
 * the sandbox cloud and a SQLite file (or a given database), on a manual clock so the test decides when start-up's
 * backoff and the bot's hold of early requests run out. `startEarly()` starts an instance
 * without waiting for it to be ready (Slack's auth.test may be slow or failing): it returns once
 * the instance listens and has asked Slack once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from '../rig/loopback.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createManualClock, type ManualClock } from '../../src/clock.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { DatabaseTarget } from '../../src/store/index.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket, type FakeSocket } from '../rig/fake-socket.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { APP_TOKEN, BOT_TOKEN, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, DEFAULT_ACCESS, RIG_SLACK_RETRY } from './bot-rig.js';

export interface StartUpRig {
  mode: 'http' | 'socket';
  slack: FakeSlack;
  socket: FakeSocket | undefined;
  sandbox: Sandbox;
  responses: ResponseUrls;
  clock: ManualClock;
  logLines: string[];
  /** The instance now running. */
  bot(): Runtime;
  /** HTTP mode: signed requests to the instance now running. */
  send(): SlackSender;
  eventsUrl(): string;
  /** Starts an instance and waits until it is ready. */
  start(): Promise<void>;
  /** Starts an instance; resolves once it listens (HTTP) and has called auth.test once. `ready` settles with start-up. */
  startEarly(): Promise<{ ready: Promise<unknown> }>;
  /** Moves the clock by `ms` once whatever the bot started has parked on it (`sleeps` sleeps waiting). */
  advanceWhen(sleeps: number, ms: number): Promise<void>;
  /** Mutating requests (POST/PATCH/DELETE) the cloud received since `from`. */
  mutations(from?: number): Sandbox['requests'];
  stopBot(): Promise<void>;
  close(): Promise<void>;
}

/** `database`: default a SQLite file of the rig's own. */
export async function startUpRig(mode: 'http' | 'socket' = 'http', options: { database?: DatabaseTarget } = {}): Promise<StartUpRig> {
  const sandbox = createSandbox({ token: CLOUD_TOKEN });
  const cloudServer: ListeningSandbox = await sandbox.listen();
  const slack = await createFakeSlack();
  const socket = mode === 'socket' ? await createFakeSocket({ slack }) : undefined;
  const responses = await createResponseUrls();
  const clock = createManualClock();
  const logLines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-startup-'));
  let bot: Runtime | undefined;
  let port = 0;

  const create = async () => {
    port = mode === 'http' ? await freePort() : 0;
    bot = createRuntime(
      {
        slack: {
          mode,
          botToken: BOT_TOKEN,
          appToken: mode === 'socket' ? APP_TOKEN : undefined,
          signingSecret: mode === 'http' ? SIGNING_SECRET : undefined,
          port,
          apiUrl: slack.url,
          startTimeoutMs: 0,
        },
        cloud: { baseUrl: cloudServer.baseUrl, token: CLOUD_TOKEN },
        databasePath: join(dir, 'cloudbot.db'),
        ...(options.database ? { database: options.database } : {}),
        access: { config: DEFAULT_ACCESS },
        log: { level: 'debug', sink: (l) => logLines.push(l) },
      },
      // Nothing of the bot's own pace runs in these tests unless the clock is moved on purpose.
      { clock, slackRetryConfig: RIG_SLACK_RETRY, slowNoticeMs: 600_000, monitorLoop: false, cloudRetry: { budgetMs: 1500, baseDelayMs: 50, maxDelayMs: 200 } },
    );
    return bot;
  };
  const eventsUrl = () => `http://127.0.0.1:${port}/slack/events`;

  return {
    mode,
    slack,
    socket,
    sandbox,
    responses,
    clock,
    logLines,
    bot: () => bot!,
    send: () => createSlackSender(eventsUrl(), { slack }),
    eventsUrl,
    async start() {
      await (await create()).start();
      if (socket) await socket.waitForConnection();
    },
    async startEarly() {
      const asked = slack.callsTo('auth.test').length;
      const ready = (await create()).start();
      ready.catch(() => {});
      await waitFor(() => slack.callsTo('auth.test').length > asked, { timeoutMs: 5000, message: 'the bot never called auth.test' });
      return { ready };
    },
    async advanceWhen(sleeps, ms) {
      await waitFor(() => clock.pendingSleeps() >= sleeps, { timeoutMs: 5000, message: `${sleeps} sleeps on the bot's clock` });
      await clock.advance(ms);
    },
    mutations: (from = 0) => sandbox.requests.slice(from).filter((r) => r.method !== 'GET'),
    async stopBot() {
      await bot?.stop();
      bot = undefined;
    },
    async close() {
      await bot?.stop();
      await socket?.close();
      await cloudServer.close();
      await slack.close();
      await responses.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
