import { z } from 'zod';
/**
 * Argument specs shared by catalog entries. Identifiers reuse the client's schemas
 * (src/cloud/ids.ts), so what the command line accepts is exactly what may go into a URL path.
 */
import { IpAddressSchema, PositiveIntSchema, isServerId, isUuid, positiveInt, serverId, uuid } from '../cloud/ids.js';
import type { IpAddress, PositiveInt, ServerId, Uuid } from '../cloud/ids.js';
import { normalAddress } from '../domain/ip-address.js';
import type { KnownKind } from '../store/known-types.js';
import { flag, lookedUpAs, positional } from './define.js';
import type { ArgSpec } from './types.js';

/**
 * A name the bot may have seen in an answer (`web-1`, `web-1.example.net`, `docs site`): at least
 * one letter, so no malformed number passes for a name. It never reaches a URL: resolve-names.ts
 * swaps it for the validated id before anything is sent, else refuses.
 */
export const NAME_SHAPE = /^(?=.*[A-Za-z])[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;
export const isNameShape = (v: unknown): v is string => typeof v === 'string' && NAME_SHAPE.test(v);

const orName = (message: string, kind: KnownKind) => `${message}, or the name of one the bot has seen (see /cloud ${kind} known)`;

/** An id as `validate` accepts it, or a name shape (passed on as typed, for resolve-names.ts). */
function idOrName<T>(kind: KnownKind, validate: (v: string) => T) {
  return z.union([z.string(), z.number()]).transform((value, ctx): T => {
    try {
      return validate(value as string);
    } catch (e) {
      if (typeof value === 'string' && isNameShape(value)) return value as T;
      ctx.addIssue({ code: 'custom', message: orName(e instanceof Error ? e.message : 'invalid identifier', kind) });
      return z.NEVER;
    }
  });
}

const KIND_WORDS: Record<KnownKind, [what: string, plural: string]> = { server: ['server', 'servers'], worker: ['worker', 'workers'], sg: ['security group', 'security groups'] };

/** Where to look for one the API cannot list: what the bot has seen (`/cloud server known`). */
export function seenHint(kind: KnownKind): NonNullable<ArgSpec['lookup']> {
  const [what, plural] = KIND_WORDS[kind];
  return { what, listedBy: `/cloud ${kind} known`, lists: `lists the ${plural} the bot has seen` };
}

/** An id that may also be a name the bot has seen; a NOT_FOUND points at what it has seen. */
const named = <S extends ArgSpec>(spec: S, kind: KnownKind): S => lookedUpAs({ ...spec, names: kind }, seenHint(kind));

export const ServerOrNameSchema = idOrName<ServerId>('server', (v) => (typeof v === 'string' ? serverId(v) : serverId(String(v))));
export const WorkerOrNameSchema = idOrName<Uuid>('worker', (v) => uuid(v));
export const GroupOrNameSchema = idOrName<PositiveInt>('sg', (v) => positiveInt(v));

/** Whether a value is already an id of that kind (else it is a name still to resolve). */
export function isIdOf(kind: KnownKind, value: unknown): boolean {
  if (kind === 'sg') return typeof value === 'number';
  return typeof value === 'string' && (kind === 'server' ? isServerId(value) : isUuid(value));
}

export const serverArg = named(positional('server', ServerOrNameSchema, 'numeric id, 8-character short uuid, full uuid or a name the bot has seen'), 'server');
export const workerArg = named(positional('worker-uuid', WorkerOrNameSchema, 'the worker’s uuid or name'), 'worker');
export const groupArg = named(positional('id', GroupOrNameSchema, 'security group id or name'), 'sg');
/**
 * An address in its one written form (RFC 5952 for IPv6): `2A0C:08C0:0001::0011` is the
 * `2a0c:8c0:1::11` that `server ips` lists, so checks compare like with like and the request,
 * the confirmation and the audit line name the address as the cloud writes it.
 */
const AddressSchema = IpAddressSchema.transform((a) => (normalAddress(a) ?? a) as IpAddress);
export const addressArg = lookedUpAs(positional('address', AddressSchema, 'an IPv4 or IPv6 address of the server'), {
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
