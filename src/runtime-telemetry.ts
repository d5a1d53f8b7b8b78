/**
 * The telemetry part of the composition root (issue 24): what runtime.ts wraps and wires so that
 * metrics and traces see the bot's services without the services knowing. Kept apart so the
 * root stays readable; everything here is called once, at construction.
 */
import type { Context } from '@opentelemetry/api';
import type { Access } from './access/access.js';
import type { TelemetryConfig } from './config.js';
import type { RequestBudget } from './cloud/request-budget.js';
import type { Clock } from './clock.js';
import type { AfterAckHooks } from './slack/after-ack.js';
import type { Store, WatchRecord } from './store/index.js';
import { createTelemetry, listenForMetrics, metricsHandler, observeStore, workKind, type MetricsServer, type RouteHandler, type Telemetry } from './telemetry/index.js';
import type { StartWatch, Watcher } from './watch/watcher.js';

/** The store's groups, each method timed and counted (store.ts `Store`). */
const STORE_GROUPS = ['operations', 'watches', 'audit', 'subscriptions', 'alerts', 'monitorState', 'leases', 'known', 'aliases', 'deliveries'] as const;

export function runtimeTelemetry(config: TelemetryConfig | undefined): Telemetry {
  return createTelemetry(config?.traces);
}

/**
 * What the log masks of telemetry's settings: METRICS_TOKEN (16+ characters) and the collector's
 * header values long enough to be keys. A short one (a tenant, a flag) is no secret, and masking
 * it would cut that word out of every line.
 */
export function telemetrySecrets(config: TelemetryConfig | undefined): string[] {
  const headers = Object.values(config?.traces?.headers ?? {}).filter((v) => v.length >= 16);
  return [...(config?.metricsToken ? [config.metricsToken] : []), ...headers];
}

/**
 * The store, observed; its leases tracked so a scrape can say whether this replica holds the
 * monitor's (and so polls the subscriptions).
 */
export function observedStore(raw: Store, t: Telemetry, owner: () => string): { store: Store; holdsLease: (now: number) => boolean } {
  const store = observeStore(raw, STORE_GROUPS, t);
  let heldUntil = 0;
  const leases = store.leases;
  store.leases = {
    ...leases,
    acquire: async (name, who, now, until) => {
      const held = await leases.acquire(name, who, now, until);
      if (who === owner()) heldUntil = held ? until : 0;
      return held;
    },
    release: async (name, who) => {
      await leases.release(name, who);
      if (who === owner()) heldUntil = 0;
    },
  };
  return { store, holdsLease: (now) => now < heldUntil };
}

/** The scrape-time gauges' sources. */
export function readGauges(t: Telemetry, deps: { store: Store; clock: Clock; budget: RequestBudget; owner: string; holdsLease: (now: number) => boolean }): void {
  const { store, clock, budget, owner } = deps;
  t.metrics.read({
    watches: async () => {
      const open = await store.watches.listOpen();
      const now = clock.now();
      return { active: open.length, leased: open.filter((w) => w.leaseOwner === owner && (w.leaseUntil ?? 0) > now).length };
    },
    subscriptions: async () => {
      const active = (await store.subscriptions.listActive()).length;
      return { active, leased: deps.holdsLease(clock.now()) ? active : 0 };
    },
    alertsFiring: async () => (await store.alerts.listFiring()).length,
    budget: () => ({ perMinute: budget.perMinute, ...budget.stats() }),
  });
}

/**
 * Access decisions as spans of the request (tier and verdict only: the operation's catalog id
 * when the caller passes an operation, never the person or the channel). Off: access as it is.
 */
export function tracedAccess(access: Access, t: Telemetry): Access {
  if (!t.tracing.on) return access;
  // Delegation, not a copy: `unconfigured` is a getter that follows policy reloads.
  return Object.assign(Object.create(access) as Access, {
    check: (userId: string, channelId: string | undefined, op: Parameters<Access['check']>[2], account?: string) => {
      const id = (op as { id?: unknown }).id;
      const attributes = { 'cloudbot.tier': op.tier, ...(typeof id === 'string' ? { 'cloudbot.operation': id } : {}) };
      return t.tracing.span('access check', { attributes }, async (span) => {
        const decision = await access.check(userId, channelId, op, account);
        span?.setAttribute('cloudbot.access.allowed', decision.ok);
        return decision;
      });
    },
  });
}

/** Work after an ack stays in its request's trace and is timed as the answer. */
export function afterAckHooks(t: Telemetry): AfterAckHooks {
  return {
    ...(t.tracing.on ? { bind: (work: () => Promise<void>) => { const context = t.tracing.capture(); return () => t.tracing.within(context, work); } } : {}),
    done: (what, seconds) => t.metrics.answered(workKind(what), seconds),
  };
}

/**
 * A watch's polls in the trace of the request that started it, from this process's memory. After
 * a restart, or on another replica, a poll starts a trace of its own linked to the request that
 * made the watch's change (the traceparent in its record's facts, read once per watch). Bounded:
 * the oldest go first.
 */
export function watchTraces(t: Telemetry, records?: { get(id: string): Promise<{ facts: Record<string, unknown> } | undefined> }, limit = 10_000) {
  const started = new Map<string, Context>();
  const madeIn = new Map<string, unknown>();
  const remember = <V>(map: Map<string, V>, key: string, value: V) => {
    map.set(key, value);
    if (map.size > limit) map.delete(map.keys().next().value!);
  };
  /** The stored traceparent of the first watch's change that has one; a failed read links nothing. */
  const linkOf = async (watches: WatchRecord[]): Promise<unknown> => {
    for (const w of watches) {
      if (!w.operationId || !records) continue;
      if (!madeIn.has(w.id)) remember(madeIn, w.id, await records.get(w.operationId).then((r) => r?.facts.traceparent, () => undefined));
      if (madeIn.get(w.id)) return madeIn.get(w.id);
    }
    return undefined;
  };
  return {
    /** The watcher, its `watch` remembering the trace in force. */
    remembering(watcher: Watcher): Watcher {
      if (!t.tracing.on) return watcher;
      return {
        ...watcher,
        watch: async (input: StartWatch) => {
          const context = t.tracing.capture();
          const w = await watcher.watch(input);
          if (context) remember(started, w.id, context);
          return w;
        },
      };
    },
    /** The watcher's poll hook: one span per poll, a child of the first watch's request, or linked to it. */
    poll<T>(watches: WatchRecord[], run: () => Promise<T>): Promise<T> {
      if (!t.tracing.on) return run();
      const options = { attributes: { 'cloudbot.watch.kind': watches[0]?.kind ?? 'unknown', 'cloudbot.watch.count': watches.length } };
      const parent = watches.map((w) => started.get(w.id)).find((c) => c !== undefined);
      if (parent) return t.tracing.root('watch poll', options, run, parent);
      return linkOf(watches).then((traceparent) => t.tracing.linked('watch poll', options, traceparent, run));
    },
  };
}

/**
 * What start and stop do for telemetry. `socketMetrics`: Socket Mode has no HTTP server, so
 * `/metrics` gets a listener of its own (METRICS_PORT), only when configured (main.ts always is;
 * test runtimes never bind the default port), with the probes `routes` (`/healthz`, `/readyz`)
 * beside it. Stop sends the spans still buffered.
 */
export function telemetryLifecycle(t: Telemetry, socketMetrics: TelemetryConfig | undefined, routes: Record<string, RouteHandler> = {}) {
  let server: MetricsServer | undefined;
  return {
    async start(): Promise<{ metricsPort?: number }> {
      if (!socketMetrics) return {};
      server = await listenForMetrics(metricsHandler(t.metrics, socketMetrics.metricsToken), socketMetrics.metricsPort, routes);
      return { metricsPort: server.port };
    },
    async stop(): Promise<void> {
      await server?.close();
      await t.tracing.shutdown();
    },
  };
}
