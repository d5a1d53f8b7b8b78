/**
 * A replica's stop (SIGTERM in a rolling restart), through the real runtime over signed HTTP:
 * - `/readyz` answers 503 from the first moment, while the work already taken still runs;
 * - a command that still arrives is acked at once with a true answer ("restarting, nothing was
 *   sent") and never reaches the cloud;
 * - the command taken before the stop gets its answer before the stop completes;
 * - past SHUTDOWN_TIMEOUT_MS the stop ends anyway and says what was left;
 * - the watch and monitor leases are released, so the other replica takes them over at once
 *   (the clock does not move: no lease ran out).
 * Cloud calls pass a TCP proxy the test pauses, so "in flight" is a state, not a race.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createCloudClient } from '../../src/cloud/client.js';
import { createManualClock, type ManualClock } from '../../src/clock.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { createStore } from '../../src/store/index.js';
import { createSandbox, type ListeningSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender } from '../rig/slack-sender.js';
import { messageShortcutPayload } from '../rig/surface-payloads.js';
import { createTcpProxy, type TcpProxy } from '../rig/tcp-proxy.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../rig/workspace.js';
import { CLOUD_TOKEN, DEFAULT_ACCESS, RIG_SLACK_RETRY, visibleText } from './bot-rig.js';

let clock: ManualClock;
let sandbox: Sandbox;
let server: ListeningSandbox;
let proxy: TcpProxy;
let slack: FakeSlack;
let responses: ResponseUrls;
let dir: string;
let logs: string[];
const running: Runtime[] = [];

beforeEach(async () => {
  clock = createManualClock();
  sandbox = createSandbox({ token: CLOUD_TOKEN, clock, reinstallMs: 90_000 });
  server = await sandbox.listen();
  const u = new URL(server.baseUrl);
  proxy = await createTcpProxy({ host: u.hostname, port: Number(u.port) });
  slack = await createFakeSlack();
  responses = await createResponseUrls();
  dir = mkdtempSync(join(tmpdir(), 'cloudbot-stop-'));
  logs = [];
});

afterEach(async () => {
  proxy.resume();
  for (const r of running.splice(0)) await r.stop();
  await proxy.close();
  await server.close();
  await slack.close();
  await responses.close();
  rmSync(dir, { recursive: true, force: true });
});

async function replica(shutdownTimeoutMs?: number, shutdownDelayMs?: number): Promise<{ bot: Runtime; base: string }> {
  const bot = unstarted(shutdownTimeoutMs, shutdownDelayMs);
  const { port } = await bot.start();
  return { bot, base: `http://127.0.0.1:${port}` };
}

function unstarted(shutdownTimeoutMs?: number, shutdownDelayMs?: number, monitorLoop = false): Runtime {
  const bot = createRuntime(
    {
      slack: { mode: 'http', botToken: BOT_TOKEN, appToken: undefined, signingSecret: SIGNING_SECRET, port: 0, apiUrl: slack.url },
      cloud: { baseUrl: proxy.through(server.baseUrl), token: CLOUD_TOKEN },
      databasePath: join(dir, 'cloudbot.db'),
      access: { config: { ...DEFAULT_ACCESS, admins: [ALICE.id] } },
      log: { level: 'info', sink: (l) => logs.push(l) },
      ...(shutdownTimeoutMs ? { shutdownTimeoutMs } : {}),
      ...(shutdownDelayMs ? { shutdownDelayMs } : {}),
    },
    { clock, cloudRetry: { maxAttempts: 1 }, slackRetryConfig: RIG_SLACK_RETRY, monitorLoop },
  );
  running.push(bot);
  return bot;
}

const command = (base: string, text: string, responseUrl = responses.next()) =>
  createSlackSender(`${base}/slack/events`).command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text, responseUrl });
const cloudPaths = () => sandbox.requests.map((r) => `${r.method} ${r.path}`);

it('readyz is 503 from the first moment; a new command is told "restarting"; the command in flight is answered before the stop ends', async () => {
  const { bot, base } = await replica();
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  proxy.pause();
  const first = responses.next();
  expect((await command(base, 'server status 101', first)).status).toBe(200);
  await waitFor(() => proxy.heldBytes() > 0 || undefined, { timeoutMs: 10_000 }); // its cloud request is on the wire, held

  let done = false;
  const stopped = bot.stop().then(() => (done = true));
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(503);
  expect(await ready.json()).toEqual({ ready: false, checks: { slack: 'stopping: taking no new requests' } });

  const late = await command(base, 'server status 102');
  expect(late.status).toBe(200);
  const told = visibleText(late.json as Record<string, unknown>);
  expect(told).toContain('cloudbot is restarting and did not take `/cloud server status 102` yet');
  expect(told).toContain('Nothing was sent');
  // The balancer's keep-alive connection ends after this answer rather than being reused.
  expect(late.headers.connection).toBe('close');
  expect(done).toBe(false); // still waiting for the first command's answer

  proxy.resume();
  await stopped;
  const answer = responses.postsTo(first).at(-1)!;
  expect(visibleText(answer.body)).toContain('101');
  expect(visibleText(answer.body)).not.toContain('restarting');
  // The late command never reached the cloud; the first did, once.
  expect(cloudPaths().filter((p) => p.includes('/servers/102'))).toEqual([]);
  expect(cloudPaths().filter((p) => p.startsWith('GET /servers/101')).length).toBeGreaterThan(0);
  expect(logs.some((l) => l.includes('a request came while the bot was stopping'))).toBe(true);
});

it('with nothing in flight the port stays open SHUTDOWN_DELAY_MS, answering "restarting": no refused connection while the balancer catches up', async () => {
  const { bot, base } = await replica(undefined, 3000);
  let done = false;
  const stopped = bot.stop().then(() => (done = true));
  const late = await command(base, 'server status 102');
  expect(late.status).toBe(200);
  expect(visibleText(late.json as Record<string, unknown>)).toContain('cloudbot is restarting');
  expect(done).toBe(false);
  await stopped;
  await expect(fetch(`${base}/readyz`)).rejects.toThrow(); // closed after the delay
  expect(cloudPaths().filter((p) => p.includes('/servers/102'))).toEqual([]);
});

it('past SHUTDOWN_TIMEOUT_MS the stop ends anyway and says how much was still under way', async () => {
  const { bot, base } = await replica(1000);
  proxy.pause();
  expect((await command(base, 'server status 101')).status).toBe(200);
  await waitFor(() => proxy.heldBytes() > 0 || undefined, { timeoutMs: 10_000 });
  await bot.stop(); // the cloud never answers while paused
  const line = logs.find((l) => l.includes('stopping with answers still under way'));
  expect(line).toBeDefined();
  expect(JSON.parse(line!)).toMatchObject({ inFlight: 1, boundMs: 1000 });
});

it("a stopped replica's watch and monitor leases are released: the other replica takes them over without waiting out a lease", async () => {
  const a = await replica();
  const b = await replica();
  await b.bot.watcher.stop(); // b's passes are run by hand below
  const cloud = createCloudClient({ baseUrl: server.baseUrl, token: CLOUD_TOKEN, clock, retry: { maxAttempts: 1 } });
  await cloud.servers.reinstall('101', { template_slug: 'debian-12' }); // a long job on the sandbox's clock, which stays put
  await cloud.close();
  const w = await a.bot.watcher.watch({ kind: 'server', resource: '101', channelId: OPS_CHANNEL.id, threadTs: '1700000000.000100', requestedBy: ALICE.id });
  await a.bot.watcher.tick();
  expect((await a.bot.store.watches.get(w.id))!.leaseOwner).toBe(a.bot.watcher.owner);
  await a.bot.monitor.tick(); // a holds the monitor lease
  const t0 = clock.now();

  // Due again after one interval (10 s), but a's lease (30 s) keeps it a's: b does not poll it.
  await clock.advance(10_000);
  await a.bot.watcher.tick(); // a's pass (its loop may be asleep on the manual clock): a claims it again
  expect((await a.bot.store.watches.get(w.id))!.leaseUntil).toBe(t0 + 10_000 + 30_000);
  await b.bot.watcher.tick();
  expect((await b.bot.store.watches.get(w.id))!.leaseOwner).toBe(a.bot.watcher.owner);
  expect(await b.bot.store.leases.acquire('monitor', 'replica-b', clock.now(), clock.now() + 30_000)).toBe(false);

  await a.bot.stop();
  running.splice(running.indexOf(a.bot), 1);
  expect((await b.bot.store.watches.get(w.id))!.leaseOwner ?? null).toBeNull();
  await clock.advance(10_000); // due again; a's lease would have run until t0 + 40 s
  await b.bot.watcher.tick();
  expect((await b.bot.store.watches.get(w.id))!.leaseOwner).toBe(b.bot.watcher.owner);
  expect(await b.bot.store.leases.acquire('monitor', 'replica-b', clock.now(), clock.now() + 30_000)).toBe(true);
  expect(clock.now() - t0).toBe(20_000); // well inside a's lease: handed over, not run out
});

it('a stop while start-up waits on Slack (app.init) starts nothing more: no loop runs and no lease is taken after it', async () => {
  const bot = unstarted(undefined, 1000, true); // the port stays open 1 s: start-up's wait ends inside the stop
  slack.delayNext('auth.test', 500, 2); // start-up's own auth.test, then app.init's
  const started = bot.start();
  started.catch(() => {});
  // Start-up's own auth.test is recorded once answered; app.init's follows at once, and is slow.
  await waitFor(() => slack.callsTo('auth.test').length >= 1 || undefined, { timeoutMs: 10_000, message: 'start-up never asked auth.test' });
  await bot.stop();
  running.splice(running.indexOf(bot), 1);
  const outcome = await started.catch((e: unknown) => e);
  expect(logs.some((l) => l.includes('watching with leases'))).toBe(false); // the watcher never started
  // The monitor never ran, so its lease is free for another replica now, not after it runs out.
  const other = createStore({ kind: 'sqlite', path: join(dir, 'cloudbot.db') }, { clock });
  await other.ready?.();
  expect(await other.leases.acquire('monitor', 'replica-b', clock.now(), clock.now() + 30_000)).toBe(true);
  await other.close();
  expect(outcome).toEqual(new Error('stopped while starting'));
});

/** A `--keep` backup of server 104 scheduled once, due in 10 s of the clock. */
async function scheduleBackup(bot: Runtime): Promise<string> {
  const now = clock.now();
  const at = now + 10_000;
  const s = await bot.store.schedules.add({
    channelId: OPS_CHANNEL.id, createdBy: ALICE.id, command: 'backup create 104 --name nightly', opId: 'backup.create',
    when: { kind: 'once', at, tz: 'UTC', text: 'in 10 s' }, keep: 2, status: 'active', nextAt: at, now,
  });
  return s.id;
}
const backupsSent = () => cloudPaths().filter((p) => p === 'POST /servers/104/backups');
const runsOf = async (id: string) => {
  const store = createStore({ kind: 'sqlite', path: join(dir, 'cloudbot.db') }, { clock });
  try {
    return { runs: await store.schedules.runs(id), stale: await store.schedules.stale(clock.now(), 10) };
  } finally {
    await store.close();
  }
};

it('from the first moment of a stop no loop claims new work: a run falling due while the watcher drains is left to another replica', async () => {
  const { bot } = await replica();
  const id = await scheduleBackup(bot);
  proxy.pause();
  await bot.watcher.watch({ kind: 'server', resource: '101', channelId: OPS_CHANNEL.id, threadTs: '1700000000.000100', requestedBy: ALICE.id });
  await waitFor(() => proxy.heldBytes() > 0 || undefined, { timeoutMs: 10_000 }); // the watcher's poll is on the wire, held
  await waitFor(() => clock.pendingSleeps() >= 2 || undefined, { timeoutMs: 5000 }); // the scheduler (and the undo window) wait for their next look
  const stopped = bot.stop();
  await clock.advance(15_000); // the scheduler's next look, and the run is due
  await new Promise((resolve) => setTimeout(resolve, 300));
  proxy.resume();
  await stopped;
  running.splice(running.indexOf(bot), 1);
  expect((await runsOf(id)).runs).toEqual([]); // never claimed here: no lease to wait out
  expect(backupsSent()).toEqual([]);
});

it('a scheduled run the stop cuts short (a --keep backup waiting for its backup) is handed over at once, not after its 45-min lease', async () => {
  const { bot } = await replica();
  const id = await scheduleBackup(bot);
  await clock.advance(15_000);
  await bot.scheduler.tick(); // claims the run and starts it
  await waitFor(() => backupsSent().length || undefined, { timeoutMs: 10_000 }); // sent; now it waits for the backup to finish
  await bot.stop();
  running.splice(running.indexOf(bot), 1);
  const { runs, stale } = await runsOf(id);
  expect(runs).toMatchObject([{ status: 'running', owner: bot.watcher.owner }]);
  expect(runs[0]!.leaseUntil).toBeLessThanOrEqual(clock.now());
  expect(stale.map((r) => r.scheduleId)).toEqual([id]); // another replica takes it over at its next look
  expect(backupsSent()).toHaveLength(1);
});

it('a message shortcut (Act on this) that comes while stopping is acked and told so through its response_url, never run', async () => {
  const { bot, base } = await replica(undefined, 3000); // the port stays open 3 s
  const stopped = bot.stop();
  const responseUrl = responses.next();
  const late = await createSlackSender(`${base}/slack/events`).interaction(messageShortcutPayload({ callbackId: 'act_on_this', message: { text: 'is web-1 down?' }, responseUrl }));
  expect(late.status).toBe(200);
  const told = await waitFor(() => responses.postsTo(responseUrl)[0], { timeoutMs: 5000 });
  expect(visibleText(told.body)).toContain('cloudbot is restarting and did not take that shortcut yet');
  expect(visibleText(told.body)).toContain('Nothing was sent');
  expect(told.body).toMatchObject({ response_type: 'ephemeral' });
  await stopped;
  expect(slack.callsTo('views.open')).toEqual([]); // its list was never opened
});
