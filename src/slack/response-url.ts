/**
 * Posting to a response_url outside a listener's `respond`: the start gate's "starting" answer
 * to an early click, and the last-resort error handler. It goes through the bot's own fetch
 * (light-fetch.ts: its keep-alive undici Agent, closed at stop), like every other Slack call,
 * never through Node's global fetch and its global pool.
 */
import type { Reply } from '../views/types.js';

/** Sends `reply` privately through `url`; false (nothing sent) when `url` is not an http(s) URL. Throws if Slack refuses it. */
export type PostToResponseUrl = (url: unknown, reply: Reply) => Promise<boolean>;

export function responseUrlPoster(fetchFn: typeof fetch, timeoutMs: number): PostToResponseUrl {
  return async (url, reply) => {
    if (typeof url !== 'string' || !/^https?:\/\//.test(url)) return false;
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ response_type: 'ephemeral', replace_original: false, text: reply.text, blocks: reply.blocks }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!res.ok) throw new Error(`response_url answered ${res.status}`);
    return true;
  };
}
