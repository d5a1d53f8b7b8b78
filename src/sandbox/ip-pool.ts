/**
 * Address arithmetic for subnets: which addresses a subnet hands out and which are free.
 * Reserved IPs are "never handed to anyone else" (spec "Reserved IPs"), so allocation skips
 * every address in `taken`.
 */
import ipaddr from 'ipaddr.js';
import type { SubnetState } from './state.js';

function toBigInt(bytes: number[]): bigint {
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

function fromBigInt(value: bigint, length: number): number[] {
  const out: number[] = new Array<number>(length).fill(0);
  let v = value;
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Canonical text of an address (compact IPv6), or undefined when it is not one. */
export function normaliseAddress(text: string): string | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text).toString();
  if (!text.includes('%') && ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text).toString();
  return undefined;
}

/** The n-th usable host (0-based): network + 2 + n, since network + 1 is the gateway. */
export function hostAddress(subnet: Pick<SubnetState, 'network'>, n: number): string {
  const bytes = ipaddr.parse(subnet.network).toByteArray();
  const value = toBigInt(bytes) + 2n + BigInt(n);
  return ipaddr.fromByteArray(fromBigInt(value, bytes.length)).toString();
}

export function freeCount(subnet: SubnetState): number {
  return Math.max(0, subnet.size - subnet.taken.length);
}

/** Takes `count` free addresses in order; the caller has checked freeCount. */
export function allocate(subnet: SubnetState, count: number): string[] {
  const taken = new Set(subnet.taken);
  const out: string[] = [];
  for (let n = 0; n < subnet.size && out.length < count; n++) {
    const address = hostAddress(subnet, n);
    if (!taken.has(address)) out.push(address);
  }
  subnet.taken.push(...out);
  return out;
}

/** Returns an address to its pool (a non-reserved IP removed from a server). */
export function release(subnets: SubnetState[], address: string): void {
  for (const s of subnets) s.taken = s.taken.filter((a) => a !== address);
}

export function subnetContaining(subnets: SubnetState[], address: string): SubnetState | undefined {
  const addr = normaliseAddress(address);
  if (addr === undefined) return undefined;
  const parsed = ipaddr.parse(addr);
  return subnets.find((s) => {
    const net = ipaddr.parse(s.network);
    return net.kind() === parsed.kind() && parsed.match(net, s.prefix);
  });
}

export function cidrOf(subnet: Pick<SubnetState, 'network' | 'prefix'>): string {
  return `${subnet.network}/${subnet.prefix}`;
}
