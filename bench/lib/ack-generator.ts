/**
 * The load generator of the ack-latency section: plays Slack's servers posting signed `/cloud`
 * commands, `concurrency` in flight, and times each ack (request sent → response status).
 *
 * In the reference layout it runs as a process of its own (issue 15: "the load generator in its
 * own process"), apart from the fake Slack and the sandbox cloud as well as from the apps: the
 * bot's answers keep the fake Slack and the cloud busy, and a generator sharing their event loop
 * would time its acks late (its loop p99 was 17 ms in bot rounds against 2.5 ms in bare rounds),
 * charging the world's work to the bot. In the comparison layout it runs inline.
 *
 * Protocol as a process (IPC): → { id, type: 'lanes', …LaneRequest } ← { id, result: LaneResult }
 *                             → { id, type: 'close' }                 ← { id }
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { triggerId } from '../../test/rig/ids.js';
import { FORM_CONTENT_TYPE, slashCommandBody } from '../../test/rig/payloads.js';
import { signRequest } from '../../test/rig/sign.js';
import { ALICE, OPS_CHANNEL, SIGNING_SECRET } from '../../test/rig/workspace.js';
import { isMain, sibling } from './section.js';

/** The mix: three reads answered through response_url, three changes that open a form. */
export const COMMANDS = [
  { text: 'account usage', kind: 'read' },
  { text: 'server reinstall 101', kind: 'modal' },
  { text: 'server status 101', kind: 'read' },
  { text: 'ip reserve', kind: 'modal' },
  { text: 'plan list', kind: 'read' },
  { text: 'worker deploy', kind: 'modal' },
] as const;

export interface LaneRequest {
  url: string;
  total: number;
  concurrency: number;
  timeLimitMs: number;
  /** One response_url per command, issued by the response_url endpoints beforehand. */
  responseUrls: string[];
}

export interface LaneResult {
  /** Request sent → response status received, ms, in send order (NaN: not sent or failed). */
  ackMs: number[];
  kinds: ('read' | 'modal')[];
  /** Wall-clock send time by response_url (reads) and trigger id (forms), for time to answer. */
  sentAt: [string, number][];
  non200: number;
  transportErrors: number;
  sendWallMs: number;
  /** This process's own event-loop delay while sending, ms late. */
  generatorLoopP99Ms: number;
}

export interface Generator {
  run(req: LaneRequest): Promise<LaneResult>;
  close(): Promise<void>;
}

const LOOP_RESOLUTION_MS = 10;

export function createGenerator(): Generator {
  const pools = new Map<string, Pool>();
  function poolFor(url: string, connections: number): Pool {
    const origin = new URL(url).origin;
    let pool = pools.get(origin);
    if (!pool) pools.set(origin, (pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 })));
    return pool;
  }

  async function run(req: LaneRequest): Promise<LaneResult> {
    (globalThis as { gc?: () => void }).gc?.();
    const pool = poolFor(req.url, req.concurrency);
    const path = new URL(req.url).pathname;
    const deadline = performance.now() + req.timeLimitMs;
    const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loop.enable();
    const ackMs = new Array<number>(req.total).fill(Number.NaN);
    const kinds: ('read' | 'modal')[] = [];
    const sentAt: [string, number][] = [];
    let non200 = 0;
    let transportErrors = 0;
    let next = 0;
    const sendStart = performance.now();
    const lane = async () => {
      while (next < req.total && performance.now() < deadline) {
        const i = next++;
        const command = COMMANDS[i % COMMANDS.length]!;
        kinds[i] = command.kind;
        const responseUrl = req.responseUrls[i]!;
        // A fresh trigger (3 s to use) and signature per request, made just before it is sent.
        const trigger = triggerId();
        const body = slashCommandBody({ text: command.text, userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl, triggerId: trigger });
        sentAt.push([command.kind === 'read' ? responseUrl : trigger, Date.now()]);
        const headers = {
          'content-type': FORM_CONTENT_TYPE,
          'user-agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
          ...signRequest(body, { signingSecret: SIGNING_SECRET }),
        };
        const t0 = performance.now();
        try {
          const res = await pool.request({ path, method: 'POST', headers, body, headersTimeout: 10_000, bodyTimeout: 10_000 });
          ackMs[i] = performance.now() - t0;
          if (res.statusCode !== 200) non200++;
          await res.body.dump();
        } catch {
          transportErrors++;
        }
      }
    };
    await Promise.all(Array.from({ length: req.concurrency }, lane));
    const sendWallMs = performance.now() - sendStart;
    loop.disable();
    return { ackMs, kinds, sentAt, non200, transportErrors, sendWallMs, generatorLoopP99Ms: Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS) };
  }

  return {
    run,
    close: async () => {
      for (const pool of pools.values()) await pool.close();
    },
  };
}

/** The generator in a process of its own, driven over IPC; `cpus` (taskset's list) widens a pinned parent's affinity again. */
export async function startGeneratorProcess(execArgv: string[], cpus?: string): Promise<Generator> {
  const script = fileURLToPath(sibling('./ack-generator.ts', import.meta.url));
  const child: ChildProcess = cpus
    ? spawn('/usr/bin/taskset', ['-c', cpus, process.execPath, ...execArgv, script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
    : fork(script, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const pending = new Map<number, (m: { result?: LaneResult; error?: string }) => void>();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('message', (m: { id: number; result?: LaneResult; error?: string }) => {
    pending.get(m.id)?.(m);
    pending.delete(m.id);
  });
  let seq = 0;
  const ask = (msg: Record<string, unknown>) =>
    new Promise<{ result?: LaneResult }>((resolve, reject) => {
      const id = ++seq;
      pending.set(id, (m) => (m.error ? reject(new Error(m.error)) : resolve(m)));
      child.send({ ...msg, id });
    });
  return {
    run: async (req) => (await ask({ type: 'lanes', ...req })).result!,
    close: async () => {
      await ask({ type: 'close' });
      await exited;
    },
  };
}

if (isMain(import.meta.url)) {
  const generator = createGenerator();
  process.on('message', (m: (LaneRequest & { id: number; type: 'lanes' }) | { id: number; type: 'close' }) => {
    if (m.type === 'lanes') {
      generator.run(m).then(
        (result) => process.send?.({ id: m.id, result }),
        (e: unknown) => process.send?.({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      );
      return;
    }
    void generator.close().then(() => process.send?.({ id: m.id }, () => process.exit(0)));
  });
  process.on('disconnect', () => process.exit(0));
}
