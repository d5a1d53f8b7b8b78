/**
 * Prometheus metrics (issue 24), on a registry of the runtime's own: several bots run in one
 * test process, and prom-client's default registry is global. README "Metrics" lists them all.
 *
 * Labels are bounded words: request kinds, Slack method names, endpoint templates from the
 * endpoint table, HTTP statuses, catalog operation ids, outcomes, store method names. Never an
 * id, a name, a user or a channel. Recording is one observe or inc (microseconds); the gauges
 * about watches, subscriptions and alerts are read from their sources only when scraped.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { leanCounter, leanHistogram } from './lean-metrics.js';

/** What a Slack request was, as the ack histogram counts it. */
export type RequestKind = 'command' | 'click' | 'view' | 'event' | 'step' | 'other';
/** How a Web API call ended: answered ok, 429 after the tries, `{ok:false}`, or no answer / HTTP error. */
export type SlackOutcome = 'ok' | 'rate_limited' | 'refused' | 'failed';

/** What the scrape-time gauges read (the runtime wires them once its services exist). */
export interface GaugeSources {
  watches(): Promise<{ active: number; leased: number }>;
  subscriptions(): Promise<{ active: number; leased: number }>;
  alertsFiring(): Promise<number>;
  budget(): { perMinute: number; taken: number; waitedMs: number };
}

export interface Metrics {
  readonly registry: Registry;
  ack(kind: RequestKind, seconds: number): void;
  answered(kind: RequestKind, seconds: number): void;
  slackCall(method: string, outcome: SlackOutcome): void;
  cloudRequest(endpoint: string, status: string, seconds: number): void;
  change(operation: string, outcome: string): void;
  /** One store method's recorder, made once when the store is wrapped. */
  storeTimer(store: string, op: string): (seconds: number, failed: boolean) => void;
  /** Connects the gauges to what they report. */
  read(sources: GaugeSources): void;
  /** The exposition text and its content type. */
  scrape(): Promise<{ contentType: string; body: string }>;
}

/** Slack's ack deadline is 3 s: the buckets are fine below it and say clearly when one came close. */
const ACK_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5];
const ANSWER_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
const CLOUD_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20];
const STORE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

/** A family's series by label values, each made once (the lean families' `child`, remembered). */
function memo<F>(child: (...values: string[]) => F): (...values: string[]) => F {
  const made = new Map<string, F>();
  return (...values) => {
    const key = values.length === 1 ? values[0]! : values.join('\u0000');
    let f = made.get(key);
    if (!f) made.set(key, (f = child(...values)));
    return f;
  };
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  // The hot paths use lean-metrics.ts (recording without label hashing); the rest prom-client's own.
  const ack = memo(leanHistogram(registry, { name: 'cloudbot_ack_seconds', help: 'Time from a Slack request reaching the bot to its ack, by kind', labelNames: ['kind'], buckets: ACK_BUCKETS }));
  const answer = memo(leanHistogram(registry, { name: 'cloudbot_answer_seconds', help: 'Time from the ack to the answer being delivered (the work after the ack ended), by kind', labelNames: ['kind'], buckets: ANSWER_BUCKETS }));
  const slack = memo(leanCounter(registry, { name: 'cloudbot_slack_api_calls_total', help: 'Slack Web API calls by method and outcome (ok, rate_limited, refused, failed)', labelNames: ['method', 'outcome'] }));
  const cloud = memo(leanCounter(registry, { name: 'cloudbot_cloud_requests_total', help: 'Cloud API requests (each try) by endpoint template and HTTP status (or failure code)', labelNames: ['endpoint', 'status'] }));
  const cloudTime = memo(leanHistogram(registry, { name: 'cloudbot_cloud_request_seconds', help: 'Cloud API request latency (each try) by endpoint template', labelNames: ['endpoint'], buckets: CLOUD_BUCKETS }));
  const changes = new Counter({ name: 'cloudbot_changes_total', help: 'Changes by catalog operation and outcome (requested, succeeded, failed, refused, cancelled, expired)', labelNames: ['operation', 'outcome'], registers });
  const storeTime = leanHistogram(registry, { name: 'cloudbot_store_operation_seconds', help: 'Store operation latency by store and method', labelNames: ['store', 'op'], buckets: STORE_BUCKETS });
  const storeErrors = leanCounter(registry, { name: 'cloudbot_store_errors_total', help: 'Store operations that failed, by store and method', labelNames: ['store', 'op'] });

  let sources: GaugeSources | undefined;
  /** One read of each source per scrape (two gauges come from one store query). */
  const perScrape = (given: GaugeSources): GaugeSources => {
    const memo = new Map<string, unknown>();
    const once = <T>(key: string, read: () => T): T => (memo.has(key) ? memo.get(key) : memo.set(key, read()).get(key)) as T;
    return {
      watches: () => once('w', () => given.watches()),
      subscriptions: () => once('s', () => given.subscriptions()),
      alertsFiring: () => once('a', () => given.alertsFiring()),
      budget: () => once('b', () => given.budget()),
    };
  };
  let scraped: GaugeSources | undefined;
  // Each gauge asks its source at scrape time; a failing source leaves the last value.
  const gauge = (name: string, help: string, read: (s: GaugeSources) => Promise<number> | number) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        if (!scraped) return;
        try {
          this.set(await read(scraped));
        } catch {
          // the store is unreachable: /readyz says so; the scrape still answers
        }
      },
    });
  gauge('cloudbot_watches_active', 'Watches open in the store (every replica)', async (s) => (await s.watches()).active);
  gauge('cloudbot_watches_leased', 'Watches this replica holds the lease of (polls)', async (s) => (await s.watches()).leased);
  gauge('cloudbot_subscriptions_active', 'Subscriptions active in the store (every replica)', async (s) => (await s.subscriptions()).active);
  gauge('cloudbot_subscriptions_leased', 'Subscriptions this replica polls (it holds the monitor lease)', async (s) => (await s.subscriptions()).leased);
  gauge('cloudbot_alerts_firing', 'Alerts firing now', (s) => s.alertsFiring());
  gauge('cloudbot_request_budget_per_minute', 'The request budget watches and subscriptions share (CLOUD_REQUESTS_PER_MINUTE)', (s) => s.budget().perMinute);
  const fromBudget = (name: string, help: string, read: (b: ReturnType<GaugeSources['budget']>) => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        if (!scraped) return;
        this.reset();
        this.inc(read(scraped.budget()));
      },
    });
  fromBudget('cloudbot_request_budget_taken_total', 'Requests granted by the shared request budget', (b) => b.taken);
  fromBudget('cloudbot_request_budget_wait_seconds_total', 'Time polls spent waiting for the shared request budget', (b) => b.waitedMs / 1000);

  return {
    registry,
    ack: (kind, s) => ack(kind)(s),
    answered: (kind, s) => answer(kind)(s),
    slackCall: (method, outcome) => slack(method, outcome)(),
    cloudRequest: (endpoint, status, s) => {
      cloud(endpoint, status)();
      cloudTime(endpoint)(s);
    },
    change: (operation, outcome) => changes.inc({ operation, outcome }),
    storeTimer: (store, op) => {
      const time = storeTime(store, op);
      let failure: (() => void) | undefined; // made at the first failure: a method that never fails shows no error series
      return (s, failed) => {
        time(s);
        if (failed) (failure ??= storeErrors(store, op))();
      };
    },
    read: (s) => void (sources = s),
    scrape: async () => {
      scraped = sources && perScrape(sources);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
