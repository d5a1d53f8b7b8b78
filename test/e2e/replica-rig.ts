/**
 * Pieces of the replica test (replicas.test.ts): a fresh PostgreSQL database the replicas share,
 * bot processes (`node --import tsx src/main.ts`) started and SIGKILLed like real deploys, and a
 * Slack proxy per replica that can hold that replica's final posts in flight — sent on to Slack
 * with the answer lost, or lost on the way — so a kill lands exactly mid-final-post.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { listenLoopback } from '../rig/loopback.js';
import { createSlackSender, type SlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { postgresUrl } from '../store/helpers.js';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;
// The children run in a temporary folder (no stray .env), so tsx's loader is named by its full path.
const TSX = new URL('../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;

// ── the shared database ─────────────────────────────────────────────────────────────────────

export interface TestDatabase {
  /** postgres://…/<fresh database>: the DATABASE_URL every replica gets. */
  url: string;
  query<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  drop(): Promise<void>;
}

/**
 * A database of its own on the test server (TEST_DATABASE_URL or the global setup's), so the
 * bot's tables land in its default schema exactly as in production, and nothing is shared
 * with the store tests running beside it.
 */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const server = postgresUrl();
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  const admin = new pg.Pool({ connectionString: server, max: 1 });
  await admin.query(`CREATE DATABASE ${name}`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  const url = u.toString();
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  return {
    url,
    query: async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await pool.query<R>(text, values)).rows,
    async drop() {
      await pool.end();
      try {
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}

// ── Slack, as one replica reaches it ────────────────────────────────────────────────────────

/**
 * What became of a final post (a `chat.postMessage` broadcast into a thread) from one replica:
 * `passed` (posted, answered); `reached-slack` (posted, but the answer never came back);
 * `lost` (never reached Slack, never answered).
 */
export interface ProxiedFinal {
  threadTs: string;
  fate: 'passed' | 'reached-slack' | 'lost';
  /** Slack's ts for it, when it reached Slack. */
  ts: string | undefined;
}

export interface SlackProxy {
  /** SLACK_API_URL for the replica: `http://127.0.0.1:PORT/api/`. */
  url: string;
  finals: ProxiedFinal[];
  /** From now on final posts get no answer: alternately dropped (first), or sent on to Slack first. */
  holdFinals(): void;
  /** Final posts held so far. */
  held(): ProxiedFinal[];
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The params of a Web API call, form-encoded or JSON (as @slack/web-api may send either). */
function paramsOf(contentType: string, body: Buffer): Record<string, unknown> {
  const text = body.toString('utf8');
  if (contentType.includes('json')) {
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return {};
    }
  }
  return Object.fromEntries(new URLSearchParams(text));
}

/** A thread reply also broadcast to the channel: with WATCH_BROADCAST=final, only a watch's final post. */
function broadcastReplyThread(method: string, params: Record<string, unknown>): string | undefined {
  if (method !== 'chat.postMessage') return undefined;
  const broadcast = params.reply_broadcast === true || params.reply_broadcast === 'true';
  return broadcast && typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
}

export async function startSlackProxy(slackUrl: string): Promise<SlackProxy> {
  let holding = false;
  let heldCount = 0;
  const finals: ProxiedFinal[] = [];

  const forward = async (req: IncomingMessage, body: Buffer) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) {
      if (typeof v === 'string' && !['host', 'connection', 'content-length', 'keep-alive', 'transfer-encoding'].includes(k)) headers[k] = v;
    }
    const r = await fetch(new URL(req.url ?? '/', slackUrl), { method: req.method ?? 'POST', headers, body: body.length ? body : null });
    return { status: r.status, headers: r.headers, bytes: Buffer.from(await r.arrayBuffer()) };
  };
  const tsOf = (bytes: Buffer): string | undefined => {
    try {
      const ts = (JSON.parse(bytes.toString('utf8')) as { ts?: unknown }).ts;
      return typeof ts === 'string' ? ts : undefined;
    } catch {
      return undefined;
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = (req.url ?? '').split('?')[0]!.replace(/^\/api\//, '');
    const threadTs = broadcastReplyThread(method, paramsOf(String(req.headers['content-type'] ?? ''), body));
    if (threadTs && holding) {
      const fate = heldCount++ % 2 === 0 ? 'lost' : 'reached-slack';
      const entry: ProxiedFinal = { threadTs, fate, ts: undefined };
      finals.push(entry);
      if (fate === 'reached-slack') entry.ts = tsOf((await forward(req, body)).bytes);
      return; // never answered: the request stays open until the replica gives up or dies
    }
    const answer = await forward(req, body);
    if (threadTs) finals.push({ threadTs, fate: 'passed', ts: tsOf(answer.bytes) });
    const headers: Record<string, string> = { 'content-type': answer.headers.get('content-type') ?? 'application/json' };
    const retryAfter = answer.headers.get('retry-after');
    if (retryAfter) headers['retry-after'] = retryAfter;
    res.writeHead(answer.status, headers);
    res.end(answer.bytes);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  const loop = await listenLoopback(server);
  return {
    url: `${loop.origin}/api/`,
    finals,
    holdFinals: () => void (holding = true),
    held: () => finals.filter((f) => f.fate !== 'passed'),
    close: () => loop.close(),
  };
}

// ── bot processes ───────────────────────────────────────────────────────────────────────────

export interface Replica {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the signal (or exit code) the process ended with. */
  exited: Promise<NodeJS.Signals | number | null>;
  eventsUrl: string;
  send: SlackSender;
  /** Its name in the watches' leases (`lease_owner`), from its start-up log. */
  leaseOwner: string;
  proxy: SlackProxy;
}

/** Starts `src/main.ts` in HTTP mode on port 0 and waits until it serves Slack and watches. */
export async function startReplica(name: string, env: Record<string, string>, proxy: SlackProxy, timeoutMs = 30_000): Promise<Replica> {
  const dir = mkdtempSync(join(tmpdir(), `cloudbot-${name}-`));
  const child = spawn(process.execPath, ['--import', TSX, MAIN], {
    env: { PATH: process.env.PATH ?? '', ...env, SLACK_API_URL: proxy.url, PORT: '0', SLACK_MODE: 'http' },
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      rmSync(dir, { recursive: true, force: true });
      resolve(signal ?? code);
    }),
  );
  const started = () => {
    if (child.exitCode !== null) throw new Error(`replica ${name} exited with ${child.exitCode}:\n${out}`);
    const port = /listening for Slack on :(\d+)/.exec(out)?.[1];
    const owner = /"msg":"watching with leases"[^\n]*"replica":"([^"]+)"/.exec(out)?.[1];
    return port && owner ? { port, owner } : undefined;
  };
  const { port, owner } = await waitFor(started, { timeoutMs, intervalMs: 50 }).catch((e: unknown) => {
    child.kill('SIGKILL');
    throw new Error(`replica ${name} did not start: ${out}`, { cause: e });
  });
  const eventsUrl = `http://127.0.0.1:${port}/slack/events`;
  return { name, child, output: () => out, exited, eventsUrl, send: createSlackSender(eventsUrl), leaseOwner: owner, proxy };
}

/** Runs `tasks` with at most `limit` in flight, keeping their order in the results. */
export async function inBatches<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
