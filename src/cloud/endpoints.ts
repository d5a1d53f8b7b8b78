/**
 * Every request the bot sends, described once: method, path template and body schema, keyed by
 * the CloudClient method that sends it. The resource modules send what `buildRequest` returns,
 * and a change's dry-run, status message and audit entry show the request its `run` builds here
 * (operations/change-request.ts), so what is shown is what is sent.
 *
 * A template names its segments (`/servers/{server}/ips/{address}`) and each name has a
 * validator from ids.ts: nothing reaches a path unchecked, and the values go through ids.ts
 * `path` (encoded, `.`/`..` refused). Query strings (pages, location filters) stay with the
 * readers (paginate.ts).
 */
import type { z } from 'zod';
import type { HttpMethod } from './http.js';
import { ipAddress, path, positiveInt, serverId, uuid } from './ids.js';
import type { PathSegment } from './ids.js';
import { AddRuleBody, AttachServerBody, CreateBackupBody, DeployWorkerBody, ReinstallBody, RenameBody, ReserveIpsBody } from './requests.js';

/** `{name}` placeholders of a template, as a union of names. */
export type SegmentNames<T extends string> = T extends `${string}{${infer N}}${infer Rest}` ? N | SegmentNames<Rest> : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Validator = (value: any) => PathSegment;
type Validators<T extends string> = { [K in SegmentNames<T>]: Validator };

export interface Endpoint<T extends string = string, V = Record<string, Validator>, B extends z.ZodType | undefined = z.ZodType | undefined> {
  method: HttpMethod;
  template: T;
  /** One validator per `{name}` of the template. */
  segments: V;
  /**
   * What the body may be (requests.ts): it types the body, and the catalog checks user input
   * with the same schema. Not re-checked when sending, so the cloud's own 422 stays reachable.
   */
  body: B;
}

/** The values a template's segments take, before validation. */
export type ParamsOf<E> = E extends Endpoint<string, infer V> ? { [K in keyof V]: V[K] extends (value: infer P) => PathSegment ? P : never } : never;
/** The body an endpoint takes (none when it has no schema). */
export type BodyOf<E> = E extends Endpoint<string, unknown, infer B> ? (B extends z.ZodType ? z.output<B> : undefined) : never;

/** A concrete request: what goes on the wire after the base URL (`/v2`), query aside. */
export interface BuiltRequest {
  method: HttpMethod;
  /** Encoded, relative to the base URL. */
  path: string;
  /** Exactly as serialized (JSON): keys with undefined values left out. */
  body?: Record<string, unknown>;
}

function endpoint<const T extends string, V extends Validators<T>, B extends z.ZodType | undefined = undefined>(
  method: HttpMethod,
  template: T,
  segments: V,
  body?: B,
): Endpoint<T, V, B> {
  return { method, template, segments, body: body as B };
}

const none = {};
const server = { server: serverId };
const group = { id: (v: number) => positiveInt(v, 'security group id') };

export const ENDPOINTS = {
  'reservedIps.reserve': endpoint('POST', '/reserved-ips', none, ReserveIpsBody),
  'reservedIps.subnets': endpoint('GET', '/reserved-ips/subnets', none),
  'workers.requirements': endpoint('GET', '/workers/deploy-requirements', none),
  'workers.deploy': endpoint('POST', '/workers', none, DeployWorkerBody),
  'workers.locations': endpoint('GET', '/workers/locations', none),
  'workers.templates': endpoint('GET', '/workers/templates', none),
  'workers.status': endpoint('GET', '/workers/{worker}/status', { worker: uuid }),
  'servers.reinstall': endpoint('POST', '/servers/{server}/reinstall', server, ReinstallBody),
  'servers.rename': endpoint('PATCH', '/servers/{server}/rename', server, RenameBody),
  'servers.status': endpoint('GET', '/servers/{server}/status', server),
  'servers.credentials': endpoint('GET', '/servers/{server}/credentials', server),
  'servers.ips': endpoint('GET', '/servers/{server}/ips', server),
  'servers.removeIp': endpoint('DELETE', '/servers/{server}/ips/{address}', { server: serverId, address: ipAddress }),
  'backups.create': endpoint('POST', '/servers/{server}/backups', server, CreateBackupBody),
  'backups.list': endpoint('GET', '/servers/{server}/backups', server),
  'backups.delete': endpoint('DELETE', '/servers/{server}/backups/{backup}', { server: serverId, backup: uuid }),
  'securityGroups.get': endpoint('GET', '/security-groups/{id}', group),
  'securityGroups.addRule': endpoint('POST', '/security-groups/{id}/rules', group, AddRuleBody),
  'securityGroups.deleteRule': endpoint('DELETE', '/security-groups/{id}/rules/{rule}', { ...group, rule: (v: number) => positiveInt(v, 'rule id') }),
  'securityGroups.attachServer': endpoint('POST', '/security-groups/{id}/servers/attach', group, AttachServerBody),
  'securityGroups.deploy': endpoint('POST', '/security-groups/{id}/deploy', group),
  'sshKeys.list': endpoint('GET', '/ssh-keys', none),
  'sshKeys.delete': endpoint('DELETE', '/ssh-keys/{id}', { id: (v: number) => positiveInt(v, 'SSH key id') }),
  'plans.list': endpoint('GET', '/plans', none),
  'account.invoices': endpoint('GET', '/account/invoices', none),
  'account.usage': endpoint('GET', '/account/usage', none),
} as const;

export type EndpointName = keyof typeof ENDPOINTS;

/** `/servers/{server}/ips/{address}` → literal parts and segment names, in order. */
export function splitTemplate(template: string): { literals: string[]; names: string[] } {
  const parts = template.split(/\{([A-Za-z_][A-Za-z0-9_]*)\}/);
  return { literals: parts.filter((_, i) => i % 2 === 0), names: parts.filter((_, i) => i % 2 === 1) };
}

/**
 * The concrete request for an endpoint: segments validated in template order (the first bad
 * one throws INVALID_IDENTIFIER), the body as it will be serialized.
 */
export function buildRequest<N extends EndpointName>(
  name: N,
  params: ParamsOf<(typeof ENDPOINTS)[N]>,
  ...body: BodyOf<(typeof ENDPOINTS)[N]> extends undefined ? [] : [BodyOf<(typeof ENDPOINTS)[N]>]
): BuiltRequest {
  const e: Endpoint = ENDPOINTS[name];
  const { literals, names } = splitTemplate(e.template);
  const values = params as Record<string, unknown>;
  const segments = names.map((n) => {
    const validate = (e.segments as Record<string, Validator | undefined>)[n];
    if (!validate) throw new TypeError(`${e.template}: no validator for {${n}}`);
    return validate(values[n]);
  });
  const strings = Object.assign([...literals], { raw: literals }) as unknown as TemplateStringsArray;
  const out: BuiltRequest = { method: e.method, path: path(strings, ...segments) };
  // A JSON round trip: what the transport serializes, so what is shown is byte-for-byte what is sent.
  if (body[0] !== undefined) out.body = JSON.parse(JSON.stringify(body[0])) as Record<string, unknown>;
  return out;
}
