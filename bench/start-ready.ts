/**
 * The bot as `npm start` runs it: compiled dist/main.js under plain node with the start script's
 * node flags (bench/lib/start-flags.ts), in HTTP mode, in a process of its own, against the rig's
 * fake Slack and response_url endpoints and the sandbox cloud answering after 1 s (all in this
 * process). Measures
 * - start time to ready: spawn → the first 200 from GET /readyz (store open and migrated, Slack
 *   answered), over a few starts, each on a fresh database;
 * - time to answer: a read command sent → its answer arriving at the response_url, with a fixed
 *   number of commands in flight (each lane sends its next command once the answer came); the
 *   first wave after start (one command per lane) is reported apart from the measured ones;
 * - the bot process's RSS at ready and its peak while answering (/proc, Linux only).
 * dist/ must be built from the current src/ (bench/run.ts builds it first). The database: a
 * SQLite file, or the postgres:// URL given as the first argument (reset between starts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { createSandbox } from '../src/sandbox/index.js';
import { createFakeSlack } from '../test/rig/fake-slack.js';
import { triggerId } from '../test/rig/ids.js';
import { FORM_CONTENT_TYPE, slashCommandBody } from '../test/rig/payloads.js';
import { createResponseUrls } from '../test/rig/response-url.js';
import { signRequest } from '../test/rig/sign.js';
import { ALICE, BOT_TOKEN, OPS_CHANNEL, SIGNING_SECRET } from '../test/rig/workspace.js';
import { startFlags } from './lib/start-flags.js';
import { runAsSection } from './lib/section.js';
import { summarize, type Summary } from './lib/stats.js';

export interface StartReadyResult {
  store: 'sqlite' | 'postgres';
  nodeFlags: string[];
  starts: number;
  /** spawn → first 200 from /readyz, ms, per start. */
  readyMs: number[];
  readyRssMb: number[];
  /** The measured commands, after the first wave. */
  answers: { commands: number; concurrency: number; cloudLatencyMs: number; answered: number; slowNotices: number; ms: Summary; rssPeakMb: number };
  /** The first wave after start (one command per lane), measured apart: V8 compiles the code paths it takes. */
  firstWave: { commands: number; answered: number; ms: Summary };
  wallMs: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STARTS = 3;
const COMMANDS = 300;
/** The first wave after start: one command per lane, before the measured ones. */
const FIRST_WAVE = 50;
const CONCURRENCY = 50;
const CLOUD_LATENCY_MS = 1000;
const TOKEN = 'start-ready-token';
const READS = ['account usage', 'server status 101', 'plan list'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) / 1024;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

async function resetPostgres(url: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
  await client.end();
}

async function runStartReady(postgresUrl?: string): Promise<StartReadyResult> {
  const wall = performance.now();
  const flags = startFlags();
  const slack = await createFakeSlack();
  const responses = await createResponseUrls();
  const sandbox = createSandbox({ token: TOKEN });
  const cloud = await sandbox.listen();
  const dirs: string[] = [];
  let bot: ChildProcess | undefined;
  const readyMs: number[] = [];
  const readyRssMb: number[] = [];
  try {
    let port = 0;
    for (let i = 0; i < STARTS; i++) {
      if (postgresUrl) await resetPostgres(postgresUrl);
      const dir = mkdtempSync(join(tmpdir(), 'cloudbot-start-'));
      dirs.push(dir);
      port = await freePort();
      const t0 = performance.now();
      bot = spawn(process.execPath, [...flags, join(ROOT, 'dist/main.js')], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          SLACK_MODE: 'http',
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_SIGNING_SECRET: SIGNING_SECRET,
          SLACK_API_URL: slack.url,
          PORT: String(port),
          CLOUD_API_BASE_URL: cloud.baseUrl,
          CLOUD_API_TOKEN: TOKEN,
          DATABASE_URL: postgresUrl ?? `sqlite:${join(dir, 'cloudbot.db')}`,
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const exited = new Promise<void>((resolve) => bot!.once('exit', () => resolve()));
      for (;;) {
        if (bot.exitCode !== null) throw new Error(`the bot exited with ${bot.exitCode} before it was ready`);
        if (performance.now() - t0 > 20_000) throw new Error('the bot was not ready within 20 s');
        const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.status === 200, () => false);
        if (ok) break;
        await sleep(5);
      }
      readyMs.push(performance.now() - t0);
      readyRssMb.push(rssMb(bot.pid!));
      if (i < STARTS - 1) {
        bot.kill('SIGTERM');
        await exited;
      }
    }

    // Time to answer, on the last start's bot.
    sandbox.setLatency(CLOUD_LATENCY_MS);
    const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONCURRENCY, pipelining: 1 });
    const ms: number[] = [];
    const firstMs: number[] = [];
    let next = 0;
    let rssPeakMb = 0;
    const sampler = setInterval(() => (rssPeakMb = Math.max(rssPeakMb, rssMb(bot!.pid!))), 50);
    const lane = async () => {
      while (next < FIRST_WAVE + COMMANDS) {
        const i = next++;
        const responseUrl = responses.next();
        const body = slashCommandBody({ text: READS[i % READS.length]!, userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl, triggerId: triggerId() });
        const sent = Date.now();
        const res = await pool.request({
          path: '/slack/events',
          method: 'POST',
          headers: { 'content-type': FORM_CONTENT_TYPE, ...signRequest(body, { signingSecret: SIGNING_SECRET }) },
          body,
        });
        await res.body.dump();
        const limit = sent + 15_000;
        for (;;) {
          const posts = responses.postsTo(responseUrl);
          const answer = posts.find((p) => !String(p.body.text ?? '').includes('the cloud is slow to answer'));
          if (answer) {
            (i < FIRST_WAVE ? firstMs : ms).push(answer.at - sent);
            break;
          }
          if (Date.now() > limit) break;
          await sleep(5);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    clearInterval(sampler);
    const slowNotices = responses.posts.filter((p) => String(p.body.text ?? '').includes('the cloud is slow to answer')).length;
    await pool.close();
    return {
      store: postgresUrl ? 'postgres' : 'sqlite',
      nodeFlags: flags,
      starts: STARTS,
      readyMs,
      readyRssMb,
      answers: { commands: COMMANDS, concurrency: CONCURRENCY, cloudLatencyMs: CLOUD_LATENCY_MS, answered: ms.length, slowNotices, ms: summarize(ms), rssPeakMb },
      firstWave: { commands: FIRST_WAVE, answered: firstMs.length, ms: summarize(firstMs) },
      wallMs: performance.now() - wall,
    };
  } finally {
    if (bot && bot.exitCode === null) {
      const gone = new Promise((r) => bot!.once('exit', r));
      bot.kill('SIGTERM');
      await gone;
    }
    await cloud.close();
    await slack.close();
    await responses.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

runAsSection(import.meta.url, () => runStartReady(process.argv[2]));
