/**
 * Traces (issue 24): the OpenTelemetry API, the SDK's tracer provider and the OTLP/HTTP (JSON)
 * exporter, not sdk-node: the bot needs no auto-instrumentation (it wraps its own few services
 * at the composition root), so sdk-node's instrumentations, metrics and log SDKs would be weight
 * and start-up time for nothing.
 *
 * One provider and one context manager per runtime, neither registered globally: several bots
 * run in one test process, and a library's own spans should not land in ours. Contexts are
 * passed to the tracer explicitly.
 *
 * Off (no endpoint configured) every call runs its function as it is: no context storage, no
 * span objects, and the SDK and exporter are not even loaded (about 10 MB of RSS that a bot
 * without a collector would carry for nothing). On, only `root` starts a trace (a Slack
 * request, a watch poll); `span` makes a child of the span in force and nothing at all outside
 * one, so background loops do not each open a trace per store call.
 *
 * Attributes are low-cardinality words the caller chooses (kinds, methods, endpoint templates,
 * statuses): never ids, names, user text or secrets.
 */
import { createRequire } from 'node:module';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace';
import type { SamplerName, TracesConfig } from '../config-telemetry.js';

export { SpanKind };
export type { Context, Span };

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  links?: Link[];
}

export interface Tracing {
  readonly on: boolean;
  /** Starts a trace (or a child of `parent`) and runs `fn` in it; the span ends when `fn` settles. */
  root<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>, parent?: Context): Promise<T>;
  /** A child of the span in force, ended when `fn` settles; outside any span, just `fn`. */
  span<T>(name: string, options: SpanOptions, fn: (span: Span | undefined) => Promise<T>): Promise<T>;
  /** A child of the span in force, for the caller to end (a span around a callback pair); outside one, undefined. */
  start(name: string, options: SpanOptions): Span | undefined;
  /** Marks a span failed with the error's kind (its code or name, never its message). */
  fail(span: Span, error: unknown): void;
  /** The context in force now (undefined when off or outside a span), to resume later. */
  capture(): Context | undefined;
  /** Runs `fn` in a captured context. */
  within<T>(context: Context | undefined, fn: () => T): T;
  /** The W3C `traceparent` of the span in force (ids and flags only), to store with what a request makes; off or outside one, undefined. */
  traceparent(): string | undefined;
  /**
   * Work a stored record asks for (a change confirmed, sent after its undo window, polled after a
   * restart): a child of the span in force, or a trace of its own outside one, linked to the
   * trace the record was made in (`traceparent`) unless it is that trace already.
   */
  linked<T>(name: string, options: SpanOptions, traceparent: unknown, fn: (span: Span | undefined) => Promise<T>): Promise<T>;
  /** trace_id and span_id of the span in force, for log lines. */
  logFields(): { trace_id: string; span_id: string } | undefined;
  /** Sends what is buffered. */
  flush(): Promise<void>;
  /** Flushes and stops exporting. */
  shutdown(): Promise<void>;
}

/** What the application core and the change flow are handed (deps `tracing`): spans of a request's steps, and a record's link to its request. */
export type TraceSteps = Pick<Tracing, 'on' | 'span' | 'traceparent' | 'linked'>;

/** Tracing off: every call is its function. */
export const noTracing: Tracing = {
  on: false,
  root: (_n, _o, fn) => fn(undefined),
  span: (_n, _o, fn) => fn(undefined),
  start: () => undefined,
  fail: () => {},
  capture: () => undefined,
  within: (_c, fn) => fn(),
  traceparent: () => undefined,
  linked: (_n, _o, _t, fn) => fn(undefined),
  logFields: () => undefined,
  flush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/** One export's bound; and how long stop waits for the last one (real time: a bound on shutdown). */
const EXPORT_TIMEOUT_MS = 5000;
const SHUTDOWN_FLUSH_MS = 2000;

/**
 * The SDK, the exporter and the context manager, loaded when tracing is configured. They are
 * CommonJS packages, so `require` loads them synchronously where the runtime is assembled.
 */
function loadSdk() {
  const load = createRequire(import.meta.url);
  return {
    ...(load('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace')),
    ...(load('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')),
    ...(load('@opentelemetry/resources') as typeof import('@opentelemetry/resources')),
    ...(load('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks')),
  };
}
type Sdk = ReturnType<typeof loadSdk>;

function samplerOf(sdk: Sdk, name: SamplerName, ratio: number): Sampler {
  const { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler } = sdk;
  const ratioed = new TraceIdRatioBasedSampler(ratio);
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return ratioed;
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: ratioed });
    default:
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** A code or a name that is one word (`NOT_FOUND`, `SlackApiError`, `ECONNRESET`), nothing longer. */
const WORD = /^[A-Za-z0-9_.-]{1,64}$/;
const word = (v: unknown): string | undefined => (typeof v === 'string' && WORD.test(v) ? v : undefined);

/**
 * A failure's kind only: its message may quote the cloud or the person. A code is the cloud's
 * own text (its error envelope), so it is kept only when it is a word.
 */
function failed(span: Span, error: unknown): void {
  const e = error as { name?: unknown; code?: unknown };
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.setAttribute('error.type', word(e?.code) ?? word(e?.name) ?? 'error');
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** A stored traceparent as a link; anything else (absent, malformed, all zeros) none. */
export function linkFrom(traceparent: unknown): Link | undefined {
  const m = typeof traceparent === 'string' ? TRACEPARENT.exec(traceparent) : null;
  if (!m || /^0+$/.test(m[1]!) || /^0+$/.test(m[2]!)) return undefined;
  return { context: { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED, isRemote: true } };
}

export function createTracing(config: TracesConfig | undefined, version = '0.1.0'): Tracing {
  if (!config) return noTracing;
  const sdk = loadSdk();
  const { AsyncLocalStorageContextManager, OTLPTraceExporter, TracerProvider, BatchSpanProcessor, resourceFromAttributes } = sdk;
  const contexts = new AsyncLocalStorageContextManager().enable();
  const exporter = new OTLPTraceExporter({ url: config.url, headers: config.headers, timeoutMillis: EXPORT_TIMEOUT_MS });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...config.resource, 'service.name': config.serviceName, 'service.version': version }),
    sampler: samplerOf(sdk, config.sampler, config.ratio),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: 2000, exportTimeoutMillis: EXPORT_TIMEOUT_MS })],
  });
  const tracer = provider.getTracer('cloudbot', version);

  const run = <T>(name: string, options: SpanOptions, parent: Context, fn: (span: Span) => Promise<T>): Promise<T> => {
    const span = tracer.startSpan(name, options, parent);
    return contexts.with(trace.setSpan(parent, span), async () => {
      try {
        return await fn(span);
      } catch (e) {
        failed(span, e);
        throw e;
      } finally {
        span.end();
      }
    });
  };

  return {
    on: true,
    root: (name, options, fn, parent) => run(name, options, parent ?? ROOT_CONTEXT, fn),
    span: (name, options, fn) => {
      const active = contexts.active();
      return trace.getSpan(active) ? run(name, options, active, fn) : fn(undefined);
    },
    start: (name, options) => {
      const active = contexts.active();
      return trace.getSpan(active) ? tracer.startSpan(name, options, active) : undefined;
    },
    fail: failed,
    capture: () => contexts.active(),
    within: (context, fn) => (context ? contexts.with(context, fn) : fn()),
    traceparent: () => {
      const span = trace.getSpan(contexts.active());
      if (!span) return undefined;
      const { traceId, spanId, traceFlags } = span.spanContext();
      return `00-${traceId}-${spanId}-${(traceFlags & TraceFlags.SAMPLED) === TraceFlags.SAMPLED ? '01' : '00'}`;
    },
    linked: (name, options, traceparent, fn) => {
      const active = contexts.active();
      const link = linkFrom(traceparent);
      const same = link && trace.getSpan(active)?.spanContext().traceId === link.context.traceId;
      const withLink = link && !same ? { ...options, links: [...(options.links ?? []), link] } : options;
      return run(name, withLink, trace.getSpan(active) ? active : ROOT_CONTEXT, fn);
    },
    logFields: () => {
      const span = trace.getSpan(contexts.active());
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      // A collector that does not answer must not hold a stopping replica: the last spans get a bound.
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, SHUTDOWN_FLUSH_MS).unref()));
      await Promise.race([provider.shutdown().catch(() => {}), late]);
      clearTimeout(timer);
      contexts.disable();
    },
  };
}
