/**
 * The access part of the runtime contract: roles (CLOUD_ADMINS, CLOUD_OPERATORS, CLOUD_VIEWERS),
 * the channels the bot answers in, the policy file and its reload, approvals and the audit
 * channel. Pure zod: config.ts alone reads the environment.
 */
import { z } from 'zod';
import { idList, optional, principals } from './config-fields.js';

export const accessEnvSchema = {
  CLOUD_ADMINS: principals,
  CLOUD_OPERATORS: principals,
  CLOUD_VIEWERS: principals,
  CLOUD_CHANNELS: optional(
    z.string().transform((v, ctx) => idList(v, ctx, /^[CGD][A-Z0-9]{2,}$/, 'a channel id like C0123ABCD')),
  ),
  ACCESS_POLICY: optional(z.string({ error: 'must be the path of the policy file' })),
  ACCESS_POLICY_RELOAD_MS: optional(
    z.coerce
      .number({ error: 'must be a number of milliseconds (0: reload on SIGHUP only)' })
      .int({ error: 'must be a whole number of milliseconds (0: reload on SIGHUP only)' })
      .refine((v) => v === 0 || v >= 1000, { error: 'must be 0 (reload on SIGHUP only) or at least 1000 (1 s)' }),
  ),
  CLOUD_APPROVAL: optional(z.enum(['destroy', 'none'], { error: 'must be destroy (or none)' })),
  AUDIT_CHANNEL: optional(z.string().regex(/^[CG][A-Z0-9]{2,}$/, { error: 'must be a channel id like C0123ABCD' })),
};

type AccessEnv = z.output<z.ZodObject<typeof accessEnvSchema>>;

/** Who may do what, from the variables (the policy file, when set, is read later and wins). */
export function accessConfig(e: AccessEnv) {
  return {
    admins: e.CLOUD_ADMINS ?? [],
    operators: e.CLOUD_OPERATORS ?? [],
    viewers: e.CLOUD_VIEWERS,
    channels: e.CLOUD_CHANNELS?.length ? e.CLOUD_CHANNELS : undefined,
    policyFile: e.ACCESS_POLICY,
    policyReloadMs: e.ACCESS_POLICY_RELOAD_MS ?? 60_000,
    approval: e.CLOUD_APPROVAL === 'destroy' ? ('destroy' as const) : undefined,
  };
}
