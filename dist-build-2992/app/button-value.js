/**
 * A button that names a catalog operation (a page button, an alert's action): its value is
 * re-validated like typed input — a known operation, arguments through its schema, an account
 * name — and it only ever names an operation and arguments, never a URL.
 */
import { z } from 'zod';
import { AccountNameSchema } from '../operations/args.js';
const ButtonValue = z.object({ op: z.string().max(64), args: z.record(z.string(), z.unknown()), account: AccountNameSchema.optional() });
export function readButtonValue(raw, catalog) {
    let value;
    try {
        value = JSON.parse(raw ?? '');
    }
    catch {
        return undefined;
    }
    const parsed = ButtonValue.safeParse(value);
    const op = parsed.success ? catalog.byId(parsed.data.op) : undefined;
    const args = op && parsed.success ? op.schema.safeParse(parsed.data.args) : undefined;
    if (!op || !args?.success)
        return undefined;
    return { op, args: args.data, account: parsed.success ? parsed.data.account : undefined };
}
//# sourceMappingURL=button-value.js.map