/** The per-channel posting queue on a manual clock: spacing, independence, 429s, failures. */
import { beforeEach, describe, expect, it } from 'vitest';
import { createManualClock, type ManualClock } from '../../../src/clock.js';
import { createLogger } from '../../../src/log.js';
import { createPostQueue, postNotSent, type PostQueue } from '../../../src/chat/post-queue.js';
import { SlackApiError, type MessageArgs, type SlackApi } from '../../../src/chat/slack-api.js';

interface Call {
  method: 'post' | 'update';
  channel: string;
  text: string;
  at: number;
}

let clock: ManualClock;
let t0: number;
let calls: Call[];
/** Per call text: errors to throw, in order, before it succeeds. */
let failures: Map<string, Error[]>;
/** How long each call takes, in clock time. */
let callMs: number;
let inFlight: Map<string, number>;
let overlap: boolean;

async function record(method: Call['method'], channel: string, text: string): Promise<void> {
  calls.push({ method, channel, text, at: clock.now() - t0 });
  inFlight.set(channel, (inFlight.get(channel) ?? 0) + 1);
  if (inFlight.get(channel)! > 1) overlap = true;
  try {
    if (callMs > 0) await clock.sleep(callMs);
    const error = failures.get(text)?.shift();
    if (error) throw error;
  } finally {
    inFlight.set(channel, inFlight.get(channel)! - 1);
  }
}

function fakeSlack(): SlackApi {
  let n = 0;
  const no = () => Promise.reject(new Error('not used'));
  return {
    async postMessage(args) {
      await record('post', args.channel, args.text);
      return { channel: args.channel, ts: `1700000000.${String(++n).padStart(6, '0')}` };
    },
    async update(args) {
      await record('update', args.channel, args.text);
    },
    deleteMessage: no,
    postEphemeral: no,
    openView: no,
    updateView: no,
    publishView: no,
    usergroupMembers: no,
  };
}

const msg = (channel: string, text: string): MessageArgs => ({ channel, text, blocks: [] });
const times = (channel: string) => calls.filter((c) => c.channel === channel).map((c) => c.at);

/** Runs the clock forward in small steps so chained sleeps all get their turn. */
async function runFor(ms: number, step = 100): Promise<void> {
  await clock.advance(0); // what is due now goes before time moves
  for (let t = 0; t < ms; t += step) await clock.advance(step);
}

let queue: PostQueue;
let logged: string[];

beforeEach(() => {
  clock = createManualClock();
  t0 = clock.now();
  calls = [];
  failures = new Map();
  callMs = 0;
  inFlight = new Map();
  overlap = false;
  logged = [];
  queue = createPostQueue({ slack: fakeSlack(), clock, logger: createLogger({ sink: (l) => logged.push(l) }) });
});

describe('post queue', () => {
  it('sends one channel’s messages one at a time, at least a second apart, in order', async () => {
    callMs = 300;
    const results = ['a', 'b', 'c'].map((t) => queue.post(msg('C1', t)));
    await runFor(5000);
    expect(calls.map((c) => c.text)).toEqual(['a', 'b', 'c']);
    expect(times('C1')).toEqual([0, 1000, 2000]);
    expect(overlap).toBe(false);
    const posted = await Promise.all(results);
    expect(posted.map((p) => p.channel)).toEqual(['C1', 'C1', 'C1']);
    expect(new Set(posted.map((p) => p.ts)).size).toBe(3);
  });

  it('spaces from the previous call even when it was long ago, and not more', async () => {
    await queue.post(msg('C1', 'first'));
    await runFor(400);
    void queue.post(msg('C1', 'second'));
    await runFor(2000);
    expect(times('C1')).toEqual([0, 1000]); // 600 ms more, not a full second from the enqueue
    await runFor(5000);
    void queue.post(msg('C1', 'third'));
    await clock.advance(0);
    expect(times('C1')).toEqual([0, 1000, 7400]); // idle long enough: at once
  });

  it('keeps channels independent', async () => {
    for (const t of ['a1', 'a2']) void queue.post(msg('CA', t));
    for (const t of ['b1', 'b2']) void queue.post(msg('CB', t));
    await runFor(3000);
    expect(times('CA')).toEqual([0, 1000]);
    expect(times('CB')).toEqual([0, 1000]);
  });

  it('edits share their channel’s queue', async () => {
    const posted = queue.post(msg('C1', 'alert'));
    const edited = queue.update({ channel: 'C1', ts: '1700000000.000001', text: 'resolved', blocks: [] });
    void queue.update({ channel: 'C2', ts: '1700000000.000002', text: 'other', blocks: [] });
    await runFor(2000);
    await Promise.all([posted, edited]);
    expect(calls.map((c) => [c.method, c.channel, c.at])).toEqual([
      ['post', 'C1', 0],
      ['update', 'C2', 0],
      ['update', 'C1', 1000],
    ]);
  });

  it('waits out a ratelimited refusal’s Retry-After and tries once more; the channel waits too', async () => {
    failures.set('a', [new SlackApiError('ratelimited', 'chat.postMessage', 'unavailable', 5000)]);
    const a = queue.post(msg('C1', 'a'));
    void queue.post(msg('C1', 'b'));
    void queue.post(msg('C2', 'x'));
    await runFor(4900);
    expect(calls.map((c) => c.text)).toEqual(['a', 'x']);
    await runFor(200);
    expect(calls.filter((c) => c.text === 'a').map((c) => c.at)).toEqual([0, 5000]);
    await expect(a).resolves.toMatchObject({ channel: 'C1' });
    await runFor(1000);
    expect(times('C1')).toEqual([0, 5000, 6000]);
    expect(logged.join('\n')).toContain('"waitMs":5000');
  });

  it('a second rate limit rejects that call only; without Retry-After it waits the spacing', async () => {
    const limited = () => new SlackApiError('rate_limited', 'chat.update', 'unavailable');
    failures.set('a', [limited(), limited()]);
    const a = queue.update({ channel: 'C1', ts: '1.1', text: 'a', blocks: [] });
    const b = queue.post(msg('C1', 'b'));
    const aFailed = expect(a).rejects.toMatchObject({ code: 'rate_limited' });
    await runFor(3000);
    await aFailed;
    await expect(b).resolves.toMatchObject({ channel: 'C1' });
    expect(calls.map((c) => [c.text, c.at])).toEqual([
      ['a', 0],
      ['a', 1000],
      ['b', 2000],
    ]);
  });

  it('other failures reject that call only, without a retry, and the queue goes on', async () => {
    failures.set('a', [new SlackApiError('not_in_channel', 'chat.postMessage')]);
    failures.set('b', [new SlackApiError('http_500', 'chat.postMessage', 'unavailable')]);
    const a = queue.post(msg('C1', 'a'));
    const b = queue.post(msg('C1', 'b'));
    const c = queue.post(msg('C1', 'c'));
    const settled = Promise.allSettled([a, b, c]);
    await runFor(3000);
    const [ra, rb, rc] = await settled;
    expect(ra).toMatchObject({ status: 'rejected', reason: { code: 'not_in_channel' } });
    expect(rb).toMatchObject({ status: 'rejected', reason: { code: 'http_500' } });
    expect(rc).toMatchObject({ status: 'fulfilled' });
    expect(calls.map((x) => x.text)).toEqual(['a', 'b', 'c']);
  });

  it('postNotSent: only a refusal that rules the post out, or a rate limit the queue gave up on, is a definite "not posted"', async () => {
    failures.set('a', [new SlackApiError('rate_limited', 'chat.postMessage', 'unavailable'), new SlackApiError('rate_limited', 'chat.postMessage', 'unavailable')]);
    const gaveUp = queue.post(msg('C1', 'a')).catch((e: unknown) => e);
    await runFor(2000);
    expect(postNotSent(await gaveUp)).toBe(true);
    expect(postNotSent(new SlackApiError('service_unavailable', 'chat.postMessage'))).toBe(true);
    expect(postNotSent(new SlackApiError('not_in_channel', 'chat.postMessage'))).toBe(true);
    // Slack's own words for these: "it's possible some aspect of the operation succeeded".
    expect(postNotSent(new SlackApiError('internal_error', 'chat.postMessage'))).toBe(false);
    expect(postNotSent(new SlackApiError('fatal_error', 'chat.postMessage'))).toBe(false);
    // No answer, or an HTTP error: it may have landed.
    expect(postNotSent(new SlackApiError('timeout', 'chat.postMessage', 'unavailable'))).toBe(false);
    expect(postNotSent(new SlackApiError('request_failed', 'chat.postMessage', 'unavailable'))).toBe(false);
    expect(postNotSent(new SlackApiError('http_503', 'chat.postMessage', 'unavailable'))).toBe(false);
    expect(postNotSent(new Error('socket hang up'))).toBe(false);
  });

  it('idle resolves once everything queued has gone out, including what was queued meanwhile', async () => {
    void queue.post(msg('C1', 'a'));
    void queue.post(msg('C1', 'b')).then(() => void queue.post(msg('C1', 'c')));
    void queue.post(msg('C2', 'x')).catch(() => undefined);
    failures.set('x', [new Error('boom')]);
    let idle = false;
    void queue.idle().then(() => (idle = true));
    await runFor(1500);
    expect(idle).toBe(false);
    await runFor(1000);
    expect(idle).toBe(true);
    expect(calls.map((c) => c.text).sort()).toEqual(['a', 'b', 'c', 'x']);
    await expect(queue.idle()).resolves.toBeUndefined();
  });
});
