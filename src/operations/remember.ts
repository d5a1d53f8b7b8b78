/**
 * What catalog entries remember of an answer (their `remember` hooks): ids, uuids and names of
 * servers, security groups and workers, never anything else. Which fields carry names follows
 * src/cloud-api/schemas.ts: a Server's name/hostname, a group's name and its servers, a worker's name,
 * and (the API has no "get server") the reverse DNS of a server's primary address and its
 * addresses (`server ips`, the whole set). Each is its own field (known-types.ts): an answer
 * replaces only names of the fields it carries.
 * Declarations only: the core writes them down (app/name-steps.ts).
 */
import { isUuid } from '../cloud/ids.js';
import type { SecurityGroup, Server, ServerIp, ServerStatus, Worker } from '../cloud-api/schemas.js';
import type { KnownEntry } from '../store/known-types.js';
import { normalAddress } from '../domain/ip-address.js';

/** A server addressed by what was typed (numeric id, short uuid or uuid): it exists. */
export function serverSeen(server: string): KnownEntry[] {
  return [{ kind: 'server', id: String(server), ...(isUuid(String(server)) ? { uuid: String(server).toLowerCase() } : {}) }];
}

/**
 * The primary IPv4's reverse DNS (else any address's) is the server's hostname in practice; the
 * addresses themselves are names too (field `ip`, the whole set: "Act on this" finds a server
 * by an address in a message).
 */
export function serverFromIps(server: string, ips: readonly ServerIp[]): KnownEntry[] {
  const withName = ips.filter((ip) => ip.rdns);
  const host = (withName.find((ip) => ip.type === 'ipv4') ?? withName[0])?.rdns ?? null;
  const [seen] = serverSeen(server);
  const addresses = [...new Set(ips.map((ip) => normalAddress(ip.address ?? '')).filter((a) => a !== undefined))];
  return [{ ...seen!, name: host, field: 'rdns' }, ...addresses.map((a) => ({ ...seen!, name: a, field: 'ip' }) as const)];
}

export function serverFromServer(s: Pick<Server, 'id' | 'uuid' | 'name' | 'hostname'>): KnownEntry[] {
  const base = { kind: 'server', id: String(s.id), uuid: s.uuid } as const;
  return [{ ...base, name: s.name ?? null }, ...(s.hostname ? [{ ...base, name: s.hostname, field: 'hostname' } as const] : [])];
}

/** The spec's status answer carries no name; one that does (name, hostname) teaches it. */
export function serverFromStatus(server: string, s: Pick<ServerStatus, 'name' | 'hostname'>): KnownEntry[] {
  const [seen] = serverSeen(server);
  return [{ ...seen!, name: s.name ?? null }, ...(s.hostname ? [{ ...seen!, name: s.hostname, field: 'hostname' } as const] : [])];
}

/** A group and the servers attached to it (known there by uuid only). */
export function groupSeen(g: Pick<SecurityGroup, 'id' | 'name' | 'servers'>): KnownEntry[] {
  const servers: KnownEntry[] = (g.servers ?? []).map((s) => ({ kind: 'server', id: s.uuid, uuid: s.uuid, name: s.name ?? null }));
  return [{ kind: 'sg', id: String(g.id), name: g.name ?? null }, ...servers];
}

/** A worker, and its address (fqdn) as a host name: a pasted link or `name.workers…` finds it (issue 23). */
export function workerSeen(w: Pick<Worker, 'uuid' | 'name'> & { fqdn?: string | null }): KnownEntry[] {
  const base = { kind: 'worker', id: w.uuid, uuid: w.uuid } as const;
  return [{ ...base, name: w.name ?? null }, ...(w.fqdn ? [{ ...base, name: w.fqdn.toLowerCase(), field: 'hostname' } as const] : [])];
}
