/**
 * Argument specs shared by catalog entries. Identifiers reuse the client's schemas
 * (src/cloud/ids.ts), so what the command line accepts is exactly what may go into a URL path.
 */
import { IpAddressSchema, PositiveIntSchema, ServerIdSchema, UuidSchema } from '../cloud/ids.js';
import { flag, positional } from './define.js';

export const serverArg = positional('server', ServerIdSchema, 'numeric id, 8-character short uuid or full uuid');
export const workerArg = positional('worker-uuid', UuidSchema, 'the worker’s uuid');
export const groupArg = positional('id', PositiveIntSchema, 'security group id');
export const addressArg = positional('address', IpAddressSchema, 'an IPv4 or IPv6 address of the server');
export const locationFlag = flag('ID', PositiveIntSchema.optional(), 'location id');
