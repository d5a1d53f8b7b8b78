/** What the alert-scale section (bench/alert-scale.ts) measures, as it hands it to bench/run.ts. */
import type { Summary } from './stats.js';

export interface AlertScaleResult {
  /** Where the subscriptions, alerts and watches live. */
  store: 'sqlite' | 'postgres';
  subscriptions: number;
  servers: number;
  channels: number;
  watches: number;
  watchesEnded: number;
  monitorIntervalMs: number;
  holdPolls: number;
  recheckMs: number;
  watchIntervalMs: number;
  budget: { perMinute: number; burst: number; demandPerMinute: number; taken: number; waitedMs: number };
  simulatedMs: number;
  steps: number;
  stepMs: number;
  /** Cloud requests by simulated minute: the most in any sliding 60 s window, and the mean. */
  requests: { total: number; monitor: number; watcher: number; maxPerMinute: number; meanPerMinute: number };
  held: { changes: number; expectedAlerts: number; alertPosts: number; resolveEdits: number; followUps: number; missing: number };
  /** Simulated ms from the sandbox's change to the Slack call showing it in a channel. */
  delayMs: { fire: Summary; resolve: Summary; all: Summary; followUp: Summary };
  flaps: { scheduled: number; seen: number; posts: number };
  postsWithoutChange: number;
  eventLoop: { resolutionMs: number; p50Ms: number; p99Ms: number; maxMs: number };
  tickMs: { p99: number; max: number };
  /** Simulated duration of the monitor's passes (a pass waits for its alerts' Slack calls). */
  monitorPassMs: { p50: number; p99: number; max: number };
  rss: { startMb: number; peakMb: number; endMb: number };
  /** Node flags of this run (the start script's heap cap when run as `npm start` runs the bot). */
  nodeFlags: string[];
  logLines: number;
  wallMs: number;
  /** Set when the run stopped at a limit before its scenario ended (missing alerts are then unsimulated, not lost). */
  cutShort?: string;
}
