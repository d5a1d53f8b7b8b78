/**
 * A `fetch` for Bolt's WebClient and its `respond` (both take `clientOptions.fetch`): undici's
 * `request` on one shared keep-alive Agent instead of Node's WHATWG fetch, whose streams,
 * Request/Response objects and body cloning cost more CPU per call than the rest of a command
 * (issue 15: profiled at ~1 ms per Web API call on the event loop every ack waits on).
 * The clients' own rules (timeouts through `signal`, retries, 429 handling) are unchanged:
 * this only carries the bytes. Bodies are read whole before the promise resolves (Slack's
 * answers are small), so the timeout covers the body as it does with fetch.
 */
import { STATUS_CODES } from 'node:http';
import { Agent, request } from 'undici';
import { nextTurn } from '../turns.js';

type FetchLike = typeof fetch;

/** The parts of Headers the clients read (get, has, entries), over undici's lower-cased record. */
class LightHeaders {
  constructor(private readonly raw: Record<string, string | string[] | undefined>) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  *entries(): IterableIterator<[string, string]> {
    for (const k of Object.keys(this.raw)) {
      const v = this.get(k);
      if (v !== null) yield [k, v];
    }
  }
  [Symbol.iterator]() {
    return this.entries();
  }
}

/** The parts of a Response the WebClient and `respond` read. */
class LightResponse {
  readonly ok: boolean;
  readonly headers: LightHeaders;
  constructor(
    readonly status: number,
    readonly statusText: string,
    headers: Record<string, string | string[] | undefined>,
    private readonly body: Buffer,
    readonly url: string,
  ) {
    this.ok = status >= 200 && status < 300;
    // Node's Headers validates every name and value; the clients only read a few.
    this.headers = new LightHeaders(headers);
  }
  async text(): Promise<string> {
    return this.body.toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(this.body.toString('utf8'));
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.body.buffer.slice(this.body.byteOffset, this.body.byteOffset + this.body.byteLength) as ArrayBuffer;
  }
}

/** One Agent for every Slack call of the app (Web API and response_url posts), keep-alive. */
export function createLightFetch(agent: Agent = new Agent({ keepAliveTimeout: 30_000, connections: 64 })): { fetch: FetchLike; agent: Agent; close: () => Promise<void> } {
  const fetchFn = async (input: Parameters<FetchLike>[0], init: RequestInit = {}): Promise<Response> => {
    const body = init.body;
    // Anything but a string body (a file upload's FormData) goes through Node's fetch as before.
    if ((body !== undefined && body !== null && typeof body !== 'string') || typeof input !== 'string') return fetch(input, init);
    const signal = init.signal ?? undefined;
    try {
      const res = await request(input, {
        dispatcher: agent,
        method: (init.method ?? 'GET') as 'POST',
        headers: init.headers as Record<string, string>,
        ...(body !== undefined && body !== null ? { body } : {}),
        ...(signal ? { signal } : {}),
      });
      const buf = Buffer.from(await res.body.arrayBuffer());
      await nextTurn(); // `respond`'s caller continues on its own turn: acks first (turns.ts)
      // fetch with redirect: 'error' (the WebClient's) fails on a redirect instead of returning it.
      if (init.redirect === 'error' && res.statusCode >= 300 && res.statusCode < 400) throw new TypeError('fetch failed: unexpected redirect');
      return new LightResponse(res.statusCode, STATUS_CODES[res.statusCode] ?? '', res.headers, buf, input) as unknown as Response;
    } catch (e) {
      // As with fetch, an aborted call rejects with the signal's reason (a TimeoutError for AbortSignal.timeout).
      if (signal?.aborted) throw signal.reason;
      throw e;
    }
  };
  return { fetch: fetchFn as FetchLike, agent, close: () => agent.close() };
}
