/** The telemetry wrappers (issue 24): what each counts, and that the wrapped service behaves as before. */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SlackApiError } from '../../../src/chat/slack-api.js';
import { cloudAttempts, createMetrics, noTracing, observeSlackCalls, observeStore, requestKind, workKind, type Telemetry } from '../../../src/telemetry/index.js';

const telemetry = (): Telemetry => ({ metrics: createMetrics(), tracing: noTracing });
const scraped = async (t: Telemetry) => (await t.metrics.scrape()).body;

describe('observeSlackCalls', () => {
  it('counts each call by method and outcome: ok, rate_limited, refused, failed; answers and errors pass through as they were', async () => {
    const t = telemetry();
    const outcomes: Record<string, () => Promise<unknown>> = {
      ok: async () => ({ ok: true, ts: '1.2' }),
      ratelimited: async () => Promise.reject(new SlackApiError('ratelimited', 'chat.postMessage', 'unavailable', 30_000)),
      refused: async () => Promise.reject(new SlackApiError('not_in_channel', 'chat.postMessage')),
      down: async () => Promise.reject(new SlackApiError('http_503', 'chat.postMessage', 'unavailable')),
    };
    let next = 'ok';
    const http = observeSlackCalls({ call: (_method: string, _params: unknown) => outcomes[next]!() }, t);
    await expect(http.call('chat.postMessage', {})).resolves.toEqual({ ok: true, ts: '1.2' });
    for (const which of ['ratelimited', 'refused', 'down']) {
      next = which;
      await expect(http.call('chat.postMessage', {})).rejects.toBeInstanceOf(SlackApiError);
    }
    const body = await scraped(t);
    for (const outcome of ['ok', 'rate_limited', 'refused', 'failed']) expect(body).toContain(`cloudbot_slack_api_calls_total{method="chat.postMessage",outcome="${outcome}"} 1`);
  });
});

describe('observeStore', () => {
  it('times every method of the named groups and counts failures; everything else is left as it is', async () => {
    const t = telemetry();
    const pool = { end: () => {} };
    const raw = {
      watches: { listOpen: async () => [1, 2], claimDue: async () => Promise.reject(new Error('database is locked')) },
      pool,
      close: async () => {},
    };
    const store = observeStore(raw, ['watches'], t);
    await expect(store.watches.listOpen()).resolves.toEqual([1, 2]);
    await expect(store.watches.claimDue()).rejects.toThrow('database is locked');
    expect(store.pool).toBe(pool);
    expect(store.close).toBe(raw.close);
    const body = await scraped(t);
    expect(body).toContain('cloudbot_store_operation_seconds_count{store="watches",op="listOpen"} 1');
    expect(body).toContain('cloudbot_store_operation_seconds_count{store="watches",op="claimDue"} 1');
    expect(body).toContain('cloudbot_store_errors_total{store="watches",op="claimDue"} 1');
    expect(body).not.toContain('cloudbot_store_errors_total{store="watches",op="listOpen"}');
  });
});

describe('cloudAttempts', () => {
  it('labels a try by its method and template, and by the failure code when no status came back', async () => {
    const t = telemetry();
    const observe = cloudAttempts(t);
    observe({ method: 'GET', endpoint: '/servers/{server}/status', attempt: 1 })({ status: 503, code: 'SERVER_ERROR' });
    observe({ method: 'GET', endpoint: '/servers/{server}/status', attempt: 2 })({ code: 'TIMEOUT' });
    observe({ method: 'GET', endpoint: '/servers/{server}/status', attempt: 3 })({ status: 200 });
    const body = await scraped(t);
    expect(body).toContain('cloudbot_cloud_requests_total{endpoint="GET /servers/{server}/status",status="503"} 1');
    expect(body).toContain('cloudbot_cloud_requests_total{endpoint="GET /servers/{server}/status",status="timeout"} 1');
    expect(body).toContain('cloudbot_cloud_requests_total{endpoint="GET /servers/{server}/status",status="200"} 1');
    expect(body).toContain('cloudbot_cloud_request_seconds_count{endpoint="GET /servers/{server}/status"} 3');
  });
});

describe('metrics of two runtimes in one process', () => {
  it('are apart: each registry holds its own counts', async () => {
    const a = telemetry();
    const b = telemetry();
    a.metrics.change('server.rename', 'succeeded');
    expect(await scraped(a)).toContain('cloudbot_changes_total{operation="server.rename",outcome="succeeded"} 1');
    expect(await scraped(b)).not.toContain('cloudbot_changes_total{');
  });
});

describe('requestKind', () => {
  it('names each Slack request by what it is, from its body', () => {
    expect(requestKind({ command: '/cloud', text: 'server status 101' })).toBe('command');
    expect(requestKind({ type: 'block_actions' })).toBe('click');
    expect(requestKind({ type: 'block_suggestion' })).toBe('click');
    expect(requestKind({ type: 'view_submission' })).toBe('view');
    expect(requestKind({ type: 'view_closed' })).toBe('view');
    expect(requestKind({ type: 'shortcut' })).toBe('command');
    expect(requestKind({ type: 'event_callback', event: { type: 'app_home_opened' } })).toBe('event');
    expect(requestKind({ type: 'event_callback', event: { type: 'function_executed' } })).toBe('step');
    expect(requestKind({ type: 'something_new' })).toBe('other');
    expect(requestKind(undefined)).toBe('other');
  });
});

describe('workKind', () => {
  /** Each name a listener gives its work after the ack → a request that listener acks (as Slack sends it). */
  const LISTENERS: Record<string, unknown> = {
    '/cloud': { command: '/cloud' },
    'the Act on this shortcut': { type: 'message_action' },
    'that Act on this button': { type: 'block_actions' },
    'that click': { type: 'block_actions' },
    'that form': { type: 'view_submission' },
    'App Home': { type: 'event_callback', event: { type: 'app_home_opened' } },
    'that Home tab button': { type: 'block_actions' },
    'that page button': { type: 'block_actions' },
    'that alert button': { type: 'block_actions' },
    'Keep watching': { type: 'block_actions' },
    'a link unfurl': { type: 'event_callback', event: { type: 'link_shared' } },
    'that unfurl button': { type: 'block_actions' },
    'workflow step cloud_run': { type: 'event_callback', event: { type: 'function_executed' } },
  };

  it('every name a listener in src/slack/ gives its work maps to the kind its ack is counted under', () => {
    const dir = new URL('../../../src/slack/', import.meta.url);
    const named = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(new URL(f, dir), 'utf8').matchAll(/afterAck\.run\(\s*(?:'([^']+)'|`([^`$]+)\$\{|(SLASH_COMMAND)\b)/g)])
      .map((m) => m[1] ?? (m[2] ? `${m[2]}cloud_run` : '/cloud'));
    expect(named.length).toBeGreaterThanOrEqual(12);
    for (const name of new Set(named)) {
      expect(Object.keys(LISTENERS), `${name}: add it here, with a request its listener acks`).toContain(name);
      expect(workKind(name), name).toBe(requestKind(LISTENERS[name]));
    }
  });
});
