/**
 * The cloud part of the runtime contract: CLOUD_API_BASE_URL (a /v2 URL, or `sandbox` for the
 * local shell) and CLOUD_API_TOKEN, and the sandbox's own SANDBOX_*. Pure zod: config.ts alone
 * reads the environment.
 */
import { z } from 'zod';
import { optional, port } from './config-fields.js';
import { isV2Url } from './urls.js';

/** The word that names the built-in sandbox cloud (DESIGN "Runtime contract"); only the local shell starts it. */
export const SANDBOX_WORD = 'sandbox';

export const v2Url = z
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

/** The shell's cloud: optional, `sandbox` or a /v2 URL; a real cloud needs its token (checked by config.ts). */
export const shellCloudEnvSchema = {
  CLOUD_API_BASE_URL: optional(
    z
      .string()
      .refine((u) => u.trim() === SANDBOX_WORD || isV2Url(u), { error: 'must be `sandbox` or an http(s) URL ending in /v2 (for example https://api.example.com/v2)' })
      .transform((u) => (u.trim() === SANDBOX_WORD ? SANDBOX_WORD : u.replace(/\/+$/, ''))),
  ),
  CLOUD_API_TOKEN: optional(z.string()),
};

export const sandboxEnvSchema = z.object({
  SANDBOX_PORT: port(8787),
  SANDBOX_TOKEN: optional(z.string().min(8, { error: 'must be at least 8 characters' })),
});

export interface SandboxConfig {
  port: number;
  /** Undefined: the sandbox generates one and prints it. */
  token: string | undefined;
}
