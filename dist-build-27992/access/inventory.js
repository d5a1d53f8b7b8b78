/**
 * An account's inventory in the policy file (issue 20): the API lists no servers, groups or
 * workers, so a team declares the ones it works with, and their names work from its first
 * command. Ids are checked as a typed id is (src/cloud/ids.ts); names as a typed name is.
 *
 *   accounts:
 *     prod:
 *       inventory:
 *         - { kind: server, id: 101, name: web-1, home: C0PROD }
 *         - { kind: security group, id: 7, name: web-default }
 *         - { kind: worker, id: 0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66, name: docs-site }
 */
import { z } from 'zod';
import { identifierMessage, isServerId, isUuid, positiveInt } from '../cloud/ids.js';
import { NAME_SHAPE } from '../operations/args.js';
const KINDS = ['server', 'security group', 'sg', 'worker'];
const KIND_OF = { server: 'server', 'security group': 'sg', sg: 'sg', worker: 'worker' };
const WORD = { server: 'server', sg: 'security group', worker: 'worker' };
/** Why an id cannot address that kind, or undefined when it can. */
function badId(kind, id) {
    const text = String(id);
    if (kind === 'server')
        return isServerId(text) ? undefined : identifierMessage(id, 'server id');
    if (kind === 'worker')
        return isUuid(text) ? undefined : identifierMessage(id, 'uuid');
    try {
        positiveInt(id, 'security group id');
        return undefined;
    }
    catch (e) {
        return e.message;
    }
}
const entry = z
    .object({
    kind: z.enum(KINDS, { error: 'must be server, security group (or sg) or worker' }),
    id: z.union([z.string(), z.number()], { error: 'is required: the id the Cloud API addresses it by' }),
    name: z.string({ error: 'is required' }).regex(NAME_SHAPE, {
        error: 'must be a name: letters, digits, spaces, dots, dashes and underscores, with at least one letter (at most 100)',
    }),
    /** Where the team that owns it works (shown by `/cloud server known`). */
    home: z.string().regex(/^[CG][A-Z0-9]{2,}$/, { error: 'must be a channel id like C0123ABCD' }).optional(),
})
    .strict()
    .superRefine((e, ctx) => {
    const problem = badId(KIND_OF[e.kind], e.id);
    if (problem)
        ctx.addIssue({ code: 'custom', path: ['id'], message: problem });
});
/** Two entries of one kind giving one name to different ids would make the name ambiguous: refused. */
export const inventorySchema = z.array(entry).superRefine((entries, ctx) => {
    const seen = new Map();
    entries.forEach((e, i) => {
        const kind = KIND_OF[e.kind];
        const key = `${kind}|${e.name.trim().toLowerCase()}`;
        const id = String(e.id).toLowerCase();
        const before = seen.get(key);
        if (before !== undefined && before !== id) {
            ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `${e.name} already names ${WORD[kind]} ${before}; one name, one ${WORD[kind]}` });
        }
        else
            seen.set(key, id);
    });
});
export function inventoryItems(input) {
    return (input ?? []).map((e) => ({ kind: KIND_OF[e.kind], id: String(e.id), name: e.name.trim(), home: e.home }));
}
//# sourceMappingURL=inventory.js.map