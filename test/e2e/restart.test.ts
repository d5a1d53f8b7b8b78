/**
 * Restart safety with a real process: the bot (src/main.ts) follows a build, is killed with
 * SIGKILL in the middle of it, is started again on the same database, and the build's final
 * state still reaches the thread exactly once. The restarted process is a new replica: it takes
 * the watch over when the killed one's lease (30 s) runs out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock, type Clock } from '../../src/clock.js';
import { createCloudClient } from '../../src/cloud/client.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';

const LEASE_MS = 4000;

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
// The child runs in a temporary folder, so tsx's loader is named by its full path.
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
let sandbox: Sandbox;
let cloudServer: ListeningSandbox;
let slack: FakeSlack;
let responses: ResponseUrls;
let dir: string;
const children: ChildProcess[] = [];

// The build ends only when the test says so (the sandbox's clock jumps), not after a real
// duration a busy machine could outrun before the kill.
const BUILD_MS = 10 * 60_000;
let sandboxOffset = 0;
const sandboxClock: Clock = { now: () => Date.now() + sandboxOffset, sleep: systemClock.sleep };

beforeAll(async () => {
  sandbox = createSandbox({ clock: sandboxClock, buildMs: BUILD_MS });
  cloudServer = await sandbox.listen();
  slack = await createFakeSlack();
  responses = await createResponseUrls();
  dir = mkdtempSync(join(tmpdir(), 'cloudbot-restart-'));
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await cloudServer.close();
  await slack.close();
  await responses.close();
  rmSync(dir, { recursive: true, force: true });
});

function startBot() {
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      SLACK_API_URL: slack.url,
      PORT: '0',
      CLOUD_API_BASE_URL: cloudServer.baseUrl,
      CLOUD_API_TOKEN: sandbox.token,
      DATABASE_URL: `sqlite:${join(dir, 'cloudbot.db')}`,
      WATCH_INTERVAL_MS: '1000',
      // A SIGKILLed process cannot release its leases: the next one takes its watches after this.
      WATCH_LEASE_MS: String(LEASE_MS),
    },
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  return { child, output: () => out, exited };
}

const finals = (ts: string) =>
  slack.callsTo('chat.postMessage').filter((c) => c.params.thread_ts === ts && (c.params.reply_broadcast === true || c.params.reply_broadcast === 'true'));

it('a bot killed mid-build resumes the watch and posts the final state exactly once', async () => {
  const cloud = createCloudClient({ baseUrl: cloudServer.baseUrl, token: sandbox.token });
  const worker = await cloud.workers.deploy({ location_id: 1, name: 'restartable', git_source: 'public', git_repository: 'https://github.com/acme/r.git' });
  await cloud.close();
  const polls = () => sandbox.requests.filter((r) => r.path === `/workers/${worker.uuid}/status`).length;

  const first = startBot();
  const port = await waitFor(() => /listening for Slack on :(\d+)/.exec(first.output())?.[1], { timeoutMs: 60_000 }).catch((e: unknown) => {
    throw new Error(`bot did not start: ${first.output()}`, { cause: e });
  });
  const responseUrl = responses.next();
  await createSlackSender(`http://127.0.0.1:${port}/slack/events`).command({ text: `worker status ${worker.uuid} --watch`, responseUrl });
  await waitFor(() => responses.postsTo(responseUrl)[0], { timeoutMs: 30_000 });
  const own = await waitFor(() => slack.messages.inChannel(OPS_CHANNEL.id).find((m) => m.text.includes(worker.uuid)), { timeoutMs: 30_000 });
  // Wait for the watcher's own first look, then kill the process without warning.
  const before = polls();
  await waitFor(() => polls() > before, { timeoutMs: 30_000 });
  first.child.kill('SIGKILL');
  expect(await first.exited).toBe('SIGKILL');
  expect(finals(own.ts)).toEqual([]); // the build is still going

  const second = startBot();
  await waitFor(() => /listening for Slack/.test(second.output()), { timeoutMs: 60_000 });
  sandboxOffset += BUILD_MS; // the build ends now, while nobody holds its watch's lease
  await waitFor(() => finals(own.ts)[0], { timeoutMs: LEASE_MS + 60_000 }); // taken over once the lease lapses
  await new Promise((r) => setTimeout(r, 2500)); // any duplicate would arrive within a poll or two
  expect(finals(own.ts)).toHaveLength(1);
  const thread = slack.messages.thread(OPS_CHANNEL.id, own.ts);
  expect(thread.filter((m) => /is active/.test(m.text))).toHaveLength(1);
  expect(polls()).toBeLessThan(20);

  second.child.kill('SIGTERM');
  expect(await second.exited).toBe(0);
  expect(second.output()).toContain('"msg":"shutting down"');
}, 240_000);
