/**
 * "Slack and the cloud" for the ack-latency section: the rig's fake Slack Web API, its
 * response_url endpoints and the sandbox cloud answering after 1 s; it drives the load
 * generator (ack-generator.ts) and checks what the bot answered. Two layouts (see
 * bench/ack-latency.ts):
 *
 * - separate (the reference): this module runs as a process of its own and the load
 *   generator in another, so nothing of this side's CPU is on the apps' event loop, and the
 *   generator's clock is not held up by the fake Slack and cloud serving the bot;
 * - same (for comparison, not the target): ack-latency.ts calls `createAckWorld()` in the apps'
 *   own process, generator inline, as the e2e rig runs the fake Slack and the sandbox beside the bot.
 *
 * Protocol when run as a process (IPC, one request at a time):
 *   → { id, type: 'round', url, total, concurrency, drain }  ← { id, round: RoundResult }
 *   → { id, type: 'close' }                                   ← { id }
 * and first, unasked: ← { ready: true, slackUrl, cloudBaseUrl, cloudToken }.
 */
import { createSandbox } from '../../src/sandbox/index.js';
import { createFakeSlack } from '../../test/rig/fake-slack.js';
import { createResponseUrls } from '../../test/rig/response-url.js';
import { COMMANDS, createGenerator, startGeneratorProcess, type Generator } from './ack-generator.js';
import { isMain } from './section.js';

export { COMMANDS };

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
  /** The load generator's own event-loop delay while sending, ms late. */
  generatorLoopP99Ms: number;
}

const TOKEN = 'cloud-token-bench-0123456789';
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
export async function createAckWorld(generatorProcess?: { execArgv: string[]; cpus?: string }): Promise<AckWorld> {
  const slack = await createFakeSlack();
  const responses = await createResponseUrls();
  const sandbox = createSandbox({ token: TOKEN });
  const cloud = await sandbox.listen();
  sandbox.setLatency(1000);
  const generator: Generator = generatorProcess ? await startGeneratorProcess(generatorProcess.execArgv, generatorProcess.cpus) : createGenerator();

  async function round(req: Omit<RoundRequest, 'id' | 'type'>): Promise<RoundResult> {
    (globalThis as { gc?: () => void }).gc?.();
    const deadline = performance.now() + req.timeLimitMs;
    const callsBefore = slack.calls.length;
    const postsBefore = responses.posts.length;
    const violationsBefore = slack.violations.length + responses.violations.length;
    // Every command carries a response_url; only the reads' are checked for answers.
    const responseUrls = Array.from({ length: req.total }, () => responses.next());
    const sent = await generator.run({ url: req.url, total: req.total, concurrency: req.concurrency, timeLimitMs: req.timeLimitMs, responseUrls });
    const { ackMs, kinds, non200, transportErrors, sendWallMs, generatorLoopP99Ms } = sent;
    const sentAt = new Map(sent.sentAt);
    const readUrls = responseUrls.filter((_, i) => kinds[i] === 'read');
    const modals = kinds.filter((k) => k === 'modal').length;
    const result: RoundResult = { ackMs, kinds, non200, transportErrors, sendWallMs, generatorLoopP99Ms };

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
    return result;
  }

  return {
    slackUrl: slack.url,
    cloudBaseUrl: cloud.baseUrl,
    cloudToken: TOKEN,
    round,
    close: async () => {
      await generator.close();
      await cloud.close();
      await slack.close();
      await responses.close();
    },
  };
}

if (isMain(import.meta.url)) {
  // As a process (the reference layout), the load generator gets a process of its own too.
  const at = process.argv.indexOf('--generator-cpus');
  const cpus = at >= 0 ? process.argv[at + 1] : undefined;
  const world = await createAckWorld({ execArgv: process.execArgv, ...(cpus ? { cpus } : {}) });
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

