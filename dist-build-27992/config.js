/**
 * The only reader of `process.env` (DESIGN "Runtime contract"). Each part of the contract is
 * a zod schema; every bad or missing variable is reported at once, in one message, so a
 * person fixing `.env` does not have to restart once per mistake.
 */
import { existsSync } from 'node:fs';
import { z } from 'zod';
import { isHttpUrl, isPostgresUrl, isV2Url } from './urls.js';
import { idList, optional, port, principals, whole } from './config-fields.js';
/** The word that names the built-in sandbox cloud (DESIGN "Runtime contract"); only the local shell starts it. */
export const SANDBOX_WORD = 'sandbox';
const v2Url = z
    .string({ error: 'is required (the Cloud API base URL, ending in /v2)' })
    .refine((u) => u.trim() !== '', { error: 'is required (the Cloud API base URL, ending in /v2)', abort: true })
    .refine((u) => u.trim() !== SANDBOX_WORD, { error: 'is `sandbox`, which only the local shell starts (SLACK_MODE=shell); for Slack, run `npm run sandbox` and use the URL it prints' })
    .refine((u) => u.trim() === SANDBOX_WORD || isV2Url(u), { error: 'must be an http(s) URL ending in /v2 (for example https://api.example.com/v2)' })
    .transform((u) => u.replace(/\/+$/, ''));
export const cloudEnvSchema = z.object({
    CLOUD_API_BASE_URL: v2Url,
    CLOUD_API_TOKEN: z
        .string({ error: 'is required (an API token from the account settings)' })
        .min(1, { error: 'is required (an API token from the account settings)' }),
});
export const sandboxEnvSchema = z.object({
    SANDBOX_PORT: port(8787),
    SANDBOX_TOKEN: optional(z.string().min(8, { error: 'must be at least 8 characters' })),
});
export class ConfigError extends Error {
    problems;
    name = 'ConfigError';
    constructor(problems) {
        super(`Configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}\nSee .env.example.`);
        this.problems = problems;
    }
}
function parse(schema, env, extraProblems = []) {
    // Every schema words its own problems; zod's words, should one be missed, never reach a person.
    const result = schema.safeParse(env, { error: (i) => (i.code === 'invalid_type' && i.input === undefined ? 'is required' : 'is not a value that is accepted here (see .env.example)') });
    if (result.success && extraProblems.length === 0)
        return result.data;
    const problems = (result.success ? [] : result.error.issues).map((issue) => {
        const name = issue.path.join('.') || '(environment)';
        // Never echo a value back: it may be a secret.
        return `${name} ${issue.message}`;
    });
    throw new ConfigError([...problems, ...extraProblems]);
}
const isSet = (v) => typeof v === 'string' && v.trim() !== '';
export function loadCloudConfig(env = process.env) {
    const e = parse(cloudEnvSchema, env);
    return { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN };
}
export function loadSandboxConfig(env = process.env) {
    const e = parse(sandboxEnvSchema, env);
    return { port: e.SANDBOX_PORT, token: e.SANDBOX_TOKEN };
}
// ── The bot (DESIGN "Runtime contract") ─────────────────────────────────────────────────────
export const botEnvSchema = cloudEnvSchema
    .extend({
    SLACK_BOT_TOKEN: optional(z.string().regex(/^xoxb-/, { error: 'must be a bot token (xoxb-…)' })),
    SLACK_APP_TOKEN: optional(z.string().regex(/^xapp-/, { error: 'must be an app-level token (xapp-…)' })),
    SLACK_SIGNING_SECRET: optional(z.string().min(8, { error: 'looks too short for a signing secret' })),
    SLACK_MODE: optional(z.enum(['socket', 'http', 'shell'], { error: 'must be socket, http or shell' })),
    PORT: port(3000),
    SLACK_API_URL: optional(z.string().refine(isHttpUrl, { error: 'must be an http(s) URL, e.g. https://slack.com/api/' })),
    SLACK_START_TIMEOUT_MS: optional(z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(0, { error: 'must be 0 (wait forever) or more' })),
    LOG_LEVEL: optional(z.enum(['debug', 'info', 'warn', 'error'], { error: 'must be debug, info, warn or error' })),
    WATCH_INTERVAL_MS: optional(z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(1000, { error: 'must be at least 1000 (1 s)' }).max(600_000, { error: 'must be at most 600000 (10 min)' })),
    WATCH_BROADCAST: optional(z.enum(['final', 'failures', 'none'], { error: 'must be final, failures or none' })),
    WATCH_LEASE_MS: optional(z.coerce.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number of milliseconds' }).min(2000, { error: 'must be at least 2000 (2 s)' }).max(3_600_000, { error: 'must be at most 3600000 (1 h)' })),
    CLOUD_ADMINS: principals,
    CLOUD_OPERATORS: principals,
    CLOUD_VIEWERS: principals,
    CLOUD_CHANNELS: optional(z.string().transform((v, ctx) => idList(v, ctx, /^[CGD][A-Z0-9]{2,}$/, 'a channel id like C0123ABCD'))),
    SUBSCRIPTION_INTERVAL_MS: whole(5000, 3_600_000, 'milliseconds'),
    CLOUD_REQUESTS_PER_MINUTE: whole(1, 100_000, 'requests per minute'),
    ALERT_HOLD_POLLS: whole(1, 10, 'polls'),
    ACCESS_POLICY: optional(z.string({ error: 'must be the path of the policy file' })),
    ACCESS_POLICY_RELOAD_MS: optional(z.coerce
        .number({ error: 'must be a number of milliseconds (0: reload on SIGHUP only)' })
        .int({ error: 'must be a whole number of milliseconds (0: reload on SIGHUP only)' })
        .refine((v) => v === 0 || v >= 1000, { error: 'must be 0 (reload on SIGHUP only) or at least 1000 (1 s)' })),
    CLOUD_APPROVAL: optional(z.enum(['destroy', 'none'], { error: 'must be destroy (or none)' })),
    AUDIT_CHANNEL: optional(z.string().regex(/^[CG][A-Z0-9]{2,}$/, { error: 'must be a channel id like C0123ABCD' })),
    DATABASE_URL: optional(z.string().refine((v) => /^sqlite:.+/.test(v) || isPostgresUrl(v), {
        error: 'must be sqlite:<path> (e.g. sqlite:./data/cloudbot.db) or postgres://user:password@host:5432/database',
    })).transform((v) => v ?? 'sqlite:./data/cloudbot.db'),
});
function databaseConfig(url) {
    return isPostgresUrl(url) ? { kind: 'postgres', url } : { kind: 'sqlite', path: url.slice('sqlite:'.length) };
}
/** The mode the environment asks for: SLACK_MODE, else socket/http from the tokens, else the local shell. */
export function selectMode(env) {
    const forced = env.SLACK_MODE?.trim();
    if (forced)
        return forced === 'socket' || forced === 'http' || forced === 'shell' ? forced : undefined;
    if (isSet(env.SLACK_APP_TOKEN))
        return 'socket';
    // Nothing about Slack is configured: a newcomer's first `npm start` gets the local shell.
    if (!isSet(env.SLACK_BOT_TOKEN) && !isSet(env.SLACK_SIGNING_SECRET))
        return 'shell';
    return 'http';
}
/** Which tokens the chosen mode needs; checked apart from the schema so all problems show at once. */
function modeProblems(env, mode) {
    const problems = [];
    if (!isSet(env.SLACK_BOT_TOKEN))
        problems.push('SLACK_BOT_TOKEN is required (the bot token, xoxb-…, from the app’s OAuth page)');
    if (mode === 'socket' && !isSet(env.SLACK_APP_TOKEN))
        problems.push('SLACK_APP_TOKEN is required in Socket Mode (an app-level token, xapp-…, with connections:write)');
    if (mode === 'http' && !isSet(env.SLACK_SIGNING_SECRET)) {
        // Chosen from the tokens, not by SLACK_MODE: Socket Mode (an app token) may be what was meant.
        const orSocket = env.SLACK_MODE?.trim() ? '' : '; or, for Socket Mode, set SLACK_APP_TOKEN (an app-level token, xapp-…, with connections:write)';
        problems.push(`SLACK_SIGNING_SECRET is required in HTTP mode (from the app’s Basic Information page)${orSocket}`);
    }
    return problems;
}
/** What every mode shares: logging, the database, access, audit, watches. */
function common(e) {
    return {
        logLevel: e.LOG_LEVEL ?? 'info',
        database: databaseConfig(e.DATABASE_URL),
        databasePath: isPostgresUrl(e.DATABASE_URL) ? '' : e.DATABASE_URL.slice('sqlite:'.length),
        watch: {
            intervalMs: e.WATCH_INTERVAL_MS ?? 10_000,
            broadcast: e.WATCH_BROADCAST ?? 'final',
            ...(e.WATCH_LEASE_MS !== undefined ? { leaseMs: e.WATCH_LEASE_MS } : {}),
        },
        access: {
            admins: e.CLOUD_ADMINS ?? [],
            operators: e.CLOUD_OPERATORS ?? [],
            viewers: e.CLOUD_VIEWERS,
            channels: e.CLOUD_CHANNELS?.length ? e.CLOUD_CHANNELS : undefined,
            policyFile: e.ACCESS_POLICY,
            policyReloadMs: e.ACCESS_POLICY_RELOAD_MS ?? 60_000,
            approval: e.CLOUD_APPROVAL === 'destroy' ? 'destroy' : undefined,
        },
        auditChannel: e.AUDIT_CHANNEL,
        monitor: {
            intervalMs: e.SUBSCRIPTION_INTERVAL_MS ?? 60_000,
            requestsPerMinute: e.CLOUD_REQUESTS_PER_MINUTE ?? 1200,
            holdPolls: e.ALERT_HOLD_POLLS ?? 2,
        },
    };
}
/**
 * The bot's configuration for the chosen mode. Socket and HTTP need Slack's tokens and a
 * cloud; the local shell needs neither (no CLOUD_API_BASE_URL, or `sandbox`, means the
 * built-in sandbox). Every problem is named in one ConfigError.
 */
export function loadBotConfig(env = process.env) {
    const mode = selectMode(env);
    if (mode === 'shell')
        return loadShellConfig(env);
    // With a policy file, the accounts may all be declared there (checked when it is read).
    const withPolicy = isSet(env.ACCESS_POLICY) && !isSet(env.CLOUD_API_BASE_URL) && !isSet(env.CLOUD_API_TOKEN);
    const e = parse(withPolicy ? botEnvSchema.extend({ CLOUD_API_BASE_URL: optional(v2Url), CLOUD_API_TOKEN: optional(z.string()) }) : botEnvSchema, env, modeProblems(env, mode));
    return {
        slack: {
            mode: mode === 'socket' ? 'socket' : 'http',
            botToken: e.SLACK_BOT_TOKEN,
            appToken: e.SLACK_APP_TOKEN,
            signingSecret: e.SLACK_SIGNING_SECRET,
            port: e.PORT,
            apiUrl: e.SLACK_API_URL,
            ...(e.SLACK_START_TIMEOUT_MS !== undefined ? { startTimeoutMs: e.SLACK_START_TIMEOUT_MS } : {}),
        },
        cloud: e.CLOUD_API_BASE_URL && e.CLOUD_API_TOKEN ? { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN } : undefined,
        ...common(e),
    };
}
export function isShellConfig(config) {
    return config.slack.mode === 'shell';
}
/** The shell's cloud: optional, `sandbox` or a /v2 URL; a real cloud needs its token. */
const shellEnvSchema = botEnvSchema.extend({
    CLOUD_API_BASE_URL: optional(z
        .string()
        .refine((u) => u.trim() === SANDBOX_WORD || isV2Url(u), { error: 'must be `sandbox` or an http(s) URL ending in /v2 (for example https://api.example.com/v2)' })
        .transform((u) => (u.trim() === SANDBOX_WORD ? SANDBOX_WORD : u.replace(/\/+$/, '')))),
    CLOUD_API_TOKEN: optional(z.string()),
});
function loadShellConfig(env) {
    const url = env.CLOUD_API_BASE_URL?.trim();
    const sandbox = !url || url === SANDBOX_WORD;
    const noToken = 'CLOUD_API_TOKEN is required when CLOUD_API_BASE_URL names a cloud (leave CLOUD_API_BASE_URL empty, or set it to `sandbox`, for the built-in sandbox)';
    const e = parse(shellEnvSchema, env, !sandbox && !isSet(env.CLOUD_API_TOKEN) ? [noToken] : []);
    const base = common({ ...e, CLOUD_API_BASE_URL: '', CLOUD_API_TOKEN: '' });
    return {
        ...base,
        slack: { mode: 'shell' },
        cloud: sandbox ? undefined : { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN },
        // The sandbox forgets everything when the shell ends, so by default the bot's records do too.
        databasePath: isSet(env.DATABASE_URL) || !sandbox ? base.databasePath : ':memory:',
        database: isSet(env.DATABASE_URL) || !sandbox ? base.database : { kind: 'sqlite', path: ':memory:' },
        // Errors only: a warning would print between answers and restate them (LOG_LEVEL=warn shows them).
        logLevel: e.LOG_LEVEL ?? 'error',
        watch: { ...base.watch, intervalMs: e.WATCH_INTERVAL_MS ?? (sandbox ? 3000 : base.watch.intervalMs) },
        monitor: { ...base.monitor, intervalMs: e.SUBSCRIPTION_INTERVAL_MS ?? (sandbox ? 10_000 : base.monitor.intervalMs) },
    };
}
/** Whether an environment variable is set (an account's token_env), without reading it out. */
export function envIsSet(name, env = process.env) {
    return isSet(env[name]);
}
/** An account's token, from the variable its policy names (config.ts is the only reader of the environment). */
export function envToken(name, env = process.env) {
    const v = env[name];
    return isSet(v) ? v.trim() : undefined;
}
/**
 * Reads `.env` from the working directory into the environment, if there is one. Variables
 * already set win, so a deployment's real environment is never overridden by a stray file.
 */
export function loadDotEnv(path = '.env') {
    if (!existsSync(path))
        return false;
    process.loadEnvFile(path);
    return true;
}
// ── The bench (`npm run bench`, not the bot) ────────────────────────────────────────────────
/** CI's PostgreSQL service (trust auth, database `test`). */
export const DEFAULT_BENCH_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
/** The PostgreSQL server the bench measures on: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else CI's. */
export function loadBenchDatabaseUrl(env = process.env) {
    return [env.BENCH_DATABASE_URL, env.TEST_DATABASE_URL].find(isSet)?.trim() ?? DEFAULT_BENCH_DATABASE_URL;
}
//# sourceMappingURL=config.js.map