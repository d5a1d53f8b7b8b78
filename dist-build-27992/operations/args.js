import { z } from 'zod';
/**
 * Argument specs shared by catalog entries. Identifiers reuse the client's schemas
 * (src/cloud/ids.ts), so what the command line accepts is exactly what may go into a URL path.
 */
import { IpAddressSchema, PositiveIntSchema, isServerId, isUuid, positiveInt, serverId, uuid } from '../cloud/ids.js';
import { flag, lookedUpAs, positional } from './define.js';
/**
 * A name the bot may have seen in an answer (`web-1`, `web-1.example.net`, `docs site`): at least
 * one letter, so no malformed number passes for a name. It never reaches a URL: resolve-names.ts
 * swaps it for the validated id before anything is sent, else refuses.
 */
export const NAME_SHAPE = /^(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;
export const isNameShape = (v) => typeof v === 'string' && NAME_SHAPE.test(v);
const orName = (message, kind) => `${message}, or the name of one the bot has seen (see /cloud ${kind} known)`;
/** An id as `validate` accepts it, or a name shape (passed on as typed, for resolve-names.ts). */
function idOrName(kind, validate) {
    return z.union([z.string(), z.number()]).transform((value, ctx) => {
        try {
            return validate(value);
        }
        catch (e) {
            if (typeof value === 'string' && isNameShape(value))
                return value;
            ctx.addIssue({ code: 'custom', message: orName(e instanceof Error ? e.message : 'invalid identifier', kind) });
            return z.NEVER;
        }
    });
}
const KIND_WORDS = { server: ['server', 'servers'], worker: ['worker', 'workers'], sg: ['security group', 'security groups'] };
/** Where to look for one the API cannot list: what the bot has seen (`/cloud server known`). */
export function seenHint(kind) {
    const [what, plural] = KIND_WORDS[kind];
    return { what, listedBy: `/cloud ${kind} known`, lists: `lists the ${plural} the bot has seen` };
}
/** An id that may also be a name the bot has seen; a NOT_FOUND points at what it has seen. */
const named = (spec, kind) => lookedUpAs({ ...spec, names: kind }, seenHint(kind));
export const ServerOrNameSchema = idOrName('server', (v) => (typeof v === 'string' ? serverId(v) : serverId(String(v))));
export const WorkerOrNameSchema = idOrName('worker', (v) => uuid(v));
export const GroupOrNameSchema = idOrName('sg', (v) => positiveInt(v));
/** Whether a value is already an id of that kind (else it is a name still to resolve). */
export function isIdOf(kind, value) {
    if (kind === 'sg')
        return typeof value === 'number';
    return typeof value === 'string' && (kind === 'server' ? isServerId(value) : isUuid(value));
}
export const serverArg = named(positional('server', ServerOrNameSchema, 'numeric id, 8-character short uuid, full uuid or a name the bot has seen'), 'server');
export const workerArg = named(positional('worker-uuid', WorkerOrNameSchema, 'the worker’s uuid or name'), 'worker');
export const groupArg = named(positional('id', GroupOrNameSchema, 'security group id or name'), 'sg');
export const addressArg = lookedUpAs(positional('address', IpAddressSchema, 'an IPv4 or IPv6 address of the server'), {
    what: 'address',
    listedBy: '/cloud server ips {server}',
    lists: 'lists the server’s addresses',
});
export const sshKeyIdArg = lookedUpAs(positional('id', PositiveIntSchema, 'SSH key id (see /cloud ssh-key list)'), {
    what: 'SSH key',
    listedBy: '/cloud ssh-key list',
    lists: 'lists the account’s SSH keys',
});
export const locationFlag = flag('ID', PositiveIntSchema.optional(), 'location id');
/** An account's name, as the policy file declares it (access/policy-file.ts) and `--account` names it. */
export const ACCOUNT_NAME = /^[a-z][a-z0-9-]{0,29}$/;
export const AccountNameSchema = z
    .string()
    .trim()
    .regex(ACCOUNT_NAME, { error: 'must be an account name: lower-case letters, digits and dashes (see /cloud policy)' });
//# sourceMappingURL=args.js.map