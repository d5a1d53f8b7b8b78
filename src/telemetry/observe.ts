/**
 * Telemetry at the composition boundaries (issue 24): the runtime wraps the services it injects
 * (the store, the Slack caller, the cloud transport's tries, the auditor) so nothing inside them
 * knows about metrics or traces. Each wrapper costs one clock read and one observe when tracing
 * is off. Shapes are structural, so this leaf folder imports nothing of the bot's.
 */
import { performance } from 'node:perf_hooks';
import { SpanKind } from '@opentelemetry/api';
import type { Metrics, RequestKind, SlackOutcome } from './metrics.js';
import type { Tracing } from './tracing.js';

export interface Telemetry {
  metrics: Metrics;
  tracing: Tracing;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFn = (...args: any[]) => any;

/** Every method of one store group, timed and counted; a child span each when traced. */
function observeGroup<G extends object>(group: G, name: string, t: Telemetry): G {
  const out: Record<string, unknown> = {};
  for (const [op, value] of Object.entries(group)) {
    if (typeof value !== 'function') {
      out[op] = value;
      continue;
    }
    const fn = value as AnyFn;
    const attributes = { 'db.operation.name': op, 'cloudbot.store': name };
    const record = t.metrics.storeTimer(name, op);
    out[op] = (...args: unknown[]) => {
      const t0 = performance.now();
      const call = () => fn.apply(group, args) as Promise<unknown>;
      const pending = t.tracing.on ? t.tracing.span(`store ${name}.${op}`, { attributes }, call) : call();
      // Every store method is async; should one not be, it is left as it is rather than made so.
      if (typeof (pending as { then?: unknown } | undefined)?.then !== 'function') return pending;
      return pending.then(
        (v) => {
          record(seconds(t0), false);
          return v;
        },
        (e: unknown) => {
          record(seconds(t0), true);
          throw e;
        },
      );
    };
  }
  return out as G;
}

/** The store with the named groups (operations, watches, …) observed; the rest (`ready`, `close`, a pool) as it is. */
export function observeStore<S extends object>(store: S, groups: readonly (keyof S & string)[], t: Telemetry): S {
  const out = { ...store };
  for (const key of groups) out[key] = observeGroup(store[key] as object, key, t) as S[typeof key];
  return out;
}

/** How a Web API call ended, read off the error slack-http.ts throws (SlackApiError's shape). */
function slackOutcome(e: unknown): SlackOutcome {
  const err = e as { code?: unknown; failure?: unknown };
  if (err?.code === 'ratelimited') return 'rate_limited';
  return err?.failure === 'refused' ? 'refused' : 'failed';
}

/** Whether a post is a thread reply is a yes or no; the thread itself (a ts) stays out. */
const slackAttributes = (method: string, params: unknown) => ({
  'rpc.system': 'slack',
  'rpc.method': method,
  'cloudbot.slack.thread_reply': !!(params as { thread_ts?: unknown } | undefined)?.thread_ts,
});

/** The bot's Web API caller, each call counted by method and outcome, and a client span when traced. */
export function observeSlackCalls<H extends { call: AnyFn }>(http: H, t: Telemetry): H {
  const call = (method: string, ...rest: unknown[]) => {
    const send = () => http.call(method, ...rest) as Promise<unknown>;
    const traced = t.tracing.on ? t.tracing.span(`slack ${method}`, { kind: SpanKind.CLIENT, attributes: slackAttributes(method, rest[0]) }, send) : send();
    return traced.then(
      (v) => {
        t.metrics.slackCall(method, 'ok');
        return v;
      },
      (e: unknown) => {
        t.metrics.slackCall(method, slackOutcome(e));
        throw e;
      },
    );
  };
  return { ...http, call } as H;
}

/** The cloud transport's observer (http.ts AttemptObserver): a count, a latency and an HTTP client span per try. */
export function cloudAttempts(t: Telemetry) {
  return ({ method, endpoint, attempt }: { method: string; endpoint: string; attempt: number }) => {
    const label = `${method} ${endpoint}`;
    const t0 = performance.now();
    const span = t.tracing.start(`cloud ${label}`, {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': method, 'url.template': endpoint, 'http.request.resend_count': attempt - 1 },
    });
    return ({ status, code }: { status?: number; code?: string }) => {
      t.metrics.cloudRequest(label, status ? String(status) : (code ?? 'error').toLowerCase(), seconds(t0));
      if (!span) return;
      if (status) span.setAttribute('http.response.status_code', status);
      if (code || !status || status >= 400) t.tracing.fail(span, { code: code ?? `http_${status ?? 'error'}` });
      span.end();
    };
  };
}

/**
 * The tiers of changes. `secret` is a read of a credential, the audit trail or the policy (and a
 * policy reload is audited under it): it changes nothing, so it is not counted as a change.
 */
const CHANGE_TIERS = new Set(['change', 'billing', 'destroy']);

/** Changes are what the audit trail records of operations whose tier is a change's. */
export function observeAuditor<A extends { record(entry: { opId: string; tier: string; outcome: string }): Promise<void> }>(auditor: A, t: Telemetry): A {
  const record = (entry: Parameters<A['record']>[0]) => {
    if (CHANGE_TIERS.has(entry.tier)) t.metrics.change(entry.opId, entry.outcome);
    return auditor.record(entry);
  };
  return { ...auditor, record };
}

/** The kind of a Slack request, from its body (the ack histogram's label). */
export function requestKind(body: unknown): RequestKind {
  const b = (body ?? {}) as { command?: unknown; type?: unknown; event?: { type?: unknown } };
  if (typeof b.command === 'string') return 'command';
  switch (b.type) {
    case 'block_actions':
    case 'block_suggestion':
    case 'interactive_message':
      return 'click';
    case 'view_submission':
    case 'view_closed':
      return 'view';
    case 'shortcut':
    case 'message_action':
      return 'command';
    case 'workflow_step_execute':
      return 'step';
    case 'event_callback':
      return b.event?.type === 'function_executed' || b.event?.type === 'workflow_step_execute' ? 'step' : 'event';
    default:
      return 'other';
  }
}

/** Work after the ack of an Events API event (App Home opened, link_shared), by its name. */
const EVENT_WORK = new Set(['App Home', 'a link unfurl']);

/**
 * The after-ack work's name (after-ack.ts `what`) → the answer histogram's kind, the same kind
 * `requestKind` gave the request's ack. Names, not the request, because with tracing off no
 * request context follows the work (that would cost every promise a hook); a new surface names
 * its work so it maps here (a step's name says "step", a shortcut's "shortcut").
 * test/unit/telemetry/observe.test.ts checks every name a listener uses.
 */
export function workKind(what: string): RequestKind {
  if (what.startsWith('/') || /shortcut/i.test(what)) return 'command';
  if (/step/i.test(what)) return 'step';
  if (what === 'that form') return 'view';
  if (EVENT_WORK.has(what)) return 'event';
  return 'click';
}
