/**
 * Names instead of numbers (issue 14): an argument typed as a name (`/cloud server status web-1`)
 * becomes the id the bot saw with that name on the admitted account, before any request; an
 * unknown name is refused with the nearest known one, and a name two resources claim with a
 * question naming both and where each name came from (issue 20). Every entry point (commands,
 * forms, buttons) comes through `resolveNames`: run-operation.ts for reads, and (through
 * the flow's `names` port, name-steps.ts) the change flow's start for changes.
 */
import { isServerId, positiveInt, serverId, uuid } from '../cloud/ids.js';
import { nameOrigin } from '../views/known-views.js';
import { join, md, val } from '../views/mrkdwn.js';
import { isIdOf, isNameShape } from '../operations/args.js';
import { nearest } from '../operations/suggest.js';
const WORD = { server: md `server`, sg: md `security group`, worker: md `worker` };
const SHORT_UUID = /^[A-Za-z0-9]{8}$/;
/** The id in the shape its argument takes (validated again: the store is not trusted blindly). */
function idValue(kind, id) {
    if (kind === 'sg')
        return positiveInt(id, 'security group id');
    return kind === 'server' ? serverId(id) : uuid(id);
}
/** The rows a name means: exact (ignoring case), else a hostname whose first label it is (`web-1` → `web-1.example.net`). */
async function lookUp(known, account, kind, name) {
    const exact = await known.find(account, kind, name);
    if (exact.length > 0 || name.includes('.'))
        return sameResources(exact);
    const lower = name.toLowerCase();
    const hosts = (await known.names(account, kind)).filter((n) => n.toLowerCase().split('.')[0] === lower);
    if (hosts.length === 0)
        return [];
    const rows = (await Promise.all(hosts.map((h) => known.find(account, kind, h)))).flat();
    return sameResources(rows);
}
const same = (a, b) => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
/**
 * Rows grouped by the resource they are: a server seen by its id in one answer and by its uuid
 * in another (a group lists its servers by uuid) is one server, not a clash.
 */
function sameResources(rows) {
    const groups = [];
    for (const r of rows) {
        const group = groups.find((g) => g.some((o) => same(o.id, r.id) || same(o.uuid, r.id) || same(o.id, r.uuid) || same(o.uuid, r.uuid)));
        if (group)
            group.push(r);
        else
            groups.push([r]);
    }
    return groups;
}
/** The id to send for a resource seen under several: its numeric id when one was seen. */
function bestId(group) {
    return (group.find((r) => /^[0-9]+$/.test(r.id)) ?? group[0]).id;
}
export function unknownName(kind, name, suggestion) {
    const guess = suggestion ? md `; did you mean ${val(suggestion)}?` : md ``;
    return md `I don't know a ${WORD[kind]} named ${val(name)} here${guess} (see ${val(`/cloud ${kind} known`)})`;
}
/** Where the name came from for each resource it could mean, and a question, never a guess. */
function ambiguous(kind, name, groups) {
    const lower = name.toLowerCase();
    const each = groups.slice(0, 5).map((g) => {
        const n = g.flatMap((r) => r.names).find((x) => x.name.toLowerCase() === lower || x.name.toLowerCase().split('.')[0] === lower);
        return md `${val(bestId(g))}${n ? md ` (${nameOrigin(n)})` : md ``}`;
    });
    return md `${val(name)} could be ${groups.length} ${WORD[kind]}s here: ${join(each, '; ')}. Which one did you mean? Use its id instead of the name.`;
}
/**
 * Replaces every name-shaped argument of a name-taking kind with its id. Values already in id
 * shape pass unchanged, except an 8-character server value that is the name of exactly one
 * known server (a short uuid and a short hostname look alike).
 */
export async function resolveNames(known, op, args, account) {
    let out = args;
    for (const [argName, spec] of Object.entries(op.args)) {
        const kind = spec.names;
        const value = args[argName];
        if (!kind || value === undefined || value === null)
            continue;
        const maybeName = kind === 'server' && typeof value === 'string' && SHORT_UUID.test(value) && !/^[0-9]+$/.test(value);
        if (isIdOf(kind, value) && !maybeName)
            continue;
        if (!isNameShape(value)) {
            if (isIdOf(kind, value))
                continue;
            return { ok: false, message: md `${val(String(value))} is not a ${WORD[kind]} id or name.` };
        }
        const groups = known ? await lookUp(known, account, kind, value) : [];
        if (groups.length > 1)
            return { ok: false, message: ambiguous(kind, value, groups) };
        if (groups.length === 0) {
            if (maybeName && isServerId(value))
                continue; // not a known name: it is a short uuid
            const names = known ? await known.names(account, kind) : [];
            const lower = new Map(names.map((n) => [n.toLowerCase(), n]));
            const guess = nearest(value, [...lower.keys()]);
            return { ok: false, message: unknownName(kind, value, guess && lower.get(guess)) };
        }
        try {
            out = { ...out, [argName]: idValue(kind, bestId(groups[0])) };
        }
        catch {
            return { ok: false, message: md `The ${WORD[kind]} named ${val(value)} has no usable id on record; use the id instead.` };
        }
    }
    return { ok: true, args: out };
}
//# sourceMappingURL=resolve-names.js.map