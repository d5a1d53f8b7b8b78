/**
 * How often and how long (the runtime contract's timing): watches, subscriptions and alerts,
 * the shared request budget, schedules' grace for missed runs, and a stop's bounds. Pure zod:
 * config.ts alone reads the environment.
 */
import { z } from 'zod';
import { optional, whole } from './config-fields.js';

/** How long a stopping bot lets work it already took finish (SHUTDOWN_TIMEOUT_MS). */
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 15_000;
/** How long a stopping replica keeps its HTTP port open for the load balancer to notice (SHUTDOWN_DELAY_MS). */
export const DEFAULT_SHUTDOWN_DELAY_MS = 2000;

export const timingEnvSchema = {
  SHUTDOWN_TIMEOUT_MS: whole(1000, 600_000, 'milliseconds'),
  SHUTDOWN_DELAY_MS: optional(
    z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(0, { error: 'must be 0 or more' }).max(60_000, { error: 'must be at most 60000 (1 min)' }),
  ),
  WATCH_INTERVAL_MS: optional(
    z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(1000, { error: 'must be at least 1000 (1 s)' }).max(600_000, { error: 'must be at most 600000 (10 min)' }),
  ),
  WATCH_BROADCAST: optional(z.enum(['final', 'failures', 'none'], { error: 'must be final, failures or none' })),
  WATCH_LEASE_MS: optional(
    z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(2000, { error: 'must be at least 2000 (2 s)' }).max(3_600_000, { error: 'must be at most 3600000 (1 h)' }),
  ),
  SUBSCRIPTION_INTERVAL_MS: whole(5000, 3_600_000, 'milliseconds'),
  CLOUD_REQUESTS_PER_MINUTE: whole(1, 100_000, 'requests per minute'),
  ALERT_HOLD_POLLS: whole(1, 10, 'polls'),
  SCHEDULE_GRACE_MS: whole(0, 7 * 86_400_000, 'milliseconds'),
};

type TimingEnv = z.output<z.ZodObject<typeof timingEnvSchema>>;

/** Watches, the stop's bounds, schedules and the monitor, with their defaults. */
export function timingConfig(e: TimingEnv) {
  return {
    watch: {
      intervalMs: e.WATCH_INTERVAL_MS ?? 10_000,
      broadcast: e.WATCH_BROADCAST ?? ('final' as const),
      ...(e.WATCH_LEASE_MS !== undefined ? { leaseMs: e.WATCH_LEASE_MS } : {}),
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? DEFAULT_SHUTDOWN_TIMEOUT_MS,
    shutdownDelayMs: e.SHUTDOWN_DELAY_MS ?? DEFAULT_SHUTDOWN_DELAY_MS,
    // A scheduled run missed while every replica was down still runs this late, else is skipped (default 1 h).
    schedule: { graceMs: e.SCHEDULE_GRACE_MS ?? 3_600_000 },
    monitor: {
      intervalMs: e.SUBSCRIPTION_INTERVAL_MS ?? 60_000,
      requestsPerMinute: e.CLOUD_REQUESTS_PER_MINUTE ?? 1200,
      holdPolls: e.ALERT_HOLD_POLLS ?? 2,
    },
  };
}
