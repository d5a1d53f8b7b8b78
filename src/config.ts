/**
 * The only reader of `process.env` (DESIGN "Runtime contract"). Each part of the contract is
 * a zod schema; every bad or missing variable is reported at once, in one message, so a
 * person fixing `.env` does not have to restart once per mistake.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { isPostgresUrl } from './urls.js';
import { isSet, optional } from './config-fields.js';
import type { BotConfig, CloudConfig, DatabaseConfig, LogLevelName, ShellConfig } from './config-types.js';
import { telemetryConfig, telemetryEnvSchema } from './config-telemetry.js';
import { cloudEnvSchema, SANDBOX_WORD, sandboxEnvSchema, shellCloudEnvSchema, v2Url, type SandboxConfig } from './config-cloud.js';
import { modeProblems, selectMode, slackEnvSchema } from './config-slack.js';
import { accessConfig, accessEnvSchema } from './config-access.js';
import { timingConfig, timingEnvSchema } from './config-timing.js';
import { unfurlConfig, unfurlEnvSchema } from './config-unfurl.js';

export type { TelemetryConfig, TracesConfig } from './config-telemetry.js';
export type { UnfurlConfig, AccessConfig, BotConfig, CloudConfig, DatabaseConfig, LogLevelName, MonitorConfig, ShellConfig, SlackConfig, SlackMode } from './config-types.js';
// Each part of the contract is declared beside this file (config-*.ts); these names are the contract's own.
export { cloudEnvSchema, SANDBOX_WORD, sandboxEnvSchema, type SandboxConfig } from './config-cloud.js';
export { selectMode } from './config-slack.js';
export { DEFAULT_SHUTDOWN_DELAY_MS, DEFAULT_SHUTDOWN_TIMEOUT_MS } from './config-timing.js';

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example.`);
  }
}

function parse<T extends z.ZodType>(schema: T, env: Env, extraProblems: string[] = []): z.output<T> {
  // Every schema words its own problems; zod's words, should one be missed, never reach a person.
  const result = schema.safeParse(env, { error: (i) => (i.code === 'invalid_type' && i.input === undefined ? 'is required' : 'is not a value that is accepted here (see .env.example)') });
  if (result.success && extraProblems.length === 0) return result.data;
  const problems = (result.success ? [] : result.error.issues).map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    // Never echo a value back: it may be a secret.
    return `${name} ${issue.message}`;
  });
  throw new ConfigError([...problems, ...extraProblems]);
}

export function loadCloudConfig(env: Env = process.env): CloudConfig {
  const e = parse(cloudEnvSchema, env);
  return { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN };
}

export function loadSandboxConfig(env: Env = process.env): SandboxConfig {
  const e = parse(sandboxEnvSchema, env);
  return { port: e.SANDBOX_PORT, token: e.SANDBOX_TOKEN };
}

// ── The bot (DESIGN "Runtime contract") ─────────────────────────────────────────────────────

export const botEnvSchema = cloudEnvSchema.extend({
  ...slackEnvSchema,
  ...timingEnvSchema,
  LOG_LEVEL: optional(z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be debug, info, warn or error' })),
  ...accessEnvSchema,
  ...unfurlEnvSchema,
  DATABASE_URL: optional(
    z.string().refine((v) => /^sqlite:.+/.test(v) || isPostgresUrl(v), {
      error: 'must be sqlite:<path> (e.g. sqlite:./data/cloudbot.db) or postgres://user:password@host:5432/database',
    }),
  ).transform((v) => v ?? 'sqlite:./data/cloudbot.db'),
  // Metrics and traces (config-telemetry.ts).
  ...telemetryEnvSchema,
});

function databaseConfig(url: string): DatabaseConfig {
  return isPostgresUrl(url) ? { kind: 'postgres', url } : { kind: 'sqlite', path: url.slice('sqlite:'.length) };
}

/** What every mode shares: logging, the database, access, audit, watches (each part maps its own: config-*.ts). */
function common(e: z.output<typeof botEnvSchema>) {
  return {
    logLevel: e.LOG_LEVEL ?? ('info' as LogLevelName),
    database: databaseConfig(e.DATABASE_URL),
    databasePath: isPostgresUrl(e.DATABASE_URL) ? '' : e.DATABASE_URL.slice('sqlite:'.length),
    access: accessConfig(e),
    auditChannel: e.AUDIT_CHANNEL,
    unfurl: unfurlConfig(e),
    ...timingConfig(e),
    telemetry: telemetryConfig(e),
  };
}

/**
 * The bot's configuration for the chosen mode. Socket and HTTP need Slack's tokens and a
 * cloud; the local shell needs neither (no CLOUD_API_BASE_URL, or `sandbox`, means the
 * built-in sandbox). Every problem is named in one ConfigError.
 */
export function loadBotConfig(env: Env = process.env): BotConfig | ShellConfig {
  const mode = selectMode(env);
  if (mode === 'shell') return loadShellConfig(env);
  // With a policy file, the accounts may all be declared there (checked when it is read).
  const withPolicy = isSet(env.ACCESS_POLICY) && !isSet(env.CLOUD_API_BASE_URL) && !isSet(env.CLOUD_API_TOKEN);
  const e = parse(withPolicy ? botEnvSchema.extend({ CLOUD_API_BASE_URL: optional(v2Url), CLOUD_API_TOKEN: optional(z.string()) }) : botEnvSchema, env, modeProblems(env, mode));
  return {
    slack: {
      mode: mode === 'socket' ? 'socket' : 'http',
      botToken: e.SLACK_BOT_TOKEN!,
      appToken: e.SLACK_APP_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      port: e.PORT,
      apiUrl: e.SLACK_API_URL,
      ...(e.SLACK_START_TIMEOUT_MS !== undefined ? { startTimeoutMs: e.SLACK_START_TIMEOUT_MS } : {}),
    },
    cloud: e.CLOUD_API_BASE_URL && e.CLOUD_API_TOKEN ? { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN } : undefined,
    ...common(e as z.output<typeof botEnvSchema>),
  };
}

/**
 * Where this process answers `/readyz`, for the container's HEALTHCHECK (src/healthcheck.ts):
 * PORT in HTTP mode, METRICS_PORT (its own small listener) in Socket Mode; the shell has none.
 */
export function loadHealthPort(env: Env = process.env): number | undefined {
  const mode = selectMode(env);
  if (mode !== 'socket' && mode !== 'http') return undefined;
  const e = parse(z.object({ PORT: slackEnvSchema.PORT, METRICS_PORT: telemetryEnvSchema.METRICS_PORT }), env);
  return mode === 'socket' ? e.METRICS_PORT : e.PORT;
}

export function isShellConfig(config: BotConfig | ShellConfig): config is ShellConfig {
  return config.slack.mode === 'shell';
}

/** The shell's cloud: optional, `sandbox` or a /v2 URL; a real cloud needs its token. */
const shellEnvSchema = botEnvSchema.extend(shellCloudEnvSchema);

function loadShellConfig(env: Env): ShellConfig {
  const url = env.CLOUD_API_BASE_URL?.trim();
  const sandbox = !url || url === SANDBOX_WORD;
  const noToken = 'CLOUD_API_TOKEN is required when CLOUD_API_BASE_URL names a cloud (leave CLOUD_API_BASE_URL empty, or set it to `sandbox`, for the built-in sandbox)';
  const e = parse(shellEnvSchema, env, !sandbox && !isSet(env.CLOUD_API_TOKEN) ? [noToken] : []);
  const base = common({ ...e, CLOUD_API_BASE_URL: '', CLOUD_API_TOKEN: '' });
  return {
    ...base,
    slack: { mode: 'shell' },
    cloud: sandbox ? undefined : { baseUrl: e.CLOUD_API_BASE_URL!, token: e.CLOUD_API_TOKEN! },
    // The sandbox forgets everything when the shell ends, so by default the bot's records do too.
    databasePath: isSet(env.DATABASE_URL) || !sandbox ? base.databasePath : ':memory:',
    database: isSet(env.DATABASE_URL) || !sandbox ? base.database : { kind: 'sqlite', path: ':memory:' },
    // Errors only: a warning would print between answers and restate them (LOG_LEVEL=warn shows them).
    logLevel: e.LOG_LEVEL ?? 'error',
    watch: { ...base.watch, intervalMs: e.WATCH_INTERVAL_MS ?? (sandbox ? 3000 : base.watch.intervalMs) },
    monitor: { ...base.monitor, intervalMs: e.SUBSCRIPTION_INTERVAL_MS ?? (sandbox ? 10_000 : base.monitor.intervalMs) },
    // The sandbox's workers answer under workers.example.net; its "panel" is a made-up address the shell unfurls.
    unfurl: sandbox ? { panelUrl: 'https://panel.example.net', workersDomain: 'workers.example.net', ...base.unfurl } : base.unfurl,
  };
}

/** Whether an environment variable is set (an account's token_env), without reading it out. */
export function envIsSet(name: string, env: Env = process.env): boolean {
  return isSet(env[name]);
}

/** An account's token, from the variable its policy names (config.ts is the only reader of the environment). */
export function envToken(name: string, env: Env = process.env): string | undefined {
  const v = env[name];
  return isSet(v) ? v.trim() : undefined;
}

/**
 * Reads `.env` from the working directory into the environment, if there is one. Variables
 * already set win, so a deployment's real environment is never overridden by a stray file.
 */
export function loadDotEnv(path = '.env'): boolean {
  if (!existsSync(path)) return false;
  process.loadEnvFile(path);
  return true;
}

// ── The bench (`npm run bench`, not the bot) ────────────────────────────────────────────────

/** CI's PostgreSQL service (trust auth, database `test`). */
export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** The PostgreSQL server the bench measures on: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else CI's. */
export function loadBenchDatabaseUrl(env: Env = process.env): string {
  return [env.BENCH_DATABASE_URL, env.TEST_DATABASE_URL].find(isSet)?.trim() ?? DEFAULT_BENCH_DATABASE_URL;
}
