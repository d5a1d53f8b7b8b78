/**
 * The shapes config.ts produces (DESIGN "Runtime contract"): what each part of the bot is
 * given. Types only; config.ts alone reads the environment.
 */

import type { TelemetryConfig } from './config-telemetry.js';
import type { SlackMode } from './config-slack.js';

export type { SlackMode } from './config-slack.js';
export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

export interface CloudConfig {
  baseUrl: string;
  token: string;
}

export interface SlackConfig {
  mode: SlackMode;
  botToken: string;
  appToken: string | undefined;
  signingSecret: string | undefined;
  port: number;
  /** Web API base URL override (proxies, tests); undefined → Slack's own. */
  apiUrl: string | undefined;
  /** How long start-up waits for Slack to answer auth.test (0: forever); default 5 minutes. */
  startTimeoutMs?: number;
}

export interface AccessConfig {
  admins: string[];
  operators: string[];
  /** Undefined when CLOUD_VIEWERS is not set: then anyone on no list is a viewer. */
  viewers: string[] | undefined;
  /** Undefined or empty: commands are taken in any channel. */
  channels: string[] | undefined;
  /** Path of the policy file (YAML: accounts, channel guardrails, per-channel roles). */
  policyFile: string | undefined;
  /** How often the policy file is read again (0: only on SIGHUP). */
  policyReloadMs?: number;
  /** 'destroy': destroy operations need a second admin's approval. */
  approval: 'destroy' | undefined;
  /** Who set the role lists when not the environment (the local shell makes its one person an admin). */
  rolesFrom?: string;
}

export interface MonitorConfig {
  /** How often each subscribed resource is polled. */
  intervalMs: number;
  /** The cloud requests per minute the watcher and the monitor share (per replica). */
  requestsPerMinute: number;
  /** Polls in a row a new state must hold before an alert. */
  holdPolls: number;
}

/** Which links unfurl (issue 23): the provider's panel pages and its workers' addresses. */
export interface UnfurlConfig {
  /** CLOUD_PANEL_URL: the panel's base URL (`<base>/servers/<id>`, `/workers/<uuid>`, `/security-groups/<id>`). */
  panelUrl?: string;
  /** CLOUD_WORKERS_DOMAIN: workers answer at `<name>.<domain>`. */
  workersDomain?: string;
}

export interface BotConfig {
  slack: SlackConfig & { mode: 'socket' | 'http' };
  /** The environment's one account; undefined when the policy file declares the accounts. */
  cloud: CloudConfig | undefined;
  logLevel: LogLevelName;
  /** File path of the SQLite database (from `sqlite:<path>`); '' when `database` is PostgreSQL. */
  databasePath: string;
  /** Where the records live: the embedded SQLite file, or a PostgreSQL server shared by replicas. */
  database: DatabaseConfig;
  access: AccessConfig;
  /** Channel id where every operation is also posted (the audit trail). */
  auditChannel: string | undefined;
  watch: {
    /** Base poll interval of watches. */
    intervalMs: number;
    /** Which final states are broadcast to the channel. */
    broadcast: 'final' | 'failures' | 'none';
    /** How long a replica holds a watch it polls; a dead replica's watches move on after it. */
    leaseMs?: number;
  };
  /** Subscriptions and alerts (issue 13). */
  monitor: MonitorConfig;
  /** Prometheus metrics and OpenTelemetry traces (issue 24). */
  telemetry: TelemetryConfig;
  unfurl: UnfurlConfig;
  /** On SIGTERM: how long work already taken may take to finish before the bot stops anyway. */
  shutdownTimeoutMs: number;
  /** HTTP mode, on SIGTERM: how long the port stays open (answering "restarting") for the load balancer to see /readyz 503. */
  shutdownDelayMs: number;
  /** Schedules (issue 25): how late a run missed during downtime may still run (SCHEDULE_GRACE_MS). */
  schedule: { graceMs: number };
}

/**
 * The local shell (SLACK_MODE=shell, or no Slack variables at all): the same bot, driven from
 * the terminal. Slack's tokens are not needed; `cloud` undefined means the built-in sandbox.
 */
export interface ShellConfig extends Omit<BotConfig, 'slack' | 'cloud'> {
  slack: { mode: 'shell' };
  cloud: CloudConfig | undefined;
}

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
