/**
 * The HTTP transport of the Cloud API v2 client: one request, its retries and its failures.
 * Knows the wire ("What the service does": JSON bodies, `{data}` / `{error}` envelopes;
 * "Authentication": bearer header), not the resources. Decoding `data` is envelope.ts's job.
 */
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { systemClock } from '../clock.js';
import type { Clock } from '../clock.js';
import { CloudApiError, cloudErrorFromResponse, localCloudError } from './errors.js';
import { decideRetry, resolveRetryPolicy } from './retry.js';
import type { RetryOptions } from './retry.js';
import { redact } from './redaction.js';
import { abortedError, transportFailure } from './transport-failures.js';
import { nextTurn } from '../turns.js';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface TimeoutOptions {
  /** TCP/TLS connect; applies to the client's own Agent only. Default 5000 ms. */
  connectMs?: number;
  /** Until the response headers arrive. Default 20000 ms. */
  headersMs?: number;
  /** Between body chunks. Default 20000 ms. */
  bodyMs?: number;
}

export const DEFAULT_TIMEOUTS: Readonly<Required<TimeoutOptions>> = Object.freeze({
  connectMs: 5000,
  headersMs: 20_000,
  bodyMs: 20_000,
});

/** For logs and benchmarks; never carries headers or bodies. */
export interface TransportEvent {
  type: 'request' | 'retry' | 'response';
  method: HttpMethod;
  /** Path relative to the base URL, with its query string. */
  path: string;
  /** 1 for the first try. */
  attempt: number;
  /** request: 0; response: real duration of the attempt; retry: the wait about to start. */
  ms: number;
  /** The HTTP status (response events; retry events after an HTTP failure). */
  status?: number;
  /** The failure's code (failed responses, retries). */
  code?: string;
}

/**
 * Metrics and traces of each try (issue 24): called as a try starts, with the endpoint's template
 * (never the concrete path: ids stay out of labels); what it returns is called once with how the
 * try ended (the HTTP status, or the failure's code when there was no answer).
 */
export type AttemptObserver = (attempt: { method: HttpMethod; endpoint: string; attempt: number }) => (end: { status?: number; code?: string }) => void;

export interface TransportOptions {
  /** Ends in `/v2` ("Versioning"); a trailing slash is ignored. */
  baseUrl: string;
  token: string;
  /** Injected connection pool (tests, the sandbox rig). Not closed by `close()`. */
  dispatcher?: Dispatcher;
  /** Waits between retries and measures the budget. Default: the system clock. */
  clock?: Clock;
  timeouts?: TimeoutOptions;
  retry?: RetryOptions;
  onEvent?: (event: TransportEvent) => void;
  /** Names the caller in the provider's logs (the watcher uses its own). */
  userAgent?: string;
  observe?: AttemptObserver;
}

export interface TransportRequest {
  method: HttpMethod;
  /** Built with ids.ts `path`, relative to the base URL. */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** false: any 2xx body is ignored (deletes answer 204 or 200 with something). */
  expectBody?: boolean;
  /** The endpoint table's template (`/servers/{server}`), for metrics and traces. */
  endpoint?: string;
}

export interface TransportResponse {
  status: number;
  /** Parsed JSON; undefined for an empty body or when `expectBody` was false. */
  body: unknown;
  /** `METHOD /path?query`, for error messages. */
  request: string;
}

export interface Transport {
  send(req: TransportRequest): Promise<TransportResponse>;
  /** Closes the client's own Agent; an injected dispatcher stays open. */
  close(): Promise<void>;
}

function normaliseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TypeError('cloud client: baseUrl is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError('cloud client: baseUrl must be http(s)');
  if (url.search || url.hash) throw new TypeError('cloud client: baseUrl must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

function queryString(query: TransportRequest['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) params.set(key, String(value));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** `clock.sleep`, cut short by the caller's signal. */
function pause(clock: Clock, ms: number, signal: AbortSignal | undefined, request: string): Promise<void> {
  if (!signal) return clock.sleep(ms);
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(abortedError(request, signal));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void clock.sleep(ms).then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}

export function createTransport(options: TransportOptions): Transport {
  const base = normaliseBaseUrl(options.baseUrl);
  const token = options.token;
  // A header value with CR/LF or spaces would be refused by undici with a message we do not control.
  if (typeof token !== 'string' || !/^[\x21-\x7e]+$/.test(token)) {
    throw new TypeError('cloud client: the API token must be non-empty printable ASCII without spaces');
  }
  const clock = options.clock ?? systemClock;
  const timeouts = {
    connectMs: options.timeouts?.connectMs ?? DEFAULT_TIMEOUTS.connectMs,
    headersMs: options.timeouts?.headersMs ?? DEFAULT_TIMEOUTS.headersMs,
    bodyMs: options.timeouts?.bodyMs ?? DEFAULT_TIMEOUTS.bodyMs,
  };
  const policy = resolveRetryPolicy(options.retry);
  const owned = options.dispatcher
    ? undefined
    : new Agent({ connect: { timeout: timeouts.connectMs }, headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs });
  const dispatcher: Dispatcher = options.dispatcher ?? (owned as Agent);
  const baseHeaders = {
    authorization: `Bearer ${token}`,
    accept: 'application/json',
    'user-agent': options.userAgent ?? 'cloudbot/0.1 (+undici)',
  };
  let closing: Promise<void> | undefined;

  const observe = options.observe;
  const ended = (end: ReturnType<AttemptObserver> | undefined, how: { status?: number; code?: string }) => {
    try {
      end?.(how);
    } catch {
      // Telemetry must not break a cloud call.
    }
  };

  const emit = (event: TransportEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // A broken logger must not break a cloud call.
    }
  };

  /** One attempt: a response (any status) or a thrown failure without one. */
  async function attempt(req: TransportRequest, url: string, requestLine: string) {
    const hasBody = req.body !== undefined;
    const res = await request(url, {
      dispatcher,
      method: req.method,
      headers: hasBody ? { ...baseHeaders, 'content-type': 'application/json' } : baseHeaders,
      body: hasBody ? JSON.stringify(req.body) : null,
      signal: req.signal ?? null,
      headersTimeout: timeouts.headersMs,
      bodyTimeout: timeouts.bodyMs,
    });
    const text = await res.body.text();
    if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true as const, status: res.statusCode, text };
    // Redacted before parsing: a proxy or a debug server could echo the Authorization header.
    const error = cloudErrorFromResponse(res.statusCode, redact(text, token), res.headers, requestLine, clock.now());
    return { ok: false as const, error };
  }

  function parseBody(text: string, requestLine: string): unknown {
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw localCloudError('INVALID_RESPONSE', `${requestLine}: the cloud API answered with a body that is not JSON`, {
        request: requestLine,
      });
    }
  }

  async function send(req: TransportRequest): Promise<TransportResponse> {
    const pathAndQuery = `${req.path}${queryString(req.query)}`;
    const requestLine = `${req.method} ${pathAndQuery}`;
    const url = `${base}${pathAndQuery}`;
    const started = clock.now();
    const tag = { method: req.method, path: pathAndQuery };

    for (let n = 1; ; n++) {
      if (req.signal?.aborted) throw abortedError(requestLine, req.signal);
      if (closing) throw localCloudError('NETWORK_ERROR', `${requestLine}: the cloud client is closed`, { request: requestLine });
      emit({ type: 'request', ...tag, attempt: n, ms: 0 });
      const end = observe?.({ method: req.method, endpoint: req.endpoint ?? 'other', attempt: n });
      const t0 = performance.now();
      let failure: CloudApiError;
      let transient = false;
      try {
        const outcome = await attempt(req, url, requestLine);
        // What follows (parsing, the caller's rendering) waits its turn: acks first (turns.ts).
        await nextTurn();
        const ms = Math.round(performance.now() - t0);
        ended(end, outcome.ok ? { status: outcome.status } : { status: outcome.error.status, code: outcome.error.code });
        if (outcome.ok) {
          emit({ type: 'response', ...tag, attempt: n, ms, status: outcome.status });
          const body = req.expectBody === false ? undefined : parseBody(outcome.text, requestLine);
          return { status: outcome.status, body, request: requestLine };
        }
        failure = outcome.error;
        emit({ type: 'response', ...tag, attempt: n, ms, status: failure.status, code: failure.code });
      } catch (e) {
        if (e instanceof CloudApiError) throw e; // INVALID_RESPONSE from parseBody
        ({ error: failure, transient } = transportFailure(e, requestLine, token, req.signal));
        ended(end, { code: failure.code });
        emit({ type: 'response', ...tag, attempt: n, ms: Math.round(performance.now() - t0), code: failure.code });
        if (failure.code === 'ABORTED') throw failure;
      }

      const elapsedMs = clock.now() - started;
      const decision = decideRetry({ method: req.method, failure, transient, attempt: n, elapsedMs, policy });
      if (!decision.retry) {
        // A 429 is the cloud refusing before it acts (provider notes): thrown as it is, never as a
        // TIMEOUT, which a change's message must read as "may have reached the cloud".
        if (decision.reason !== 'budget' || failure.code === 'TIMEOUT' || failure.status === 429) throw failure;
        throw localCloudError(
          'TIMEOUT',
          `${requestLine}: gave up after ${n} attempt${n === 1 ? '' : 's'} in ${elapsedMs} ms ` +
            `(retry budget ${policy.budgetMs} ms); last failure: ${failure.message}`,
          { request: requestLine, cause: failure, ...(failure.retryAfterMs === undefined ? {} : { retryAfterMs: failure.retryAfterMs }) },
        );
      }
      emit({
        type: 'retry',
        ...tag,
        attempt: n,
        ms: decision.delayMs,
        code: failure.code,
        ...(failure.status ? { status: failure.status } : {}),
      });
      await pause(clock, decision.delayMs, req.signal, requestLine);
    }
  }

  return {
    send,
    close() {
      closing ??= owned ? owned.close() : Promise.resolve();
      return closing;
    },
  };
}
