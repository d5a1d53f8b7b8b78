/**
 * Syntax of firewall rule addresses and ports (spec "Security groups", POST rules: "addresses
 * must be literal IPv4/IPv6 addresses, CIDRs or ranges. Ports must be numeric, colon-separated
 * ranges or comma-separated lists, and only with a port-capable protocol").
 */
import ipaddr from 'ipaddr.js';

export type Family = 'ipv4' | 'ipv6';

export const KNOWN_PROTOCOLS = ['tcp', 'udp', 'icmp', 'icmpv6', 'all', 'any', 'gre', 'esp', 'ah'] as const;
export const PORT_PROTOCOLS = ['tcp', 'udp'] as const;

/** Family of a strict literal address (no shorthand IPv4 forms, no IPv6 zone id). */
export function literalFamily(text: string): Family | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return 'ipv4';
  if (!text.includes('%') && !text.includes('/') && ipaddr.IPv6.isValid(text)) return 'ipv6';
  return undefined;
}

function toBigInt(text: string): bigint {
  return ipaddr.parse(text).toByteArray().reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

/** Family of an address, CIDR or `a-b` range; undefined when the text is none of these. */
export function addressSpecFamily(text: string): Family | undefined {
  const slash = text.split('/');
  if (slash.length === 2) {
    const [addr = '', prefix = ''] = slash;
    const family = literalFamily(addr);
    if (!family || !/^(0|[1-9]\d{0,2})$/.test(prefix)) return undefined;
    return Number(prefix) <= (family === 'ipv4' ? 32 : 128) ? family : undefined;
  }
  if (slash.length > 2) return undefined;
  const dash = text.split('-');
  if (dash.length === 2) {
    const [from = '', to = ''] = dash;
    const f1 = literalFamily(from);
    const f2 = literalFamily(to);
    if (!f1 || f1 !== f2) return undefined;
    return toBigInt(from) <= toBigInt(to) ? f1 : undefined;
  }
  if (dash.length > 2) return undefined;
  return literalFamily(text);
}

/** Why a port specification is invalid, or undefined when it is valid. */
export function portSpecProblem(text: string): string | undefined {
  const items = text.split(',');
  for (const item of items) {
    const m = /^(\d{1,5})(?::(\d{1,5}))?$/.exec(item);
    if (!m) return `"${item}" is not a port, a colon-separated range or a comma-separated list.`;
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (from < 1 || from > 65535 || to < 1 || to > 65535) return `Ports must be between 1 and 65535 ("${item}").`;
    if (from > to) return `The range "${item}" starts after it ends.`;
  }
  return undefined;
}
