/**
 * The hostile-output tours' rig and checks (used by hostile-output.test.ts and
 * hostile-output-unescaped.test.ts): the bot started with an audit channel, what the bot may
 * write (the checker's allow-list), the findings and reach since a mark, and a brief
 * `fc.assert`. Seeding: hostile-seed.ts; driving: hostile-run.ts; the tours:
 * hostile-cloud-tour.ts and hostile-typed-tour.ts.
 */
import fc from 'fast-check';
import type { SandboxState } from '../../src/sandbox/index.js';
import { workerFqdn } from '../../src/sandbox/views.js';
import { HOSTILE_MARKER } from '../rig/hostile-strings.js';
import { checkSlackOutput, type AbuseAllow, type Finding } from '../rig/mrkdwn-abuse-checker.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { startBotRig, type BotRig } from './bot-rig.js';
import { HOSTILE_MONITOR } from './hostile-subscriptions.js';

export const AUDIT_CHANNEL: FakeChannel = { id: 'CAUDIT0001', name: 'cloud-audit', botIsMember: true };
const BUILD_MS = 400;

export function startHostileRig(): Promise<BotRig> {
  return startBotRig({
    auditChannel: AUDIT_CHANNEL.id,
    extraChannels: [AUDIT_CHANNEL],
    sandbox: { buildMs: BUILD_MS, reinstallMs: BUILD_MS },
    watch: { intervalMs: 60 },
    slowNoticeMs: 5000,
    cloudRetry: { budgetMs: 300, maxAttempts: 1 },
    monitor: HOSTILE_MONITOR,
  });
}

// ── what the bot may write ──────────────────────────────────────────────────────────────────

const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/i;

/**
 * Mentions of the actors this tour uses, the ops and audit channels, and links to
 * https:// + a worker fqdn the sandbox reports, when that fqdn is a plain DNS name.
 */
export function allowFor(state: SandboxState): AbuseAllow {
  // The URL parser lowercases the host, so the allowed targets are lowercased too.
  const hosts = state.workers.map((w) => w.fqdnOverride ?? workerFqdn(w)).filter((h) => DNS_NAME.test(h)).map((h) => h.toLowerCase());
  const urls = new Set(hosts.flatMap((h) => [`https://${h}`, `https://${h}/`]));
  return { users: [ALICE.id, BOB.id, CAROL.id], channels: [OPS_CHANNEL.id, AUDIT_CHANNEL.id], url: (u) => urls.has(u), marker: HOSTILE_MARKER };
}

/** Findings in everything the bot sent to Slack since `mark` (see `outputMark`). */
export function findingsSince(rig: BotRig, mark: { calls: number; posts: number }): Finding[] {
  return checkSlackOutput(rig.slack.calls.slice(mark.calls), rig.responses.posts.slice(mark.posts), allowFor(rig.sandbox.state));
}

export const outputMark = (rig: BotRig) => ({ calls: rig.slack.calls.length, posts: rig.responses.posts.length });

/** One line per finding, deduplicated by rule and place, for a readable failure. */
export const summarize = (found: Finding[]) => [...new Set(found.map((f) => `${f.rule} @ ${f.where.replace(/#\d+/, '')}: ${f.excerpt.slice(0, 90)}`))];

// ── where hostile text reached, and a brief property runner ───────────────────────────────

/**
 * Where hostile text was shown since `mark`, by kind of output: proof that the tour put it in
 * front of people (a view that dropped every value would pass the checker vacuously).
 */
export function reach(rig: BotRig, mark: { calls: number; posts: number }): Record<string, number> {
  const has = (v: unknown) => JSON.stringify(v).includes(HOSTILE_MARKER);
  const calls = rig.slack.calls.slice(mark.calls).filter((c) => c.response.ok && has(c.params));
  const kind = (c: (typeof calls)[number]) => {
    if (c.method.startsWith('views.')) return 'modal';
    if (c.method === 'chat.unfurl') return 'unfurl';
    if (c.method === 'chat.postEphemeral') return 'ephemeral';
    if (c.params.channel === AUDIT_CHANNEL.id) return 'audit channel';
    if (c.params.reply_broadcast === true || c.params.reply_broadcast === 'true') return 'final broadcast';
    if (c.params.thread_ts) return 'thread reply';
    return c.method === 'chat.update' ? 'status edit' : 'channel post';
  };
  const counts: Record<string, number> = { 'response_url': rig.responses.posts.slice(mark.posts).filter((p) => has(p.body)).length };
  for (const c of calls) counts[kind(c)] = (counts[kind(c)] ?? 0) + 1;
  return counts;
}

/**
 * `fc.assert` whose failure message keeps the seed and the first failure but cuts the
 * counterexample (5,000-character values would bury the findings).
 */
export async function assertBriefly<T>(property: fc.IAsyncProperty<T>, params: fc.Parameters<T>): Promise<void> {
  try {
    await fc.assert(property, params);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new Error(message.replace(/Counterexample: (.{0,400}).*\n/, (_m, head: string) => `Counterexample (cut): ${head}…\n`), { cause: (err as Error).cause });
  }
}
