/**
 * Field shapes of the runtime contract (config.ts): empty means unset, ports, Slack id lists,
 * bounded whole numbers. Pure zod; config.ts alone reads the environment.
 */
import { z } from 'zod';

/** Whether a variable is set: empty or blank in `.env` means "not set". */
export const isSet = (v: string | undefined): v is string => typeof v === 'string' && v.trim() !== '';

/** Empty strings in `.env` mean "not set". */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema.optional());

export const port = (fallback: number) =>
  optional(
    z.coerce
      .number({ error: PORT_WORDS })
      .int({ error: PORT_WORDS })
      .min(0, { error: PORT_WORDS })
      .max(65535, { error: PORT_WORDS }),
  ).transform((v) => v ?? fallback);

const PORT_WORDS = 'must be a port number from 0 to 65535';

/** A comma-separated list of Slack ids; each must match `pattern`. */
export function idList(value: string, ctx: z.RefinementCtx, pattern: RegExp, what: string): string[] {
  const ids = value.split(',').map((v) => v.trim()).filter(Boolean);
  const bad = ids.filter((id) => !pattern.test(id));
  // Name the position, not the value: it is harmless here, but config errors never echo values.
  if (bad.length) ctx.addIssue({ code: 'custom', message: `has ${bad.length} entr${bad.length === 1 ? 'y' : 'ies'} that ${bad.length === 1 ? 'is' : 'are'} not ${what}` });
  return ids;
}

/** User ids (U…, W…) and user group ids (S…). */
export const principals = optional(
  z.string().transform((v, ctx) => idList(v, ctx, /^[UWS][A-Z0-9]{2,}$/, 'a user id (U…/W…) or user group id (S…)')),
);

/** A whole number within bounds, in words for the message (`milliseconds`, `requests per minute`). */
export const whole = (min: number, max: number, what: string) =>
  optional(
    z.coerce
      .number({ error: `must be a number of ${what}` })
      .int({ error: `must be a whole number of ${what}` })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` }),
  );
