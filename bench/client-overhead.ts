/**
 * Client overhead: 10,000 GET /account/usage through the cloud client (URL building, headers,
 * retries' bookkeeping, JSON parsing, envelope + schema validation, error scrubbing) against
 * 10,000 raw undici `request`s that read the same body and JSON.parse it, each on its own Agent with the
 * same options, 10 in flight, against the same local server (a separate process that always
 * answers the same body). Warm-up first; then alternating batches so drift hits both alike.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { createCloudClient } from '../src/cloud/client.js';
import { createState } from '../src/sandbox/seed.js';
import { usageView } from '../src/sandbox/views.js';
import { runAsSection } from './lib/section.js';
import { runBounded } from './lib/stats.js';

export interface ClientOverheadResult {
  requests: number;
  concurrency: number;
  batches: number;
  client: { totalMs: number; perRequestUs: number; cpuUs: number };
  raw: { totalMs: number; perRequestUs: number; cpuUs: number };
  /** client / raw, wall time. */
  ratio: number;
  /** client / raw, CPU time of this (client) process. */
  cpuRatio: number;
  errors: number;
  bodyBytes: number;
  wallMs: number;
}

const TOKEN = 'bench-token-0123456789abcdef';
const TOTAL = 10_000;
const CONCURRENCY = 10;
const BATCHES = 5;
const WARMUP = 1_000;
const TIME_LIMIT_MS = 35_000;

const agentOptions = () => new Agent({ connect: { timeout: 5000 }, headersTimeout: 20_000, bodyTimeout: 20_000, connections: CONCURRENCY });

async function startServer(body: string) {
  const child = fork(fileURLToPath(new URL('./lib/fixed-server.ts', import.meta.url)), [], {
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`fixed server exited (${code})`)));
    child.send({ body });
  });
  return { port, stop: () => void child.kill() };
}

export async function runClientOverhead(): Promise<ClientOverheadResult> {
  const started = performance.now();
  const deadline = started + TIME_LIMIT_MS;
  const body = JSON.stringify({ data: usageView(createState(Date.now(), true)) });
  const server = await startServer(body);
  const baseUrl = `http://127.0.0.1:${server.port}/v2`;
  const clientAgent = agentOptions();
  const rawAgent = agentOptions();
  const cloud = createCloudClient({ baseUrl, token: TOKEN, dispatcher: clientAgent });
  const headers = { authorization: `Bearer ${TOKEN}`, accept: 'application/json', 'user-agent': 'cloudbot/0.1 (+undici)' };
  const url = `${baseUrl}/account/usage`;
  let errors = 0;

  const viaClient = async () => {
    try {
      const usage = await cloud.account.usage();
      if (typeof usage !== 'object') errors++;
    } catch {
      errors++;
    }
  };
  const viaRaw = async () => {
    try {
      const res = await request(url, { dispatcher: rawAgent, method: 'GET', headers });
      const parsed = JSON.parse(await res.body.text()) as { data?: unknown };
      if (res.statusCode !== 200 || typeof parsed.data !== 'object') errors++;
    } catch {
      errors++;
    }
  };

  // Warm-up: connections open, JIT warm, for both.
  await runBounded(WARMUP, CONCURRENCY, deadline, viaClient);
  await runBounded(WARMUP, CONCURRENCY, deadline, viaRaw);
  errors = 0;

  const totals = { client: { ms: 0, cpu: 0, n: 0 }, raw: { ms: 0, cpu: 0, n: 0 } };
  const batch = TOTAL / BATCHES;
  const measure = async (which: 'client' | 'raw') => {
    const fn = which === 'client' ? viaClient : viaRaw;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const n = await runBounded(batch, CONCURRENCY, deadline, fn);
    const ms = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    totals[which].ms += ms;
    totals[which].cpu += cpu.user + cpu.system;
    totals[which].n += n;
  };
  for (let b = 0; b < BATCHES; b++) {
    // ABBA order: neither side always goes first.
    if (b % 2 === 0) {
      await measure('raw');
      await measure('client');
    } else {
      await measure('client');
      await measure('raw');
    }
  }

  await cloud.close();
  await clientAgent.close();
  await rawAgent.close();
  server.stop();

  const side = (t: { ms: number; cpu: number; n: number }) => ({
    totalMs: t.ms,
    perRequestUs: (t.ms * 1000) / Math.max(1, t.n),
    cpuUs: t.cpu / Math.max(1, t.n),
  });
  const client = side(totals.client);
  const raw = side(totals.raw);
  if (totals.client.n < TOTAL || totals.raw.n < TOTAL) throw new Error(`client overhead: hit the time limit (${totals.client.n}/${totals.raw.n} of ${TOTAL})`);
  return {
    requests: TOTAL,
    concurrency: CONCURRENCY,
    batches: BATCHES,
    client,
    raw,
    ratio: client.totalMs / raw.totalMs,
    cpuRatio: client.cpuUs / raw.cpuUs,
    errors,
    bodyBytes: Buffer.byteLength(body),
    wallMs: performance.now() - started,
  };
}

runAsSection(import.meta.url, runClientOverhead);
