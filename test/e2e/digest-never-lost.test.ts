/**
 * A day's digest is claimed before it is posted (once across restarts and replicas), so a post
 * that fails must not lose it: a post that definitely did not land (Slack answered with an
 * error, or the post queue gave up on a rate limit) is posted again at a later pass the same
 * local day; one whose outcome is unclear (no answer, a 5xx) is first looked for in the channel
 * by the metadata of the bot's own posts, never posted blind. Tries are bounded, and giving up
 * is logged. The monitor is ticked by hand over the sandbox, on the rig's clock.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DIGEST_EVENT, DIGEST_TRIES, DIGEST_TRY_LEASE_MS, digestRetryIn } from '../../src/monitor/digest.js';
import { BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { startBotRig, visibleText, type BotRig, type BotRigOptions } from './bot-rig.js';
import { after, monitorPass, postedIn, setClock, MONITOR } from './rig-alerts.js';

let rig: BotRig;
afterEach(async () => {
  await rig?.close();
  expect(rig.slack.violations).toEqual([]);
});

const DAY = 86_400_000;
const HOUR = 3_600_000;
const shown = (m: { text: string; blocks?: unknown[] }) => visibleText({ text: m.text, blocks: m.blocks });
const digests = () => postedIn(rig, OPS_CHANNEL.id, /Daily digest/);
const posts = () => rig.slack.callsTo('chat.postMessage').length;
const lookups = () => rig.slack.callsTo('conversations.history').length;
const owed = async (id: string) => (await rig.store.subscriptions.get(id))?.runOwed;
const logged = (words: string, id: string) => rig.logLines.some((l) => l.includes(words) && l.includes(id));

/**
 * A digest at `at` (UTC) subscribed the day before it is due, and the clock at that time on a
 * UTC day ahead (`day0`, its midnight); the pass that posts it is the test's to run.
 */
async function digestDue(options: BotRigOptions = {}, at = '09:00'): Promise<{ id: string; day0: number; iso: string }> {
  rig = await startBotRig({ monitor: MONITOR, ...options });
  const day0 = Math.ceil(rig.clock.now() / DAY) * DAY + DAY;
  setClock(rig, day0 - HOUR);
  const r = await rig.command(`subscribe digest --at ${at} --tz UTC`, { userId: BOB.id });
  const id = /sub_[a-z2-7]{10}/.exec(visibleText(r.final))?.[0];
  if (!id) throw new Error(`no subscription id in: ${visibleText(r.final)}`);
  const [h, m] = at.split(':').map(Number);
  setClock(rig, day0 + h! * HOUR + m! * 60_000);
  return { id, day0, iso: new Date(day0).toISOString().slice(0, 10) };
}

/**
 * A digest due a minute or two from now (the rig's clock is the wall clock until a test jumps
 * it), in a zone where it is then about noon. The fake Slack stamps messages with the wall
 * clock, and a look in the channel reads from shortly before the bot's first try: so the first
 * try is made without a jump, and its local day has hours left for the tries after it.
 */
async function digestDueNow(options: BotRigOptions = {}): Promise<{ id: string; iso: string }> {
  rig = await startBotRig({ monitor: MONITOR, ...options });
  const dueAt = Math.floor(rig.clock.now() / 60_000) * 60_000 + 2 * 60_000;
  const offset = 12 - new Date(dueAt).getUTCHours(); // hours east of UTC: -11 … 12
  const tz = offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`; // Etc/GMT-5 is UTC+5
  const local = new Date(dueAt + offset * HOUR).toISOString();
  const r = await rig.command(`subscribe digest --at ${local.slice(11, 16)} --tz ${tz}`, { userId: BOB.id });
  const id = /sub_[a-z2-7]{10}/.exec(visibleText(r.final))?.[0];
  if (!id) throw new Error(`no subscription id in: ${visibleText(r.final)}`);
  setClock(rig, dueAt);
  return { id, iso: local.slice(0, 10) };
}

describe('a digest post that definitely did not land', () => {
  it('Slack answered with an error: posted again at a later pass the same day, once, without reading the channel first', async () => {
    const { id, iso } = await digestDue();
    rig.slack.failNext('chat.postMessage', 'service_unavailable');
    await monitorPass(rig);
    expect(digests()).toEqual([]);
    expect(await owed(id)).toMatchObject({ outcome: 'failed', tries: 1 });
    expect(logged('could not post a digest', id)).toBe(true);
    // Not before its time.
    await after(rig, digestRetryIn(1) - 1000);
    expect(digests()).toEqual([]);
    expect(posts()).toBe(1);
    await after(rig, 1000);
    const [digest, ...more] = digests();
    expect(more).toEqual([]);
    expect(shown(digest!)).toContain(`Daily digest — ${iso}`);
    expect(digest!.metadata).toEqual({ event_type: DIGEST_EVENT, event_payload: { digest_run: `${id}:${iso}` } });
    expect(lookups()).toBe(0);
    expect(await owed(id)).toBeNull();
    await after(rig, HOUR);
    await after(rig, 4 * HOUR);
    expect(digests()).toHaveLength(1);
  });

  it('the post queue gave up on Slack\'s rate limit (Slack took nothing): posted again at a later pass, without reading the channel first', async () => {
    const { id } = await digestDue();
    // Every try of the client, and the queue's one more after waiting it out.
    rig.slack.rateLimitNext('chat.postMessage', 0, 6);
    await monitorPass(rig);
    expect(rig.slack.callsTo('chat.postMessage').map((c) => c.status)).toEqual([429, 429, 429, 429, 429, 429]);
    expect(await owed(id)).toMatchObject({ outcome: 'failed', tries: 1 });
    await after(rig, digestRetryIn(1));
    expect(digests()).toHaveLength(1);
    expect(lookups()).toBe(0);
    expect(await owed(id)).toBeNull();
  });

  it('Slack keeps refusing: tried a bounded number of times, then given up and logged; the next day\'s digest goes out', async () => {
    const { id, day0 } = await digestDue();
    rig.slack.failNext('chat.postMessage', 'service_unavailable', DIGEST_TRIES);
    await monitorPass(rig);
    for (let tries = 1; tries < DIGEST_TRIES; tries++) {
      expect(await owed(id)).toMatchObject({ outcome: 'failed', tries });
      await after(rig, digestRetryIn(tries));
    }
    expect(posts()).toBe(DIGEST_TRIES);
    expect(await owed(id)).toBeNull();
    expect(logged('gave up posting a digest', id)).toBe(true);
    await after(rig, HOUR);
    await after(rig, 6 * HOUR);
    expect(posts()).toBe(DIGEST_TRIES);
    expect(digests()).toEqual([]);

    setClock(rig, day0 + DAY + 9 * HOUR);
    await monitorPass(rig);
    expect(digests()).toHaveLength(1);
  });

  it('its local day ends before the next try: given up and logged, not posted the next morning; that day\'s own digest goes out', async () => {
    const { id, day0, iso } = await digestDue({}, '23:55');
    rig.slack.failNext('chat.postMessage', 'service_unavailable');
    await monitorPass(rig);
    expect(await owed(id)).toMatchObject({ outcome: 'failed', tries: 1 });
    // The bot was stopped until after midnight.
    setClock(rig, day0 + DAY + 30 * 60_000);
    await monitorPass(rig);
    expect(digests()).toEqual([]);
    expect(await owed(id)).toBeNull();
    expect(logged('gave up posting a digest', id)).toBe(true);
    setClock(rig, day0 + DAY + 23 * HOUR + 55 * 60_000);
    await monitorPass(rig);
    const [digest, ...more] = digests();
    expect(more).toEqual([]);
    expect(shown(digest!)).not.toContain(iso);
  });
});

describe('a digest post whose outcome is unclear', () => {
  it('no answer, but it landed: found in the channel at a later pass by its metadata, not posted twice', async () => {
    const { id } = await digestDueNow({ slackCallTimeoutMs: 300 });
    rig.slack.hangNext('chat.postMessage');
    await monitorPass(rig); // the post times out
    rig.slack.releaseHung(); // Slack had taken it
    expect(digests()).toHaveLength(1);
    expect(await owed(id)).toMatchObject({ outcome: 'unclear', tries: 1 });
    await after(rig, digestRetryIn(1));
    expect(lookups()).toBe(1);
    expect(digests()).toHaveLength(1);
    expect(posts()).toBe(1);
    expect(await owed(id)).toBeNull();
    expect(logged('already in its channel', id)).toBe(true);
    await after(rig, HOUR);
    expect(digests()).toHaveLength(1);
  });

  it('an HTTP 503 (nothing landed): looked for at a later pass, not found, posted once', async () => {
    const { id } = await digestDueNow();
    rig.slack.httpErrorNext('chat.postMessage', 503);
    await monitorPass(rig);
    expect(digests()).toEqual([]);
    expect(await owed(id)).toMatchObject({ outcome: 'unclear', tries: 1 });
    await after(rig, digestRetryIn(1));
    expect(lookups()).toBe(1);
    expect(digests()).toHaveLength(1);
    expect(await owed(id)).toBeNull();
    await after(rig, HOUR);
    expect(digests()).toHaveLength(1);
  });

  it('another app\'s message with the same metadata is not taken for it: the digest is still posted', async () => {
    const { id, iso } = await digestDueNow();
    rig.slack.httpErrorNext('chat.postMessage', 503);
    await monitorPass(rig);
    const foreign = rig.slack.messages.postFromAnotherApp(OPS_CHANNEL.id, 'Daily digest from staging', { event_type: DIGEST_EVENT, event_payload: { digest_run: `${id}:${iso}` } });
    await after(rig, digestRetryIn(1));
    const ours = digests().filter((m) => m.bot_id !== foreign.bot_id);
    expect(ours).toHaveLength(1);
    expect(await owed(id)).toBeNull();
  });

  it('Slack cannot say whether it is there: never posted blind; looked for again at each try, then given up and logged', async () => {
    const { id } = await digestDueNow();
    rig.slack.httpErrorNext('chat.postMessage', 503);
    await monitorPass(rig);
    // Down for every read of the channel (each with the client's retries).
    rig.slack.httpErrorNext('conversations.history', 503, 3 * DIGEST_TRIES);
    for (let tries = 1; tries < DIGEST_TRIES; tries++) {
      expect(await owed(id)).toMatchObject({ outcome: 'unclear', tries });
      await after(rig, digestRetryIn(tries));
    }
    expect(lookups()).toBe(3 * (DIGEST_TRIES - 1));
    expect(posts()).toBe(1);
    expect(await owed(id)).toBeNull();
    expect(logged('could not look for an earlier post of a digest', id)).toBe(true);
    expect(logged('gave up posting a digest', id)).toBe(true);
    rig.slack.clearFaults();
    await after(rig, 2 * HOUR);
    expect(posts()).toBe(1);
  });

  it('Slack refuses to show the channel (a refusal asking again will not change): given up and logged, never posted blind', async () => {
    const { id } = await digestDueNow();
    rig.slack.httpErrorNext('chat.postMessage', 503);
    await monitorPass(rig);
    rig.slack.failNext('conversations.history', 'missing_scope');
    await after(rig, digestRetryIn(1));
    expect(lookups()).toBe(1);
    expect(posts()).toBe(1);
    expect(await owed(id)).toBeNull();
    expect(logged('gave up posting a digest', id)).toBe(true);
    await after(rig, HOUR);
    expect(posts()).toBe(1);
  });

  it('a replica stopped between claiming the day and posting: after its try\'s lease the digest is looked for, then posted once', async () => {
    const { id, iso } = await digestDueNow();
    const now = rig.clock.now();
    expect(await rig.store.subscriptions.claimRun(id, iso, { now, until: now + DIGEST_TRY_LEASE_MS })).toBe(true);
    await monitorPass(rig);
    expect(digests()).toEqual([]);
    expect(lookups()).toBe(0);
    await after(rig, DIGEST_TRY_LEASE_MS);
    expect(lookups()).toBe(1);
    expect(digests()).toHaveLength(1);
    expect(await owed(id)).toBeNull();
  });
});
