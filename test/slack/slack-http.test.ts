/** slack-http.ts against a loopback server: what is sent, and the retry rules per kind of call. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackApiError } from '../../src/chat/slack-api.js';
import { createSlackHttp, type SlackHttp } from '../../src/slack/slack-http.js';
import { readBody } from '../rig/http-body.js';
import { listenLoopback, type Loopback } from '../rig/loopback.js';

type Reply = { status: number; body?: unknown; retryAfter?: string } | 'hang';
interface Seen {
  path: string;
  auth: string | undefined;
  type: string | undefined;
  body: string;
}

let server: Loopback;
let agent: Agent;
let replies: Reply[];
let seen: Seen[];
let waits: number[];
let deadline: AbortController | undefined;
let http: SlackHttp;

function handle(req: IncomingMessage, res: ServerResponse): void {
  void readBody(req).then((body) => {
    seen.push({ path: req.url ?? '', auth: req.headers.authorization, type: req.headers['content-type'], body });
    const reply = replies.shift() ?? { status: 200, body: { ok: true } };
    // No answer: the caller's deadline passes (aborted by hand, no real wait).
    if (reply === 'hang') return void deadline?.abort(new DOMException('timed out', 'TimeoutError'));
    res.writeHead(reply.status, { 'content-type': 'application/json', ...(reply.retryAfter ? { 'retry-after': reply.retryAfter } : {}) });
    res.end(JSON.stringify(reply.body ?? { ok: false, error: 'internal_error' }));
  });
}

beforeEach(async () => {
  server = await listenLoopback(createServer(handle));
  agent = new Agent({ keepAliveTimeout: 1000 });
  replies = [];
  seen = [];
  waits = [];
  http = createSlackHttp({
    token: 'xoxb-test',
    apiUrl: `${server.origin}/api/`,
    dispatcher: agent,
    timeoutMs: 5000,
    retry: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 1000 },
    sleep: async (ms) => void waits.push(ms),
    timeoutSignal: () => (deadline = new AbortController()).signal,
  });
});

afterEach(async () => {
  await server.close().catch(() => {}); // one test closed it already
  await agent.close();
});

const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

describe('slack-http', () => {
  it('POSTs JSON with the bearer token, and forms for the form-only read methods', async () => {
    replies = [{ status: 200, body: { ok: true, ts: '1.2' } }, { status: 200, body: { ok: true, messages: [] } }, { status: 200, body: { ok: true, messages: [] } }];
    const r = await http.call('chat.postMessage', { channel: 'C1', blocks: [{ type: 'divider' }] }, 'post');
    await http.call('conversations.replies', { channel: 'C1', ts: '1.2', include_all_metadata: true });
    await http.call('conversations.history', { channel: 'C1', oldest: '1.000000', include_all_metadata: true });
    expect(r).toMatchObject({ ok: true, ts: '1.2' });
    expect(seen[0]).toEqual({ path: '/api/chat.postMessage', auth: 'Bearer xoxb-test', type: 'application/json; charset=utf-8', body: '{"channel":"C1","blocks":[{"type":"divider"}]}' });
    expect(seen[1]).toMatchObject({ path: '/api/conversations.replies', type: 'application/x-www-form-urlencoded', body: 'channel=C1&ts=1.2&include_all_metadata=true' });
    expect(seen[2]).toMatchObject({ path: '/api/conversations.history', type: 'application/x-www-form-urlencoded', body: 'channel=C1&oldest=1.000000&include_all_metadata=true' });
  });

  it('retries a repeatable call on 5xx with backoff, and succeeds', async () => {
    replies = [{ status: 500 }, { status: 503 }, { status: 200, body: { ok: true } }];
    await expect(http.call('chat.update', { channel: 'C1' })).resolves.toMatchObject({ ok: true });
    expect(seen).toHaveLength(3);
    expect(waits).toEqual([500, 1000]);
  });

  it('gives up after the tries as unavailable http_NNN', async () => {
    replies = [{ status: 500 }, { status: 500 }, { status: 502 }];
    const err = await failure(http.call('chat.update', {}));
    expect(err).toBeInstanceOf(SlackApiError);
    expect(err).toMatchObject({ code: 'http_502', method: 'chat.update', failure: 'unavailable' });
    expect(seen).toHaveLength(3);
  });

  it('never re-sends a new post after a 5xx or a timeout', async () => {
    replies = [{ status: 500 }];
    expect(await failure(http.call('chat.postMessage', {}, 'post'))).toMatchObject({ code: 'http_500', failure: 'unavailable' });
    replies = ['hang'];
    expect(await failure(http.call('chat.postMessage', {}, 'post'))).toMatchObject({ code: 'timeout', failure: 'unavailable' });
    expect(seen).toHaveLength(2);
    expect(waits).toEqual([]);
  });

  it('a call with no answer in time is tried again, then reported as timeout', async () => {
    replies = ['hang', 'hang', 'hang'];
    expect(await failure(http.call('views.open', {}))).toMatchObject({ code: 'timeout', method: 'views.open', failure: 'unavailable' });
    expect(seen).toHaveLength(3);
    replies = ['hang', { status: 200, body: { ok: true, view: { id: 'V1' } } }];
    await expect(http.call('views.open', {})).resolves.toMatchObject({ view: { id: 'V1' } });
  });

  it('waits out a 429 for Retry-After (capped at 10 s), posts included', async () => {
    replies = [{ status: 429, retryAfter: '2' }, { status: 200, body: { ok: true, ts: '1.1' } }];
    await expect(http.call('chat.postMessage', {}, 'post')).resolves.toMatchObject({ ts: '1.1' });
    replies = [{ status: 429, retryAfter: '30' }, { status: 200, body: { ok: true } }];
    await http.call('chat.update', {});
    expect(waits).toEqual([2000, 10_000]);
  });

  it('a 429 that outlasts the tries is ratelimited with Retry-After in ms', async () => {
    replies = [0, 1, 2].map(() => ({ status: 429, retryAfter: '7' }));
    const err = await failure(http.call('chat.postMessage', {}, 'post'));
    expect(err).toMatchObject({ code: 'ratelimited', failure: 'unavailable', retryAfterMs: 7000 });
    expect(seen).toHaveLength(3);
    replies = [{ status: 429 }];
    expect(await failure(http.call('chat.update', {}))).toMatchObject({ code: 'ratelimited', retryAfterMs: undefined });
    expect(seen).toHaveLength(4);
  });

  it("Slack's ok:false is refused with its code, never retried; a 4xx is not retried either", async () => {
    replies = [{ status: 200, body: { ok: false, error: 'not_in_channel' } }];
    const err = await failure(http.call('chat.update', {}));
    expect(err).toMatchObject({ code: 'not_in_channel', method: 'chat.update', failure: 'refused' });
    replies = [{ status: 404 }];
    expect(await failure(http.call('chat.update', {}))).toMatchObject({ code: 'http_404', failure: 'unavailable' });
    expect(seen).toHaveLength(2);
  });

  it('a refused connection is request_failed after the tries', async () => {
    await server.close();
    expect(await failure(http.call('chat.delete', {}))).toMatchObject({ code: 'request_failed', failure: 'unavailable' });
    expect(waits).toEqual([500, 1000]);
  });
});
