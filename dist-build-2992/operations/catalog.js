/**
 * The catalog: every operation once, looked up by resource and verb. Aliases let people type
 * what they are used to from other CLIs (`servers`, `firewall` for `sg`, `keys`).
 */
import { isOptional } from './define.js';
export function createCatalog(resources, operations, watchKinds) {
    /** This catalog's default verbs, left out of its usage lines. */
    const defaultVerbs = new Map(resources.flatMap((r) => (r.defaultVerb ? [[r.name, r.defaultVerb]] : [])));
    const ids = new Map();
    for (const op of operations) {
        if (ids.has(op.id))
            throw new Error(`Duplicate operation ${op.id}`);
        if (!resources.some((r) => r.name === op.resource))
            throw new Error(`${op.id}: unknown resource ${op.resource}`);
        ids.set(op.id, op);
    }
    const missing = new Map();
    for (const r of resources) {
        for (const n of r.notOffered ?? []) {
            for (const verb of n.verbs) {
                // A verb the bot does offer can never be declared missing.
                if (ids.has(`${r.name}.${verb}`))
                    throw new Error(`${r.name}.${verb} is an operation and declared not offered`);
                missing.set(`${r.name}.${verb}`, n);
            }
        }
    }
    const words = new Map();
    for (const r of resources)
        for (const w of [r.name, ...r.aliases])
            words.set(w.toLowerCase(), r.name);
    return {
        operations,
        resources: resources.filter((r) => operations.some((o) => o.resource === r.name)),
        byId: (id) => ids.get(id),
        find: (resource, verb) => ids.get(`${resource}.${verb.toLowerCase()}`),
        forResource: (resource) => operations.filter((o) => o.resource === resource),
        resolveResource: (word) => words.get(word.toLowerCase()),
        resourceWords: () => [...words.keys()],
        notOffered: (resource, verb) => missing.get(`${resource}.${verb.toLowerCase()}`),
        usage: (op) => usageLine(op, defaultVerbs.get(op.resource)),
        watchKinds,
    };
}
/** `/cloud backup list <server> [--page N]`; `/cloud audit [--user U…]` when the verb is the default. */
function usageLine(op, defaultVerb) {
    const parts = [op.verb === defaultVerb ? `/cloud ${op.resource}` : op.command];
    for (const [name, spec] of Object.entries(op.args)) {
        if (spec.kind === 'modal')
            continue; // asked in the form only
        const optional = isOptional(spec);
        let part;
        if (spec.kind === 'positional')
            part = `<${spec.placeholder}>`;
        else if (spec.kind === 'rest')
            part = `<${spec.placeholder}…>`;
        else if (spec.kind === 'switch')
            part = `--${name}`;
        else
            part = `--${name} ${spec.placeholder}`;
        if (spec.lead)
            part = `${spec.lead} ${part}`;
        parts.push(optional ? `[${part}]` : part);
    }
    if (op.change)
        parts.push('[--dry-run]');
    return parts.join(' ');
}
//# sourceMappingURL=catalog.js.map