/**
 * IP addresses as the bot compares them (issue 23, "Act on this"): one written form per address
 * (ipaddr.js: IPv4 dotted quad, IPv6 in RFC 5952 lower case), so `2A0C:08C0:0001::0011` in a
 * message is the `2a0c:8c0:1::11` a `server ips` answer showed. Only full four-part IPv4 counts:
 * `10.1` or a version number is not an address.
 */
import ipaddr from 'ipaddr.js';

/** The address's one written form, or undefined when `text` is not exactly an address. */
export function normalAddress(text: string): string | undefined {
  const t = text.trim();
  if (t.length > 45) return undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(t)) return ipaddr.IPv4.parse(t).toString();
  if (!t.includes('%') && ipaddr.IPv6.isValid(t)) return ipaddr.IPv6.parse(t).toRFC5952String();
  return undefined;
}

/** Every address written in free text, in its one form (`185.10.20.11:22` and `[2a0c::1]` too). */
export function addressesIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const token of text.split(/[^0-9A-Fa-f.:]+/)) {
    // A sentence's full stop or colon after it, or a port after an IPv4 address.
    const bare = token.replace(/[.:]+$/, '');
    const found = normalAddress(bare) ?? normalAddress(bare.replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/, '$1'));
    if (found) out.add(found);
  }
  return out;
}
