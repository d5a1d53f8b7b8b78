/**
 * The only reader of `process.env` (DESIGN "Runtime contract"). Each part of the contract is
 * a zod schema; every bad or missing variable is reported at once, in one message, so a
 * person fixing `.env` does not have to restart once per mistake.
 */
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

export const cloudEnvSchema = z.object({
  CLOUD_API_BASE_URL: z
    .string({ error: 'is required (the Cloud API base URL, ending in /v2)' })
    .refine(isV2Url, { error: 'must be an http(s) URL ending in /v2 (for example https://api.example.com/v2)' })
    .transform((u) => u.replace(/\/+$/, '')),
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

function parse<T extends z.ZodType>(schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.') || '(environment)';
    // Never echo a value back: it may be a secret.
    return `${name} ${issue.message}`;
  });
  throw new ConfigError(problems);
}

export function loadCloudConfig(env: Env = process.env): CloudConfig {
  const e = parse(cloudEnvSchema, env);
  return { baseUrl: e.CLOUD_API_BASE_URL, token: e.CLOUD_API_TOKEN };
}

export function loadSandboxConfig(env: Env = process.env): SandboxConfig {
  const e = parse(sandboxEnvSchema, env);
  return { port: e.SANDBOX_PORT, token: e.SANDBOX_TOKEN };
}
