/**
 * What the composition root (runtime.ts) takes and gives: the settings from config, the few
 * things tests, the bench and the shell change, and the running bot. Types only.
 */
import type { Receiver, webApi } from '@slack/bolt';
import type { Dispatcher } from 'undici';
import type { Access } from './access/access.js';
import type { AppCore } from './app/app-core.js';
import type { PolicyFile } from './access/policy-file.js';
import type { PolicySource, ReloadOutcome, ReloadTrigger } from './access/policy-source.js';
import type { CloudAccounts } from './cloud/accounts.js';
import type { AuditorService } from './audit/auditor.js';
import type { SlackApi } from './chat/slack-api.js';
import type { RetryOptions } from './cloud/retry.js';
import type { Clock } from './clock.js';
import type { AccessConfig, CloudConfig, LogLevelName, MonitorConfig, SlackConfig, TelemetryConfig } from './config.js';
import type { Telemetry } from './telemetry/index.js';
import type { ChangeFlow } from './confirm/change-types.js';
import type { Logger } from './log.js';
import type { Catalog } from './operations/catalog.js';
import type { BoltApp } from './slack/app.js';
import type { DatabaseTarget, Sealer, Store } from './store/index.js';
import type { Watcher } from './watch/watcher.js';
import type { Scheduler } from './schedule/scheduler.js';
import type { BroadcastPolicy } from './watch/final-post.js';
import type { RequestBudget } from './cloud/request-budget.js';
import type { Monitor } from './monitor/monitor.js';
import type { AfterAckLimits } from './slack/after-ack.js';
import type { UnfurlConfig } from './config-types.js';
import type { StepDriver } from './app/step-driver.js';

export interface RuntimeSettings {
  slack: SlackConfig;
  /** The environment's one account (CLOUD_API_BASE_URL / CLOUD_API_TOKEN); the policy file may declare others. */
  cloud?: CloudConfig | undefined;
  /** SQLite file (`:memory:` for a throwaway one). */
  databasePath: string;
  /** Wins over databasePath when set: SQLite, or PostgreSQL shared by replicas (DATABASE_URL). */
  database?: DatabaseTarget;
  access: {
    config: AccessConfig;
    policy?: PolicyFile;
    /** The policy file's path, for messages and audit entries. */
    policyPath?: string;
    /** Reads and validates the file again (SIGHUP, the interval); throws PolicyFileError. */
    reloadPolicy?: () => PolicyFile;
  };
  /** An account's token from the variable its policy names (config.ts's envToken). */
  tokens?: (envName: string) => string | undefined;
  auditChannel?: string | undefined;
  watch?: { intervalMs?: number; broadcast?: BroadcastPolicy; leaseMs?: number };
  /** Subscriptions and alerts (issue 13): poll interval, shared request budget, hold polls. */
  monitor?: Partial<MonitorConfig>;
  /** Schedules (issue 25): the grace for runs missed during downtime, and how often the scheduler looks. */
  schedule?: { graceMs?: number; intervalMs?: number; backupPollMs?: number };
  log?: { level?: LogLevelName; sink?: (line: string) => void };
  /** Metrics endpoint and traces (issue 24); traces off when absent. */
  telemetry?: TelemetryConfig;
  /** Which links unfurl (CLOUD_PANEL_URL, CLOUD_WORKERS_DOMAIN; issue 23). */
  unfurl?: UnfurlConfig;
  /** On stop: how long work already taken may take to finish (SHUTDOWN_TIMEOUT_MS; default 15 s). */
  shutdownTimeoutMs?: number;
  /** HTTP mode: how long the port stays open after a stop began (SHUTDOWN_DELAY_MS; default here 0). */
  shutdownDelayMs?: number;
}

/** What tests, the bench and the shell change; production passes none of these. */
export interface RuntimeOverrides {
  clock?: Clock;
  /** Connection pool of the cloud clients; an injected one is left open by `stop`. */
  dispatcher?: Dispatcher;
  /** Retry policy of both cloud clients (tests shorten it). */
  cloudRetry?: RetryOptions;
  /** WebClient retry policy (tests keep the production number of tries, without the waits). */
  slackRetryConfig?: webApi.RetryOptions;
  /** WebClient timeout per call (default SLACK_CALL_TIMEOUT_MS). */
  slackCallTimeoutMs?: number;
  /** The shell's receiver instead of Socket Mode or HTTP. */
  receiver?: Receiver;
  catalog?: Catalog;
  /** How long user-group memberships are cached by access control. */
  groupCacheMs?: number;
  watchConcurrency?: number;
  slowNoticeMs?: number;
  operationTimeoutMs?: number;
  /** How long a Confirm button works (default 10 minutes). */
  confirmTtlMs?: number;
  /** How often pending confirmations are checked for expiry (default 30 s). */
  expirySweepMs?: number;
  /** How soon the monitor looks again at a state it is holding (default 1 s). */
  monitorRecheckMs?: number;
  /** false: the watcher does not poll on its own; tests call `watcher.tick()` with their clock. */
  watchLoop?: boolean;
  /** false: the monitor does not run on its own; tests call `monitor.tick()` with their clock. */
  monitorLoop?: boolean;
  /** false: the scheduler's loop is not started (tests call runtime.scheduler.tick()). */
  schedulerLoop?: boolean;
  /** Least time between two posts to one channel (default 1 s, Slack's pace). */
  postSpacingMs?: number;
  /** Bounds on work in flight after acks and when commands are shed (after-ack.ts defaults). */
  afterAck?: AfterAckLimits;
  /** false: waiting workflow steps move only when a test calls `steps.tick()`. */
  stepLoop?: boolean;
  /** How often a waiting workflow step is looked at again (default 10 s). */
  stepCheckMs?: number;
}

export interface Runtime {
  logger: Logger;
  /** The Prometheus registry and the tracer of this bot (issue 24). */
  telemetry: Telemetry;
  store: Store;
  /** One client per account for commands, one for the watcher (same pool, its own User-Agent). */
  accounts: CloudAccounts;
  policy: PolicySource;
  /** Reads the policy file again (SIGHUP): a bad file is refused and the old policy stays. */
  reloadPolicy(trigger: ReloadTrigger): Promise<ReloadOutcome>;
  sealer: Sealer;
  auditor: AuditorService;
  access: Access;
  watcher: Watcher;
  monitor: Monitor;
  /** Schedules (issue 25): tick() runs what is due. */
  scheduler: Scheduler;
  budget: RequestBudget;
  flow: ChangeFlow;
  /** The application core every surface calls (app/app-core.ts). */
  core: AppCore;
  /** Moves workflow steps that wait for a person or a watch (issue 23). */
  steps: StepDriver;
  app: BoltApp;
  slackApi: SlackApi;
  /**
   * Starts receiving; in HTTP mode resolves with the port actually bound (port 0 in tests); in
   * Socket Mode, /metrics's. Rejects ("stopped while starting") when a stop came first.
   */
  start(): Promise<{ port?: number; metricsPort?: number }>;
  /** Resolves when no listener work after an ack is under way (the shell waits for a reply so). */
  settled(): Promise<void>;
  /**
   * /readyz turns 503 and new requests are answered "restarting" at once; leases are released;
   * work in flight finishes (bounded); then the app, the pool (if its own) and the store close.
   */
  stop(): Promise<void>;
}
