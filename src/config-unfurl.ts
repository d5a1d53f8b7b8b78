/**
 * The unfurl part of the runtime contract (issue 23): which links the bot unfurls, the panel's
 * base URL (CLOUD_PANEL_URL) and the workers' domain (CLOUD_WORKERS_DOMAIN). Pure zod: config.ts
 * alone reads the environment.
 */
import { z } from 'zod';
import { optional } from './config-fields.js';
import { isHttpUrl } from './urls.js';

export const unfurlEnvSchema = {
  CLOUD_PANEL_URL: optional(z.string().refine(isHttpUrl, { error: 'must be the panel’s http(s) base URL, e.g. https://panel.example.com' })),
  CLOUD_WORKERS_DOMAIN: optional(z.string().trim().toLowerCase().regex(/^(?=.{1,200}$)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/, { error: 'must be a domain name like workers.example.com' })),
};

type UnfurlEnv = z.output<z.ZodObject<typeof unfurlEnvSchema>>;

export function unfurlConfig(e: UnfurlEnv) {
  return { ...(e.CLOUD_PANEL_URL ? { panelUrl: e.CLOUD_PANEL_URL.replace(/\/+$/, '') } : {}), ...(e.CLOUD_WORKERS_DOMAIN ? { workersDomain: e.CLOUD_WORKERS_DOMAIN } : {}) };
}
