/**
 * Helpers for the alert tests (issue 13): the sandbox's control API (a change "from the
 * panel"), the monitor driven by the rig's clock, its polls told apart from commands' reads,
 * and clicks on an alert's buttons whose private answers come back through response_url.
 */
import { blockActionsPayload } from '../rig/payloads.js';
import type { ResponseUrlPost } from '../rig/response-url.js';
import type { FakeMessage } from '../rig/fake-slack.js';
import { waitFor } from '../rig/wait-for.js';
import { OPS_CHANNEL } from '../rig/workspace.js';
import { CLOUD_TOKEN, visibleText, WATCHER_AGENT, type BotRig } from './bot-rig.js';

/** What the monitor asked the cloud for: requests with the watcher's User-Agent, by path. */
/** The monitor as the alert suites run it: a pass a minute, ticked by hand, held for two polls. */
export const INTERVAL = 60_000;
export const RECHECK = 1000;
export const MONITOR = { intervalMs: INTERVAL, holdPolls: 2, monitorLoop: false, monitorRecheckMs: RECHECK, postSpacingMs: 0 } as const;
/** Server 101's status endpoint, and how its powered-off alert reads. */
export const STATUS = '/servers/101/status';
export const OFF = /Server `101` is powered off/;

export const monitorPolls = (rig: BotRig, path: string | RegExp, from = 0) =>
  rig.sandbox.requests.slice(from).filter((r) => r.userAgent === WATCHER_AGENT && (typeof path === 'string' ? r.path === path : path.test(r.path)));

/** Powers a server on or off through the sandbox's control API, as the provider's panel would. */
export async function powerFromPanel(rig: BotRig, server: string | number, state: 'on' | 'off'): Promise<void> {
  const res = await fetch(`${rig.cloudUrl.replace(/\/v2$/, '')}/__sandbox/servers/${server}/power`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CLOUD_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ state }),
  });
  if (res.status !== 200) throw new Error(`power ${state}: ${res.status} ${await res.text()}`);
}

/** Moves the rig's JumpClock on by `ms`, then runs one monitor pass. */
export async function after(rig: BotRig, ms: number): Promise<void> {
  if (!rig.clock.jump) throw new Error('the rig needs a JumpClock');
  rig.clock.jump(ms);
  await rig.bot.monitor.tick(); await rig.bot.monitor.idle();
}

/** Sets the rig's JumpClock to `at` (epoch ms; forward only). */
export function setClock(rig: BotRig, at: number): void {
  const by = at - rig.clock.now();
  if (by < 0) throw new Error('the clock only moves forward');
  rig.clock.jump!(by);
}

/** Top-level messages the bot posted in a channel whose text matches. */
export const postedIn = (rig: BotRig, channel: string, match: RegExp) =>
  rig.slack.messages.inChannel(channel).filter((m) => match.test(visibleText({ text: m.text, blocks: m.blocks })));

/** The action ids of a message's alert buttons (`alert_run:0`, `alert_snooze:1`, …) with their labels. */
export function alertButtons(m: FakeMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.type === 'button' && typeof o.action_id === 'string' && /^alert_/.test(o.action_id)) out[(o.text as { text: string }).text] = o.action_id;
      else Object.values(o).forEach(walk);
    }
  };
  walk(m.blocks ?? []);
  return out;
}

/** Clicks an alert's button as `userId`; resolves with the private answer(s) once one that is not the slow notice came. */
export async function clickAlert(rig: BotRig, m: FakeMessage, actionId: string, userId: string): Promise<{ posts: ResponseUrlPost[]; shown: string; from: number }> {
  const responseUrl = rig.responses.next();
  const from = rig.sandbox.requests.length;
  await rig.send.interaction(blockActionsPayload({ actionId, message: m, userId, channelId: m.channel, responseUrl }));
  const slow = (p: ResponseUrlPost) => typeof p.body.text === 'string' && p.body.text.includes('the cloud is slow to answer');
  const posts = await waitFor(() => (rig.responses.postsTo(responseUrl).some((p) => !slow(p)) ? rig.responses.postsTo(responseUrl) : undefined), { timeoutMs: 5000 });
  return { posts, shown: visibleText(posts.at(-1)!.body), from };
}

/** One monitor pass, run to its end (these rigs tick the monitor by hand: `monitorLoop: false`). */
export async function monitorPass(rig: BotRig): Promise<void> {
  await rig.bot.monitor.tick();
  await rig.bot.monitor.idle();
}

/** Server 101's "powered off" alerts posted in the ops channel. */
export const offAlerts = (rig: BotRig) => postedIn(rig, OPS_CHANNEL.id, OFF);

/** The store busy for one call: `target[method]` throws "database is locked" once, then works as before. */
export function failOnce<T extends object>(target: T, method: keyof T & string): void {
  const real = (target[method] as (...args: unknown[]) => Promise<unknown>).bind(target);
  let failed = false;
  (target as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    if (failed) return real(...args);
    failed = true;
    throw new Error('database is locked');
  };
}
