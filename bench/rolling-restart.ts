/**
 * Rolling restart, measured (issue 24): two bot processes (`src/main.ts`, HTTP mode) on one
 * PostgreSQL database, behind a small load balancer in this process that routes only to
 * replicas whose `/readyz` answered 200 at its last probe (every PROBE_MS, as an ingress does)
 * and tries the other replica when a connection is refused. Under steady load — read commands,
 * worker deploys confirmed by a click, each followed by a watch to its final post — each replica
 * in turn gets SIGTERM, exits, and is started again on its port. Counted:
 * - commands and clicks that failed or went unanswered (goal 0); those answered "restarting,
 *   nothing was sent" are counted apart and sent again once, as a person would, and the retry
 *   must succeed;
 * - mutations doubled or missing, at the sandbox (one POST /workers per deploy name);
 * - watch final posts doubled or lost, at the fake Slack (one per deploy thread);
 * - ack latency (p50/p99/max) of requests sent while a replica was stopping or away;
 * - takeover: from SIGTERM until every watch the stopped replica held is leased by the other.
 * Runs RUNS times in a row, each on a fresh database (the last argument: its URL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Agent, request } from 'undici';
import { createSandbox } from '../src/sandbox/index.js';
import { FINAL_EVENT } from '../src/watch/final-post.js';
import { createFakeSlack, type FakeMessage, type FakeSlack } from '../test/rig/fake-slack.js';
import { blockActionsPayload } from '../test/rig/payloads.js';
import { createResponseUrls, type ResponseUrls } from '../test/rig/response-url.js';
import { createSlackSender } from '../test/rig/slack-sender.js';
import { ALICE, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../test/rig/workspace.js';
import { runAsSection } from './lib/section.js';
import { percentile } from './lib/stats.js';

export interface RollingRun {
  commands: number;
  clicks: number;
  /** Answered "restarting, nothing was sent" (and sent again once). */
  toldRetry: number;
  failed: number;
  unanswered: number;
  /** What each failed or unanswered request got (the first few), for the report. */
  why: string[];
  deploys: number;
  mutationsDoubled: number;
  mutationsMissing: number;
  finalsDoubled: number;
  finalsLost: number;
  /** Ack latency of requests sent while a replica was stopping or away, ms. */
  restartAcks: { n: number; p50: number; p99: number; max: number };
  /** SIGTERM → every watch the replica held leased by the other, ms, per restart. */
  takeoverMs: number[];
  /** SIGTERM → process exit, ms, per restart. */
  stopMs: number[];
  wallMs: number;
}

export interface RollingRestartResult {
  runs: RollingRun[];
  settings: { readProbeMs: number; commandEveryMs: number; deployEveryMs: number; buildMs: number; watchIntervalMs: number; leaseMs: number; shutdownTimeoutMs: number; shutdownDelayMs: number };
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'src/main.ts');
const TSX = new URL('../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const RUNS = 3;
const PROBE_MS = 200;
const READ_EVERY_MS = 250;
const DEPLOY_EVERY_MS = 1500;
const BUILD_MS = 6000;
const WATCH_INTERVAL_MS = 1000;
const LEASE_MS = 10_000;
const SHUTDOWN_TIMEOUT_MS = 15_000;
const SHUTDOWN_DELAY_MS = 2000;
/** Steady load before, between and after the restarts. */
const STEADY_MS = 5000;
const ANSWER_WAIT_MS = 20_000;
const TOKEN = 'rolling-restart-token';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function waitUntil<T>(what: string, fn: () => T | undefined | Promise<T | undefined>, timeoutMs: number, everyMs = 50): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`rolling restart: ${what} did not happen within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

interface Proc {
  child: ChildProcess;
  out: () => string;
  exited: Promise<void>;
  owner: string;
}

/** One replica: a fixed port (a restart comes back on it, as a pod behind its service would). */
function replica(name: string, port: number, env: Record<string, string>) {
  let proc: Proc | undefined;
  return {
    name,
    port,
    get proc() {
      return proc;
    },
    async start(): Promise<void> {
      const dir = mkdtempSync(join(tmpdir(), `cloudbot-rr-${name}-`));
      const child = spawn(process.execPath, ['--import', TSX, MAIN], { env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port) }, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout!.on('data', (d) => (out += String(d)));
      child.stderr!.on('data', (d) => (out += String(d)));
      const exited = new Promise<void>((resolve) => child.on('exit', () => (rmSync(dir, { recursive: true, force: true }), resolve())));
      const owner = await waitUntil(`replica ${name} start`, () => /"msg":"watching with leases"[^\n]*"replica":"([^"]+)"/.exec(out)?.[1], 60_000);
      await waitUntil(`replica ${name} listening`, () => (/listening for Slack on :\d+/.test(out) ? true : undefined), 60_000);
      proc = { child, out: () => out, exited, owner };
    },
  };
}
type Replica = ReturnType<typeof replica>;

/** The load balancer: round robin over replicas ready at their last probe; a refused connection goes to the other. */
async function loadBalancer(replicas: Replica[]) {
  const ready = new Map<number, boolean>();
  const agent = new Agent({ connections: 64 });
  let stopped = false;
  const probe = async () => {
    while (!stopped) {
      await Promise.all(
        replicas.map(async (r) => {
          try {
            const res = await request(`http://127.0.0.1:${r.port}/readyz`, { dispatcher: agent, headersTimeout: 1000, bodyTimeout: 1000 });
            await res.body.dump();
            ready.set(r.port, res.statusCode === 200);
          } catch {
            ready.set(r.port, false);
          }
        }),
      );
      await sleep(PROBE_MS);
    }
  };
  const probing = probe();
  let next = 0;
  const server = createHttpServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks);
        const inRotation = replicas.filter((r) => ready.get(r.port));
        const order = (inRotation.length ? inRotation : replicas).slice();
        const first = next++ % order.length;
        const tries = [...order.slice(first), ...order.slice(0, first), ...replicas.filter((r) => !order.includes(r))];
        for (const r of tries) {
          try {
            const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
            const answer = await request(`http://127.0.0.1:${r.port}${req.url}`, { method: 'POST', headers, body, dispatcher: agent });
            const bytes = Buffer.from(await answer.body.arrayBuffer());
            res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
            res.end(bytes);
            return;
          } catch (e) {
            // Only a refused connection is tried elsewhere: the request never reached a replica.
            if ((e as { code?: string }).code !== 'ECONNREFUSED') break;
          }
        }
        res.writeHead(502);
        res.end();
      })();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    async close() {
      stopped = true;
      await probing;
      await new Promise((r) => server.close(r));
      await agent.close();
    },
  };
}

const isRetryAnswer = (text: string) => text.includes('is restarting and did not take');

async function oneRun(run: number, dbUrl: string): Promise<RollingRun> {
  const wall = performance.now();
  const sandbox = createSandbox({ token: TOKEN, buildMs: BUILD_MS });
  sandbox.state.account.workersAllowed = 10_000;
  const cloud = await sandbox.listen();
  const slack: FakeSlack = await createFakeSlack();
  const responses: ResponseUrls = await createResponseUrls();
  const db = new pg.Pool({ connectionString: dbUrl, max: 2 });
  const env = {
    SLACK_MODE: 'http',
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.url,
    CLOUD_API_BASE_URL: cloud.baseUrl,
    CLOUD_API_TOKEN: TOKEN,
    DATABASE_URL: dbUrl,
    WATCH_INTERVAL_MS: String(WATCH_INTERVAL_MS),
    WATCH_LEASE_MS: String(LEASE_MS),
    SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    CLOUD_ADMINS: ALICE.id,
    LOG_LEVEL: 'info',
  };
  const replicas = [replica('a', await freePort(), env), replica('b', await freePort(), env)];
  await replicas[0]!.start(); // one first: it runs the migrations
  await replicas[1]!.start();
  const lb = await loadBalancer(replicas);
  const send = createSlackSender(lb.url);

  const acks: { at: number; ms: number }[] = [];
  const restartWindows: { from: number; to: number }[] = [];
  const r: Omit<RollingRun, 'restartAcks' | 'takeoverMs' | 'stopMs' | 'wallMs' | 'mutationsDoubled' | 'mutationsMissing' | 'finalsDoubled' | 'finalsLost'> = {
    commands: 0,
    clicks: 0,
    toldRetry: 0,
    failed: 0,
    unanswered: 0,
    why: [],
    deploys: 0,
  };
  const fail = (what: string, kind: 'failed' | 'unanswered' = 'failed') => {
    r[kind]++;
    if (r.why.length < 5) r.why.push(`${kind}: ${what.replace(/\s+/g, ' ').slice(0, 200)}`);
  };
  const pending: Promise<void>[] = [];
  const timed = async <T extends { elapsedMs: number }>(p: Promise<T>): Promise<T> => {
    const at = Date.now();
    const res = await p;
    acks.push({ at, ms: res.elapsedMs });
    return res;
  };
  const lastPost = async (url: string) => {
    const end = Date.now() + ANSWER_WAIT_MS;
    while (Date.now() < end) {
      const posts = responses.postsTo(url).filter((p) => !String(p.body.text ?? '').includes('the cloud is slow to answer'));
      if (posts.length) return String(posts.at(-1)!.body.text ?? '');
      await sleep(50);
    }
    return undefined;
  };

  /** A read command; answered "restarting" → sent once more. */
  const read = async (retried = false): Promise<void> => {
    r.commands++;
    const url = responses.next();
    const ack = await timed(send.command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: 'server status 101', responseUrl: url }));
    const ackText = String((ack.json as { text?: unknown } | undefined)?.text ?? '');
    if (ack.status !== 200) return fail(`read: ack HTTP ${ack.status} ${ack.text}`);
    if (isRetryAnswer(ackText)) {
      r.toldRetry++;
      if (retried) return fail('read: told to retry twice');
      await sleep(500);
      return read(true);
    }
    const answer = await lastPost(url);
    if (answer === undefined) fail('read: no answer', 'unanswered');
    else if (!answer.includes('101') || isRetryAnswer(answer)) fail(`read answered: ${answer}`);
  };

  const statusMessage = (name: string): FakeMessage | undefined =>
    slack.messages.inChannel(OPS_CHANNEL.id).find((m) => m.text.includes(name) || JSON.stringify(m.blocks ?? []).includes(name));
  /** A deploy: the command, then a click on its Confirm; either answered "restarting" → sent once more. */
  const deploy = async (name: string): Promise<void> => {
    r.deploys++;
    for (let attempt = 0; ; attempt++) {
      r.commands++;
      const ack = await timed(send.command({ userId: ALICE.id, channelId: OPS_CHANNEL.id, text: `worker deploy --name ${name} --location 1 --repo https://github.com/acme/${name}.git`, responseUrl: responses.next() }));
      const ackText = String((ack.json as { text?: unknown } | undefined)?.text ?? '');
      if (ack.status !== 200) return fail(`deploy: ack HTTP ${ack.status} ${ack.text}`);
      if (!isRetryAnswer(ackText)) break;
      r.toldRetry++;
      if (attempt > 0) return fail('deploy: told to retry twice');
      await sleep(500);
    }
    const msg = await waitUntil(`confirm message of ${name}`, () => statusMessage(name), ANSWER_WAIT_MS).catch(() => undefined);
    if (!msg) return fail(`deploy ${name}: no status message`, 'unanswered');
    for (let attempt = 0; ; attempt++) {
      r.clicks++;
      const url = responses.next();
      const ack = await timed(send.interaction(blockActionsPayload({ actionId: 'op_confirm', message: msg, userId: ALICE.id, channelId: msg.channel, responseUrl: url })));
      if (ack.status !== 200) return fail(`click: ack HTTP ${ack.status} ${ack.text}`);
      // A click not taken is told so through its response_url; a taken one edits the status message.
      const taken = await waitUntil(
        `click on ${name}`,
        () => {
          const told = responses.postsTo(url).find((p) => isRetryAnswer(String(p.body.text ?? '')));
          if (told) return 'retry' as const;
          return sandbox.requests.some((q) => q.method === 'POST' && q.path === '/workers' && JSON.stringify(q.body).includes(`"${name}"`)) ? ('sent' as const) : undefined;
        },
        ANSWER_WAIT_MS,
      ).catch(() => undefined);
      if (taken === 'sent') return;
      if (taken === undefined) return fail(`click on ${name}: nothing sent, nothing told`, 'unanswered');
      r.toldRetry++;
      if (attempt > 0) return fail('click: told to retry twice');
      await sleep(500);
    }
  };

  let loadOn = true;
  let n = 0;
  const load = (async () => {
    let lastDeploy = 0;
    while (loadOn) {
      pending.push(read());
      if (Date.now() - lastDeploy >= DEPLOY_EVERY_MS) {
        lastDeploy = Date.now();
        pending.push(deploy(`rr${run}-${n++}`));
      }
      await sleep(READ_EVERY_MS);
    }
  })();

  const leased = async (owner: string) =>
    (await db.query<{ id: string }>(`SELECT id FROM watches WHERE lease_owner = $1 AND status IN ('active', 'finalizing')`, [owner])).rows.map((x) => x.id);
  const takeoverMs: number[] = [];
  const stopMs: number[] = [];
  await sleep(STEADY_MS);
  for (const rep of replicas) {
    const proc = rep.proc!;
    const other = replicas.find((x) => x !== rep)!.proc!;
    const held = await leased(proc.owner);
    const t0 = Date.now();
    const window = { from: t0, to: Number.POSITIVE_INFINITY };
    restartWindows.push(window);
    proc.child.kill('SIGTERM');
    // Takeover: every watch it held (still open) is leased by the other replica.
    const takeover = waitUntil(
      `takeover of ${rep.name}'s watches`,
      async () => {
        if (held.length === 0) return 0;
        const rows = (await db.query<{ id: string; lease_owner: string | null; status: string }>(`SELECT id, lease_owner, status FROM watches WHERE id = ANY($1)`, [held])).rows;
        return rows.every((x) => x.lease_owner === other.owner || !['active', 'finalizing'].includes(x.status)) ? Date.now() - t0 : undefined;
      },
      LEASE_MS * 3,
      20,
    );
    await proc.exited;
    stopMs.push(Date.now() - t0);
    takeoverMs.push(await takeover);
    await rep.start();
    window.to = Date.now();
    await sleep(STEADY_MS);
  }
  loadOn = false;
  await load;
  await Promise.all(pending);
  // Every deploy's watch ends (builds take BUILD_MS), then finals are counted.
  const names = Array.from({ length: n }, (_, i) => `rr${run}-${i}`);
  await waitUntil('every watch ending', async () => ((await db.query(`SELECT 1 FROM watches WHERE status IN ('active', 'finalizing')`)).rowCount === 0 ? true : undefined), 60_000, 200);
  await sleep(2 * WATCH_INTERVAL_MS); // a doubled final post would land now
  let mutationsDoubled = 0;
  let mutationsMissing = 0;
  let finalsDoubled = 0;
  let finalsLost = 0;
  for (const name of names) {
    const posts = sandbox.requests.filter((q) => q.method === 'POST' && q.path === '/workers' && JSON.stringify(q.body).includes(`"${name}"`)).length;
    if (posts > 1) mutationsDoubled += posts - 1;
    if (posts === 0) mutationsMissing++;
    const msg = statusMessage(name);
    const finals = msg ? slack.messages.thread(msg.channel, msg.ts).filter((m) => m.metadata?.event_type === FINAL_EVENT).length : 0;
    if (posts > 0 && finals === 0) finalsLost++;
    if (finals > 1) finalsDoubled += finals - 1;
  }
  const during = acks.filter((a) => restartWindows.some((w) => a.at >= w.from && a.at <= w.to)).map((a) => a.ms).sort((x, y) => x - y);

  await lb.close();
  for (const rep of replicas) {
    rep.proc?.child.kill('SIGTERM');
    await rep.proc?.exited;
  }
  await db.end();
  await cloud.close();
  await slack.close();
  await responses.close();
  return {
    ...r,
    mutationsDoubled,
    mutationsMissing,
    finalsDoubled,
    finalsLost,
    restartAcks: { n: during.length, p50: percentile(during, 50), p99: percentile(during, 99), max: during.at(-1) ?? Number.NaN },
    takeoverMs,
    stopMs,
    wallMs: performance.now() - wall,
  };
}

async function resetDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  await client.end();
}

export async function runRollingRestart(dbUrl: string, runs = RUNS): Promise<RollingRestartResult> {
  const out: RollingRun[] = [];
  for (let i = 1; i <= runs; i++) {
    await resetDatabase(dbUrl);
    out.push(await oneRun(i, dbUrl));
  }
  return {
    runs: out,
    settings: {
      readProbeMs: PROBE_MS,
      commandEveryMs: READ_EVERY_MS,
      deployEveryMs: DEPLOY_EVERY_MS,
      buildMs: BUILD_MS,
      watchIntervalMs: WATCH_INTERVAL_MS,
      leaseMs: LEASE_MS,
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
      shutdownDelayMs: SHUTDOWN_DELAY_MS,
    },
  };
}

const runsArg = process.argv.indexOf('--runs');
runAsSection(import.meta.url, () => runRollingRestart(process.argv.at(-1)!, runsArg > 0 ? Number(process.argv[runsArg + 1]) : RUNS));
