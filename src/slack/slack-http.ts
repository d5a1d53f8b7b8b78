/**
 * A direct Web API caller for the bot's own calls (issue 15): Bolt's WebClient deep-copies and
 * stringifies every body for a debug line, URL-encodes JSON and runs a queue and p-retry per
 * call, ~0.5–1 ms of CPU on the loop every ack waits on. This POSTs the method's params once
 * (JSON, or a form for the read methods that take only forms) with the bot token as a bearer,
 * over undici on the app's keep-alive Agent, with the same rules the WebClient had:
 * - `safe` calls (repeatable) are tried `retries + 1` times on a 5xx, a timeout or a network
 *   error, backing off minTimeout·factorⁿ (at most maxTimeout); a 429 waits out Retry-After;
 * - `post` calls (a new message: it may have landed even when the answer was lost) are never
 *   sent again, except after a 429, which Slack did not process (at most POST_RATE_RETRIES);
 * - `{ok:false}` → SlackApiError(code, 'refused'); HTTP errors and no answer → 'unavailable'.
 */
import { request, type Dispatcher } from 'undici';
import { SlackApiError } from '../chat/slack-api.js';
import { nextTurn } from '../turns.js';
import { startDeadline, type Deadline } from '../deadline.js';

export interface RetryPolicy {
  retries?: number;
  factor?: number;
  minTimeout?: number;
  maxTimeout?: number;
}

export interface SlackHttpOptions {
  token: string;
  /** Base URL ending in `/` (SLACK_API_URL); Slack's own by default. */
  apiUrl?: string;
  dispatcher: Dispatcher;
  timeoutMs: number;
  retry: RetryPolicy;
  /** Injected in tests; a real timer otherwise. */
  sleep?: (ms: number) => Promise<void>;
  /** The per-try deadline (tests abort it by hand). */
  timeoutSignal?: (ms: number) => AbortSignal;
}

export type CallKind = 'safe' | 'post';
export type SlackAnswer = Record<string, unknown> & { ok: true };

/** At most this many waits on a 429 before a post gives up; each wait at most MAX_RATE_WAIT_MS. */
export const POST_RATE_RETRIES = 2;
export const MAX_RATE_WAIT_MS = 10_000;
/** These read methods take form bodies only (shared/slack/web-api-methods.json `consumes`). */
const FORM_METHODS = new Set(['conversations.history', 'conversations.replies', 'usergroups.users.list']);

/** One try's outcome, before the retry rules. */
type Try = { kind: 'answer'; body: Record<string, unknown> } | { kind: 'rate'; retryAfterMs?: number } | { kind: 'failed'; code: string; retryable: boolean };

export interface SlackHttp {
  call(method: string, params: Record<string, unknown>, kind?: CallKind): Promise<SlackAnswer>;
}

export function createSlackHttp(opts: SlackHttpOptions): SlackHttp {
  const base = opts.apiUrl ?? 'https://slack.com/api/';
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  // A deadline per try, cleared when the try ends (deadline.ts); tests may hand in their own signal.
  const deadline = (ms: number): Deadline => (opts.timeoutSignal ? { signal: opts.timeoutSignal(ms), clear: () => {} } : startDeadline(ms));
  const { retries = 2, factor = 2, minTimeout = 500, maxTimeout = 1000 } = opts.retry;
  const auth = `Bearer ${opts.token}`;

  async function once(method: string, body: string, form: boolean): Promise<Try> {
    const timeout = deadline(opts.timeoutMs);
    const signal = timeout.signal;
    try {
      const res = await request(base + method, {
        dispatcher: opts.dispatcher,
        method: 'POST',
        headers: { authorization: auth, 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json; charset=utf-8' },
        body,
        signal,
      });
      if (res.statusCode === 429) {
        await res.body.dump();
        const sec = Number(res.headers['retry-after']);
        return { kind: 'rate', ...(Number.isFinite(sec) && sec >= 0 ? { retryAfterMs: sec * 1000 } : {}) };
      }
      // Slack's Web API uses no status but 200 and 429 for answers; a 5xx is Slack being down.
      if (res.statusCode !== 200) {
        await res.body.dump();
        return { kind: 'failed', code: `http_${res.statusCode}`, retryable: res.statusCode >= 500 };
      }
      const parsed = (await res.body.json()) as unknown;
      if (typeof parsed !== 'object' || parsed === null) return { kind: 'failed', code: 'request_failed', retryable: true };
      return { kind: 'answer', body: parsed as Record<string, unknown> };
    } catch {
      return { kind: 'failed', code: signal.aborted ? 'timeout' : 'request_failed', retryable: true };
    } finally {
      timeout.clear();
    }
  }

  return {
    async call(method, params, kind = 'safe') {
      const form = FORM_METHODS.has(method);
      const body = form ? new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString() : JSON.stringify(params);
      const tries = kind === 'post' ? POST_RATE_RETRIES + 1 : retries + 1;
      for (let attempt = 0; ; attempt++) {
        const r = await once(method, body, form);
        await nextTurn(); // the caller's next step waits its turn: acks first (turns.ts)
        const last = attempt + 1 >= tries;
        if (r.kind === 'answer') {
          if (r.body.ok === true) return r.body as SlackAnswer;
          throw new SlackApiError(typeof r.body.error === 'string' ? r.body.error : 'unknown_error', method);
        }
        if (r.kind === 'rate') {
          // Without a Retry-After there is nothing to wait out (the WebClient gave up too).
          if (last || r.retryAfterMs === undefined) throw new SlackApiError('ratelimited', method, 'unavailable', r.retryAfterMs);
          await sleep(Math.min(r.retryAfterMs, MAX_RATE_WAIT_MS));
          continue;
        }
        if (last || kind === 'post' || !r.retryable) throw new SlackApiError(r.code, method, 'unavailable');
        await sleep(Math.min(minTimeout * factor ** attempt, maxTimeout));
      }
    },
  };
}
