/**
 * A button that names a catalog operation (a page button, an alert's action): its value is
 * re-validated like typed input — a known operation, arguments through its schema, an account
 * name — and it only ever names an operation and arguments, never a URL.
 */
import { z } from 'zod';
import type { Catalog } from '../operations/catalog.js';
import { AccountNameSchema } from '../operations/args.js';
import type { AnyOperation } from '../operations/types.js';

const ButtonValue = z.object({ op: z.string().max(64), args: z.record(z.string(), z.unknown()), account: AccountNameSchema.optional() });

export interface ButtonRun {
  op: AnyOperation;
  args: Record<string, unknown>;
  account: string | undefined;
}

export function readButtonValue(raw: string | undefined, catalog: Catalog): ButtonRun | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw ?? '');
  } catch {
    return undefined;
  }
  const parsed = ButtonValue.safeParse(value);
  const op = parsed.success ? catalog.byId(parsed.data.op) : undefined;
  const args = op && parsed.success ? op.schema.safeParse(parsed.data.args) : undefined;
  if (!op || !args?.success) return undefined;
  return { op, args: args.data as Record<string, unknown>, account: parsed.success ? parsed.data.account : undefined };
}
