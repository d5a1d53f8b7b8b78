/**
 * The posting queue: proactive messages (alerts, digests, watch replies) go out through it so
 * the bot keeps to Slack's ~1 message per second per channel (shared/slack-facts.md).
 *
 * - Per channel, one call at a time, each starting at least `spacingMs` after the previous
 *   one started; channels do not wait for each other.
 * - Edits (chat.update) share their channel's queue: they count against the same limit.
 * - A `ratelimited` refusal is waited out (its Retry-After, else `spacingMs`) and tried once
 *   more, holding the channel meanwhile (Slack asked for silence there). Any other failure
 *   rejects that call only; the queue goes on.
 */
import type { Clock } from '../clock.js';
import type { Logger } from '../log.js';
import type { Block } from '../views/types.js';
import { SlackApiError, type MessageArgs, type SlackApi } from './slack-api.js';

export interface MessageUpdate {
  channel: string;
  ts: string;
  text: string;
  blocks: Block[];
}

export interface PostQueue {
  post(message: MessageArgs): Promise<{ channel: string; ts: string }>;
  update(message: MessageUpdate): Promise<void>;
  /** Resolves once every call queued so far (and any queued meanwhile) has been made. */
  idle(): Promise<void>;
}

export interface PostQueueOptions {
  slack: SlackApi;
  clock: Clock;
  /** Least time between two calls to one channel (default 1000 ms). */
  spacingMs?: number;
  logger: Logger;
}

interface ChannelQueue {
  /** The last queued call's settling; the next call chains on it. */
  tail: Promise<void>;
  /** When the last call to this channel started (NaN: never). */
  lastAt: number;
  pending: number;
}

/** Channels remembered before drained ones are forgotten. */
const PRUNE_AT = 256;
const RATE_LIMITED = new Set(['ratelimited', 'rate_limited']);

export function isRateLimited(e: unknown): e is SlackApiError {
  return e instanceof SlackApiError && RATE_LIMITED.has(e.code);
}

/**
 * Slack's `{ok:false}` answers that do not rule a post out: of these its method reference says
 * "it's possible some aspect of the operation succeeded before the error was raised".
 */
const MAY_HAVE_ACTED = new Set(['internal_error', 'fatal_error']);

/**
 * Whether a post through the queue definitely did not land: Slack answered with an error (but
 * one of MAY_HAVE_ACTED), or the queue gave up on a rate limit (a 429 is not processed). Anything
 * else — no answer in time, a dropped connection, an HTTP 5xx, an error of the bot's own — leaves
 * it unclear: the post may be in the channel, and a caller that must not post twice looks first.
 */
export function postNotSent(e: unknown): boolean {
  if (isRateLimited(e)) return true;
  return e instanceof SlackApiError && e.failure === 'refused' && !MAY_HAVE_ACTED.has(e.code);
}

export function createPostQueue(opts: PostQueueOptions): PostQueue {
  const { slack, clock, logger } = opts;
  const spacingMs = opts.spacingMs ?? 1000;
  const channels = new Map<string, ChannelQueue>();

  /** Waits for this channel's spacing, then makes the call. */
  const paced = async <T>(q: ChannelQueue, call: () => Promise<T>): Promise<T> => {
    const wait = Number.isNaN(q.lastAt) ? 0 : q.lastAt + spacingMs - clock.now();
    if (wait > 0) await clock.sleep(wait);
    q.lastAt = clock.now();
    return call();
  };

  /** Forgets drained channels whose spacing no longer matters (keeps the map small). */
  const prune = () => {
    const now = clock.now();
    for (const [id, q] of channels) if (q.pending === 0 && !(q.lastAt + spacingMs > now)) channels.delete(id);
  };

  function enqueue<T>(channel: string, what: string, call: () => Promise<T>): Promise<T> {
    let q = channels.get(channel);
    if (!q) {
      if (channels.size >= PRUNE_AT) prune();
      q = { tail: Promise.resolve(), lastAt: NaN, pending: 0 };
      channels.set(channel, q);
    }
    const queue = q;
    queue.pending++;
    const result = queue.tail.then(async () => {
      try {
        return await paced(queue, call);
      } catch (e) {
        if (!isRateLimited(e)) throw e;
        const waitMs = e.retryAfterMs ?? spacingMs;
        logger.info('Slack asked to slow down; waiting before one more try', { channel, method: what, waitMs });
        await clock.sleep(Math.max(0, waitMs));
        return paced(queue, call);
      }
    });
    // The chain goes on whatever this call's fate; the caller gets the failure.
    queue.tail = result.then(
      () => undefined,
      () => undefined,
    );
    void queue.tail.then(() => void queue.pending--);
    return result;
  }

  return {
    post: (message) => enqueue(message.channel, 'chat.postMessage', () => slack.postMessage(message)),
    update: (message) => enqueue(message.channel, 'chat.update', () => slack.update(message)),
    async idle() {
      for (;;) {
        const tails = [...channels.values()].filter((q) => q.pending > 0).map((q) => q.tail);
        if (tails.length === 0) return;
        await Promise.all(tails);
      }
    },
  };
}
