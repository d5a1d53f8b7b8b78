/**
 * `defineOperation` turns one declaration into a catalog entry: the argument specs give both
 * the usage line and the zod schema, so the two can never disagree.
 */
import { z } from 'zod';
import { buildChangeResult } from '../views/click-views.js';
export function defineOperation(decl) {
    const [resource, verb] = decl.id.split('.');
    const mutates = decl.mutates ?? !(decl.tier === 'read' || decl.tier === 'secret');
    const shape = Object.fromEntries(Object.entries(decl.args).map(([name, spec]) => [name, spec.schema]));
    return {
        id: decl.id,
        resource,
        verb,
        command: `/cloud ${resource} ${verb}`,
        summary: decl.summary,
        tier: decl.tier,
        scope: decl.scope ?? 'cloud',
        args: decl.args,
        schema: z.object(shape),
        mutates,
        ephemeral: decl.ephemeral ?? !mutates,
        secret: decl.secret ?? decl.tier === 'secret',
        run: decl.run,
        render: decl.render ?? ((result, args) => changeReply(decl.change, result, args)),
        ...(decl.pageArg ? { pageArg: decl.pageArg } : {}),
        ...(decl.change ? { change: decl.change } : {}),
        ...(decl.watchable ? { watchable: decl.watchable } : {}),
        ...(decl.remember ? { remember: decl.remember } : {}),
    };
}
/** A change's result as a plain reply (the shell and tests read this; Slack shows the status message). */
function changeReply(change, result, args) {
    return buildChangeResult(change?.summarize(result, args).text);
}
export const positional = (placeholder, schema, description) => ({
    kind: 'positional',
    schema,
    placeholder,
    description,
});
export const rest = (placeholder, schema, description) => ({
    kind: 'rest',
    schema,
    placeholder,
    description,
});
export const flag = (placeholder, schema, description) => ({
    kind: 'flag',
    schema,
    placeholder,
    description,
});
/** An input only the modal asks for (never typed on the command line). */
export const modalOnly = (schema, description) => ({
    kind: 'modal',
    schema,
    placeholder: '',
    description,
});
export const switchFlag = (description) => ({
    kind: 'switch',
    schema: z.boolean().optional().transform((v) => v === true),
    placeholder: '',
    description,
});
/** The argument names a thing the cloud may not find: what a NOT_FOUND says about it (ArgSpec `lookup`). */
export const lookedUpAs = (spec, lookup) => ({ ...spec, lookup });
/** Whether an argument may be left out (its schema accepts `undefined`). */
export function isOptional(spec) {
    return spec.kind === 'switch' || spec.kind === 'modal' || spec.schema.safeParse(undefined).success;
}
/** `--page N` → a whole page number ≥ 1, absent means the first page. */
export const pageFlag = flag('N', z.coerce
    .number({ error: 'must be a page number' })
    .int({ error: 'must be a whole page number' })
    .min(1, { error: 'must be 1 or more' })
    .max(100_000, { error: 'is too large' })
    .optional(), 'page of the list');
//# sourceMappingURL=define.js.map