/**
 * The only reader of `process.env` (DESIGN "Runtime contract"). Each part of the contract is
 * a zod schema; every bad or missing variable is reported at once, in one message, so a
 * person fixing `.env` does not have to restart once per mistake.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';

type Env = Record<string, string | undefined>;

/** Empty strings in `.env` mean "not set". */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

const port = (fallback: number) =>
  optional(z.coerce.number().int().min(0).max(65535)).transform((v) => v ?? fallback);

function isV2Url(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'https:' || u.protocol === 'http:') && /\/v2\/*$/.test(u.pathname);
  } catch {
    return false;
  }
}

/** The word that names the built-in sandbox cloud (DESIGN "Runtime contract"); only the local shell starts it. */
export const SANDBOX_WORD = 'sandbox';

const v2Url = z
  .string({ error: 'is required (the Cloud API base URL, ending in /v2)' })
  .refine((u) => u.trim() !== SANDBOX_WORD, { error: 'is `sandbox`, which only the local shell starts (SLACK_MODE=shell); for Slack, run `npm run sandbox` and use the URL it prints' })
  .refine((u) => u.trim() === SANDBOX_WORD || isV2Url(u), { error: 'must be an http(s) URL ending in /v2 (for example https://api.example.com/v2)' })
  .transform((u) => u.replace(/\/+$/, ''));

export const cloudEnvSchema = z.object({
  CLOUD_API_BASE_URL: v2Url,
  CLOUD_API_TOKEN: z
    .string({ error: 'is required (an API token from the account settings)' })
    .min(1, { error: 'is required (an API token from the account settings)' }),
});

export interface CloudConfig {
  baseUrl: string;
  token: string;
}

export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: port(8787),
  SANDBOX_TOKEN: optional(z.string().min(8, { error: 'must be at least 8 characters' })),
});

export interface SandboxConfig {
  port: number;
  /** Undefined: the sandbox generates one and prints it. */
  token: string | undefined;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example.`);
  }
}

function parse<T extends z.ZodType>(schema: T, env: Env, extraProblems: string[] = []): z.output<T> {
  const result = schema.safeParse(env);
  if (result.success && extraProblems.length === 0) return result.data;
  const problems = (result.success ? [] : result.error.issues).map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    // Never echo a value back: it may be a secret.
    return `${name} ${issue.message}`;
  });
  throw new ConfigError([...problems, ...extraProblems]);
}

const isSet = (v: string | undefined): v is string => typeof v === 'string' && v.trim() !== '';

export function loadCloudConfig(env: Env = process.env): CloudConfig {
  const e = parse(cloudEnvSchema, env);
  return { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN };
}

export function loadSandboxConfig(env: Env = process.env): SandboxConfig {
  const e = parse(sandboxEnvSchema, env);
  return { port: e.SANDBOX_PORT, token: e.SANDBOX_TOKEN };
}

// ── The bot (DESIGN "Runtime contract") ─────────────────────────────────────────────────────

/** How Slack reaches the bot; `shell` is the local shell (no Slack at all). */
export type SlackMode = 'socket' | 'http' | 'shell';
export type LogLevelName = 'debug' | 'info' | 'warn' | 'error';

/** A comma-separated list of Slack ids; each must match `pattern`. */
function idList(value: string, ctx: z.RefinementCtx, pattern: RegExp, what: string): string[] {
  const ids = value.split(',').map((v) => v.trim()).filter(Boolean);
  const bad = ids.filter((id) => !pattern.test(id));
  // Name the position, not the value: it is harmless here, but config errors never echo values.
  if (bad.length) ctx.addIssue({ code: 'custom', message: `has ${bad.length} entr${bad.length === 1 ? 'y' : 'ies'} that ${bad.length === 1 ? 'is' : 'are'} not ${what}` });
  return ids;
}

/** User ids (U…, W…) and user group ids (S…). */
const principals = optional(
  z.string().transform((v, ctx) => idList(v, ctx, /^[UWS][A-Z0-9]{2,}$/, 'a user id (U…/W…) or user group id (S…)')),
);

export const botEnvSchema = cloudEnvSchema
  .extend({
    SLACK_BOT_TOKEN: optional(z.string().regex(/^xoxb-/, { error: 'must be a bot token (xoxb-…)' })),
    SLACK_APP_TOKEN: optional(z.string().regex(/^xapp-/, { error: 'must be an app-level token (xapp-…)' })),
    SLACK_SIGNING_SECRET: optional(z.string().min(8, { error: 'looks too short for a signing secret' })),
    SLACK_MODE: optional(z.enum(['socket', 'http', 'shell'], { error: 'must be socket, http or shell' })),
    PORT: port(3000),
    SLACK_API_URL: optional(
      z.string().refine(isHttpUrl, { error: 'must be an http(s) URL, e.g. https://slack.com/api/' }),
    ),
    SLACK_START_TIMEOUT_MS: optional(
      z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0, { error: 'must be 0 (wait forever) or more' }),
    ),
    LOG_LEVEL: optional(z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be debug, info, warn or error' })),
    WATCH_INTERVAL_MS: optional(
      z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(1000, { error: 'must be at least 1000 (1 s)' }).max(600_000, { error: 'must be at most 600000 (10 min)' }),
    ),
    WATCH_BROADCAST: optional(z.enum(['final', 'failures', 'none'], { error: 'must be final, failures or none' })),
    WATCH_LEASE_MS: optional(
      z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(2000, { error: 'must be at least 2000 (2 s)' }).max(3_600_000, { error: 'must be at most 3600000 (1 h)' }),
    ),
    CLOUD_ADMINS: principals,
    CLOUD_OPERATORS: principals,
    CLOUD_VIEWERS: principals,
    CLOUD_CHANNELS: optional(
      z.string().transform((v, ctx) => idList(v, ctx, /^[CGD][A-Z0-9]{2,}$/, 'a channel id like C0123ABCD')),
    ),
    ACCESS_POLICY: optional(z.string().min(1)),
    CLOUD_APPROVAL: optional(z.enum(['destroy', 'none'], { error: 'must be destroy (or none)' })),
    AUDIT_CHANNEL: optional(z.string().regex(/^[CG][A-Z0-9]{2,}$/, { error: 'must be a channel id like C0123ABCD' })),
    DATABASE_URL: optional(
      z.string().refine((v) => /^sqlite:.+/.test(v) || isPostgresUrl(v), {
        error: 'must be sqlite:<path> (e.g. sqlite:./data/cloudbot.db) or postgres://user:password@host:5432/database',
      }),
    ).transform((v) => v ?? 'sqlite:./data/cloudbot.db'),
  });

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
  /** Path of a YAML file with per-channel roles. */
  policyFile: string | undefined;
  /** 'destroy': destroy operations need a second admin's approval. */
  approval: 'destroy' | undefined;
}

export interface BotConfig {
  slack: SlackConfig & { mode: 'socket' | 'http' };
  cloud: CloudConfig;
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

function isPostgresUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'postgres:' || u.protocol === 'postgresql:') && u.hostname !== '';
  } catch {
    return false;
  }
}

function databaseConfig(url: string): DatabaseConfig {
  return isPostgresUrl(url) ? { kind: 'postgres', url } : { kind: 'sqlite', path: url.slice('sqlite:'.length) };
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The mode the environment asks for: SLACK_MODE, else socket/http from the tokens, else the local shell. */
export function selectMode(env: Env): SlackMode | undefined {
  const forced = env.SLACK_MODE?.trim();
  if (forced) return forced === 'socket' || forced === 'http' || forced === 'shell' ? forced : undefined;
  if (isSet(env.SLACK_APP_TOKEN)) return 'socket';
  // Nothing about Slack is configured: a newcomer's first `npm start` gets the local shell.
  if (!isSet(env.SLACK_BOT_TOKEN) && !isSet(env.SLACK_SIGNING_SECRET)) return 'shell';
  return 'http';
}

/** Which tokens the chosen mode needs; checked apart from the schema so all problems show at once. */
function modeProblems(env: Env, mode: SlackMode | undefined): string[] {
  const problems: string[] = [];
  if (!isSet(env.SLACK_BOT_TOKEN)) problems.push('SLACK_BOT_TOKEN is required (the bot token, xoxb-…, from the app’s OAuth page)');
  if (mode === 'socket' && !isSet(env.SLACK_APP_TOKEN))
    problems.push('SLACK_APP_TOKEN is required in Socket Mode (an app-level token, xapp-…, with connections:write)');
  if (mode === 'http' && !isSet(env.SLACK_SIGNING_SECRET))
    problems.push('SLACK_SIGNING_SECRET is required in HTTP mode (from the app’s Basic Information page)');
  return problems;
}

/** What every mode shares: logging, the database, access, audit, watches. */
function common(e: z.output<typeof botEnvSchema>) {
  return {
    logLevel: e.LOG_LEVEL ?? ('info' as LogLevelName),
    database: databaseConfig(e.DATABASE_URL),
    databasePath: isPostgresUrl(e.DATABASE_URL) ? '' : e.DATABASE_URL.slice('sqlite:'.length),
    watch: {
      intervalMs: e.WATCH_INTERVAL_MS ?? 10_000,
      broadcast: e.WATCH_BROADCAST ?? ('final' as const),
      ...(e.WATCH_LEASE_MS !== undefined ? { leaseMs: e.WATCH_LEASE_MS } : {}),
    },
    access: {
      admins: e.CLOUD_ADMINS ?? [],
      operators: e.CLOUD_OPERATORS ?? [],
      viewers: e.CLOUD_VIEWERS,
      channels: e.CLOUD_CHANNELS?.length ? e.CLOUD_CHANNELS : undefined,
      policyFile: e.ACCESS_POLICY,
      approval: e.CLOUD_APPROVAL === 'destroy' ? ('destroy' as const) : undefined,
    },
    auditChannel: e.AUDIT_CHANNEL,
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
  const e = parse(botEnvSchema, env, modeProblems(env, mode));
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
    cloud: { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN },
    ...common(e),
  };
}

export function isShellConfig(config: BotConfig | ShellConfig): config is ShellConfig {
  return config.slack.mode === 'shell';
}

/** The shell's cloud: optional, `sandbox` or a /v2 URL; a real cloud needs its token. */
const shellEnvSchema = botEnvSchema.extend({
  CLOUD_API_BASE_URL: optional(
    z
      .string()
      .refine((u) => u.trim() === SANDBOX_WORD || isV2Url(u), { error: 'must be `sandbox` or an http(s) URL ending in /v2 (for example https://api.example.com/v2)' })
      .transform((u) => (u.trim() === SANDBOX_WORD ? SANDBOX_WORD : u.replace(/\/+$/, ''))),
  ),
  CLOUD_API_TOKEN: optional(z.string()),
});

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
    logLevel: e.LOG_LEVEL ?? 'warn',
    watch: { ...base.watch, intervalMs: e.WATCH_INTERVAL_MS ?? (sandbox ? 3000 : base.watch.intervalMs) },
  };
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
