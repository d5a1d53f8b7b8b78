/**
 * "Slack and the cloud" for the ack-latency section: the rig's fake Slack Web API, its
 * response_url endpoints, the sandbox cloud answering after 1 s, and the load generator that
 * plays Slack's servers posting signed slash commands. Two layouts (see bench/ack-latency.ts):
 *
 * - separate (the reference): this module runs as a process of its own, so nothing of
 *   this side's CPU is on the apps' event loop (on a 2-core machine: one core for the apps, one
 *   for everything around them);
 * - same (for comparison, not the target): ack-latency.ts calls `createAckWorld()` in the apps'
 *   own process, as the e2e rig runs the fake Slack and the sandbox beside the bot.
 *
 * Protocol when run as a process (IPC, one request at a time):
 *   → { id, type: 'round', url, total, concurrency, drain }  ← { id, round: RoundResult }
 *   → { id, type: 'close' }                                   ← { id }
 * and first, unasked: ← { ready: true, slackUrl, cloudBaseUrl, cloudToken }.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool } from 'undici';
import { createSandbox } from '../../src/sandbox/index.js';
import { createFakeSlack } from '../../test/rig/fake-slack.js';
import { triggerId } from '../../test/rig/ids.js';
import { FORM_CONTENT_TYPE, slashCommandBody } from '../../test/rig/payloads.js';
import { createResponseUrls } from '../../test/rig/response-url.js';
import { signRequest } from '../../test/rig/sign.js';
import { ALICE, OPS_CHANNEL, SIGNING_SECRET } from '../../test/rig/workspace.js';
import { isMain } from './section.js';

/** The mix: three reads answered through response_url, three changes that open a form. */
export const COMMANDS = [
  { text: 'account usage', kind: 'read' },
  { text: 'server reinstall 101', kind: 'modal' },
  { text: 'server status 101', kind: 'read' },
  { text: 'ip reserve', kind: 'modal' },
  { text: 'plan list', kind: 'read' },
  { text: 'worker deploy', kind: 'modal' },
] as const;

export interface RoundRequest {
  id: number;
  type: 'round';
  url: string;
  total: number;
  concurrency: number;
  /** Wait until every command was answered (the real bot), and check the answers. */
  drain: boolean;
  timeLimitMs: number;
}

/** What the people behind one round's commands would have seen. */
export interface AnswerCounts {
  reads: number;
  readsAnswered: number;
  readsFailed: number;
  slowNotices: number;
  modals: number;
  viewsOpened: number;
  viewsFilled: number;
  viewErrors: Record<string, number>;
  responseUrlRefusals: number;
  blockKitViolations: number;
}

export interface RoundResult {
  /** Request sent → response status received, ms, in send order. */
  ackMs: number[];
  kinds: ('read' | 'modal')[];
  non200: number;
  transportErrors: number;
  sendWallMs: number;
  /** Only when drained: what the person would have seen. */
  answers?: AnswerCounts & { drainMs: number; drained: boolean; answerMs: number[] };
  /** This (load-generating) process's own event-loop delay during the round, ms late. */
  generatorLoopP99Ms: number;
}

const TOKEN = 'cloud-token-bench-0123456789';
const LOOP_RESOLUTION_MS = 10;
/** How long after the sending deadline a round may wait for the bot's answers. */
const DRAIN_LIMIT_MS = 10_000;
const isSlowNotice = (text: unknown) => typeof text === 'string' && text.includes('the cloud is slow to answer');
const isFailure = (text: unknown) => typeof text === 'string' && /:warning:|:x:|went wrong|could not/i.test(text);

export interface AckWorld {
  slackUrl: string;
  cloudBaseUrl: string;
  cloudToken: string;
  round(req: Omit<RoundRequest, 'id' | 'type'>): Promise<RoundResult>;
  close(): Promise<void>;
}

/** Starts the fake Slack, the response_url endpoints and the sandbox cloud in this process. */
export async function createAckWorld(): Promise<AckWorld> {
  const slack = await createFakeSlack();
  const responses = await createResponseUrls();
  const sandbox = createSandbox({ token: TOKEN });
  const cloud = await sandbox.listen();
  sandbox.setLatency(1000);
  const pools = new Map<string, Pool>();

  function poolFor(url: string, connections: number): Pool {
    const origin = new URL(url).origin;
    let pool = pools.get(origin);
    if (!pool) pools.set(origin, (pool = new Pool(origin, { connections, pipelining: 1, keepAliveTimeout: 60_000 })));
    return pool;
  }

  async function round(req: Omit<RoundRequest, 'id' | 'type'>): Promise<RoundResult> {
    (globalThis as { gc?: () => void }).gc?.();
    const pool = poolFor(req.url, req.concurrency);
    const path = new URL(req.url).pathname;
    const deadline = performance.now() + req.timeLimitMs;
    const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
    loop.enable();
    const ackMs: number[] = new Array<number>(req.total).fill(Number.NaN);
    const kinds: ('read' | 'modal')[] = [];
    const readUrls: string[] = [];
    /** Wall-clock send time (the rigs' `at` clock) by response_url (reads) and trigger id (forms). */
    const sentAt = new Map<string, number>();
    let modals = 0;
    let non200 = 0;
    let transportErrors = 0;
    const callsBefore = slack.calls.length;
    const postsBefore = responses.posts.length;
    const violationsBefore = slack.violations.length + responses.violations.length;

    let next = 0;
    const sendStart = performance.now();
    const lane = async () => {
      while (next < req.total && performance.now() < deadline) {
        const i = next++;
        const command = COMMANDS[i % COMMANDS.length]!;
        kinds[i] = command.kind;
        const responseUrl = responses.next();
        if (command.kind === 'read') readUrls.push(responseUrl);
        else modals++;
        // A fresh trigger (3 s to use) and signature per request, made just before it is sent.
        const trigger = triggerId();
        const body = slashCommandBody({ text: command.text, userId: ALICE.id, channelId: OPS_CHANNEL.id, responseUrl, triggerId: trigger });
        sentAt.set(command.kind === 'read' ? responseUrl : trigger, Date.now());
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
    const result: RoundResult = { ackMs, kinds, non200, transportErrors, sendWallMs, generatorLoopP99Ms: 0 };

    if (req.drain) {
      const drainStart = performance.now();
      const viewCalls = (method: string) => slack.calls.slice(callsBefore).filter((c) => c.method === method);
      // Incremental: the answered set grows as posts arrive; a check never rescans old posts.
      const answeredUrls = new Set<string>();
      const pending = new Set(readUrls);
      let seenPosts = postsBefore;
      let seenCalls = callsBefore;
      let filled = 0;
      let drained = false;
      while (performance.now() < deadline + DRAIN_LIMIT_MS) {
        for (; seenPosts < responses.posts.length; seenPosts++) {
          const p = responses.posts[seenPosts]!;
          if (p.status === 200 && !isSlowNotice(p.body.text) && pending.has(p.url)) answeredUrls.add(p.url);
        }
        for (; seenCalls < slack.calls.length; seenCalls++) if (slack.calls[seenCalls]!.method === 'views.update') filled++;
        if (answeredUrls.size >= pending.size && filled >= modals) {
          drained = true;
          break;
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      const opened = viewCalls('views.open');
      const updated = viewCalls('views.update');
      const viewErrors: Record<string, number> = {};
      for (const c of [...opened, ...updated]) {
        if (c.response.ok) continue;
        const code = String(c.response.error);
        viewErrors[code] = (viewErrors[code] ?? 0) + 1;
      }
      const lastAnswer = new Map<string, (typeof responses.posts)[number]>();
      for (const p of responses.posts.slice(postsBefore)) if (p.status === 200 && !isSlowNotice(p.body.text)) lastAnswer.set(p.url, p);
      const finals = readUrls.map((u) => lastAnswer.get(u));
      // Time to answer: command sent → the read's final response_url post, or the form filled (views.update).
      const answerMs: number[] = [];
      for (const u of readUrls) {
        const p = lastAnswer.get(u);
        if (p) answerMs.push(p.at - sentAt.get(u)!);
      }
      const triggerOfView = new Map<string, string>();
      for (const c of opened) {
        const id = (c.response as { view?: { id?: unknown } }).view?.id;
        if (c.response.ok && typeof id === 'string' && typeof c.params.trigger_id === 'string') triggerOfView.set(id, c.params.trigger_id);
      }
      for (const c of updated) {
        const trigger = c.response.ok && typeof c.params.view_id === 'string' ? triggerOfView.get(c.params.view_id) : undefined;
        const t0 = trigger === undefined ? undefined : sentAt.get(trigger);
        if (t0 !== undefined) answerMs.push(c.at - t0);
      }
      result.answers = {
        reads: readUrls.length,
        readsAnswered: finals.filter((p) => p !== undefined).length,
        readsFailed: finals.filter((p) => p !== undefined && isFailure(JSON.stringify(p.body))).length,
        slowNotices: responses.posts.slice(postsBefore).filter((p) => isSlowNotice(p.body.text)).length,
        modals,
        viewsOpened: opened.filter((c) => c.response.ok).length,
        // A form whose choices loaded (not the "could not read the choices" notice).
        viewsFilled: updated.filter((c) => c.response.ok && !JSON.stringify(c.params.view ?? '').includes('Could not read the choices')).length,
        viewErrors,
        responseUrlRefusals: responses.posts.slice(postsBefore).filter((p) => p.status !== 200).length,
        blockKitViolations: slack.violations.length + responses.violations.length - violationsBefore,
        drainMs: performance.now() - drainStart,
        drained,
        answerMs,
      };
    }
    loop.disable();
    result.generatorLoopP99Ms = Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS);
    return result;
  }

  return {
    slackUrl: slack.url,
    cloudBaseUrl: cloud.baseUrl,
    cloudToken: TOKEN,
    round,
    close: async () => {
      for (const pool of pools.values()) await pool.close();
      await cloud.close();
      await slack.close();
      await responses.close();
    },
  };
}

if (isMain(import.meta.url)) {
  const world = await createAckWorld();
  process.on('message', (m: RoundRequest | { id: number; type: 'close' }) => {
    if (m.type === 'round') {
      world.round(m).then(
        (r) => process.send?.({ id: m.id, round: r }),
        (e: unknown) => process.send?.({ id: m.id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
      );
      return;
    }
    void world.close().then(() => process.send?.({ id: m.id }, () => process.exit(0)));
  });
  process.on('disconnect', () => process.exit(0));
  process.send?.({ ready: true, slackUrl: world.slackUrl, cloudBaseUrl: world.cloudBaseUrl, cloudToken: world.cloudToken });
}

