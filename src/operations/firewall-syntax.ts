/**
 * Syntax of the address and port fields of a firewall rule as a person types them in Slack
 * (spec "Security groups", POST /security-groups/{id}/rules: "addresses must be literal
 * IPv4/IPv6 addresses, CIDRs or ranges. Ports must be numeric, colon-separated ranges or
 * comma-separated lists"; "Firewall rule": ports max 50 characters).
 *
 * Each parser normalises what is unambiguous (surrounding and separator whitespace, full-width
 * digits, typographic dashes) and otherwise answers one human sentence saying what to type
 * instead. Parsers never throw. Written independently of the sandbox's checker
 * (src/sandbox/firewall-syntax.ts) so that one can catch mistakes in the other; where the two
 * differ, this side is the stricter one (see `literalAddress`).
 */
import ipaddr from 'ipaddr.js';

export type IpFamily = 'ipv4' | 'ipv6';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });
const fail = <T>(message: string): Parsed<T> => ({ ok: false, message });

/** Spec "Limits": source_port and destination_port at most 50 characters. */
export const PORT_SPEC_MAX = 50;

/** Quotes user input inside a message: escaped (no raw newlines in Slack), at most ~40 chars. */
export function quote(value: string): string {
  // Curly quotes inside become straight ones, so the quoted part can always be told apart.
  const escaped = JSON.stringify(value).slice(1, -1).replace(/[“”]/g, '"');
  return `“${escaped.length > 40 ? `${escaped.slice(0, 39)}…` : escaped}”`;
}

/**
 * NFKC folds full-width digits and letters (`１０.０.０.１`, `８０`) that IME keyboards produce
 * into ASCII; NBSP and other Unicode spaces are removed by `trim` and `\s`.
 */
export const fold = (text: string): string => text.normalize('NFKC').trim();

/** Words meaning "unrestricted" (spec "Firewall rule": source/destination "null when unrestricted"). */
const UNRESTRICTED = new Set(['', 'any', '*']);

// ---------------------------------------------------------------------------------------------
// Addresses
// ---------------------------------------------------------------------------------------------

export interface AddressSpec {
  /** What is sent to the cloud: the person's text, trimmed, separators without spaces. */
  text: string;
  family: IpFamily;
  kind: 'address' | 'cidr' | 'range';
}

const ADDRESS_HINT = 'use an IPv4/IPv6 address, a CIDR like 10.0.0.0/24, or a range like 10.0.0.1-10.0.0.9';
const notAnAddress = (shown: string, why?: string): string =>
  `${quote(shown)} is not an address: ${ADDRESS_HINT}${why ? ` (${why})` : ''}`;

/** Strict dotted quad: four decimal parts 0–255, no leading zeros (010 would be octal to some parsers). */
const isIpv4 = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text);

type Literal = { family: IpFamily; value: bigint } | { problem: string } | undefined;

function toBigInt(bytes: number[]): bigint {
  return bytes.reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
}

/**
 * A single literal address, its family and numeric value (for range ordering); `problem` when
 * it is nearly an address but refused for a reason worth telling; undefined otherwise.
 *
 * Stricter than ipaddr.js's `IPv6.isValid` on purpose:
 * - no zone id (`fe80::1%eth0`): meaningless to a remote firewall;
 * - an embedded IPv4 tail must be a strict dotted quad (ipaddr.js accepts `::ffff:010.0.0.1`
 *   and `::ffff:0x1.2.3.4`, while it refuses the same forms as plain IPv4);
 * - not the deprecated "IPv4-compatible" form `::a.b.c.d`: ipaddr.js reads it as the mapped
 *   address `::ffff:a.b.c.d`, so what the person meant is ambiguous.
 */
function literalAddress(text: string): Literal {
  if (isIpv4(text)) return { family: 'ipv4', value: toBigInt(ipaddr.IPv4.parse(text).toByteArray()) };
  if (!text.includes(':')) return undefined;
  if (text.includes('%')) return { problem: 'zone ids such as %eth0 are not allowed in a firewall rule' };
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    if (!isIpv4(tail)) return undefined;
    if (text.slice(0, lastColon + 1) === '::') {
      return { problem: `write an IPv4-mapped address as ::ffff:${tail}, or just ${tail}` };
    }
  }
  if (!ipaddr.IPv6.isValid(text)) return undefined;
  return { family: 'ipv6', value: toBigInt(ipaddr.IPv6.parse(text).toByteArray()) };
}

const LABEL = '[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?';
const HOSTNAME = new RegExp(`^${LABEL}(?:\\.${LABEL})*\\.?$`, 'i');

/**
 * A DNS name (`db.internal`, `localhost`), a URL or a Slack link (`<http://x.example|x.example>`):
 * the cloud would refuse them, and resolving names here would pin a rule to whatever the name
 * pointed at today — so the person is told to give the address.
 */
function looksLikeHostname(text: string): boolean {
  if (/^<.*>$/.test(text) || /^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return true;
  if (text.includes(':') || text.includes('/')) return false;
  // `0x0a000001`, `10.0.0.0xff`: numeric spellings, answered as "not an address".
  return HOSTNAME.test(text) && /[a-z]/i.test(text) && !/^\d[\dA-Fa-fXx.]*$/.test(text);
}

/**
 * Normalises an address field: NFKC, trimmed, typographic dashes (autocorrect turns `-` into
 * `–` in some clients) read as `-`, spaces around `/` and `-` removed.
 */
export function normaliseAddress(raw: string): string {
  return fold(raw)
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\s*([/-])\s*/g, '$1');
}

/**
 * A source or destination: `null` for empty, `any` or `*` (unrestricted); otherwise a literal
 * address, a CIDR whose prefix fits the family, or a range `a-b` of one family with a ≤ b.
 * The text is kept as typed (after whitespace normalisation): the cloud echoes it back, and the
 * person should recognise their rule in the listing.
 */
export function parseAddressSpec(raw: string): Parsed<AddressSpec | null> {
  const text = normaliseAddress(raw);
  if (UNRESTRICTED.has(text.toLowerCase())) return ok(null);
  if (looksLikeHostname(text)) {
    return fail(`${quote(text)} looks like a host name: firewall rules take literal addresses only — ${ADDRESS_HINT}`);
  }
  if (/\s/.test(text)) return fail(notAnAddress(text, 'one address, CIDR or range per rule'));

  const slash = text.split('/');
  if (slash.length > 2) return fail(notAnAddress(text));
  if (slash.length === 2) {
    const [addr = '', prefix = ''] = slash;
    const lit = literalAddress(addr);
    if (lit === undefined) return fail(notAnAddress(text));
    if ('problem' in lit) return fail(notAnAddress(text, lit.problem));
    const max = lit.family === 'ipv4' ? 32 : 128;
    const name = lit.family === 'ipv4' ? 'IPv4' : 'IPv6';
    if (!/^\d+$/.test(prefix) || Number(prefix) > max) return fail(notAnAddress(text, `an ${name} prefix is /0 to /${max}`));
    if (/^0\d/.test(prefix)) return fail(notAnAddress(text, `write the prefix without leading zeros: /${Number(prefix)}`));
    return ok({ text, family: lit.family, kind: 'cidr' });
  }

  const dash = text.split('-');
  if (dash.length > 2) return fail(notAnAddress(text, 'a range has exactly two ends'));
  if (dash.length === 2) {
    const [from = '', to = ''] = dash;
    const a = literalAddress(from);
    const b = literalAddress(to);
    if (a === undefined || b === undefined) return fail(notAnAddress(text, 'each end of a range must be a single address'));
    if ('problem' in a) return fail(notAnAddress(text, a.problem));
    if ('problem' in b) return fail(notAnAddress(text, b.problem));
    if (a.family !== b.family) return fail(notAnAddress(text, 'both ends of a range must be IPv4, or both IPv6'));
    if (a.value > b.value) return fail(notAnAddress(text, `the range starts after it ends: write ${to}-${from}`));
    return ok({ text, family: a.family, kind: 'range' });
  }

  const lit = literalAddress(text);
  if (lit === undefined) return fail(notAnAddress(text));
  if ('problem' in lit) return fail(notAnAddress(text, lit.problem));
  return ok({ text, family: lit.family, kind: 'address' });
}

// ---------------------------------------------------------------------------------------------
// Ports
// ---------------------------------------------------------------------------------------------

const PORT_HINT = 'use a port like 443, a range like 8000:8100, or a comma-separated list like 80,443,8000:8100';

/** A port number 1–65535 in canonical decimal (leading zeros dropped), or a message. */
function portNumber(digits: string, item: string): Parsed<number> {
  const canonical = digits.replace(/^0+(?=\d)/, '');
  const n = canonical.length > 5 ? Infinity : Number(canonical);
  if (n < 1 || n > 65535) return fail(`${quote(item)} is out of range: ports are 1 to 65535`);
  return ok(n);
}

/**
 * A source_port or destination_port: `null` for empty, `any` or `*`; otherwise `N`, `a:b`
 * (a ≤ b) or a comma-separated list of those, each 1–65535. Output has no spaces and no leading
 * zeros (`22, 080` → `22,80`) and is at most 50 characters (spec "Limits").
 */
export function parsePortSpec(raw: string): Parsed<string | null> {
  const text = fold(raw);
  if (UNRESTRICTED.has(text.toLowerCase())) return ok(null);
  const items: string[] = [];
  for (const rawItem of text.split(',')) {
    const item = rawItem.trim();
    if (item === '') return fail(`${quote(text)} has an empty entry: remove the stray comma (${PORT_HINT})`);
    const dashRange = /^(\d+)\s*[-\u2010-\u2015]\s*(\d+)$/.exec(item);
    if (dashRange) {
      return fail(`${quote(item)} is not a port range: write ranges with a colon, like ${dashRange[1]}:${dashRange[2]}`);
    }
    if (/^\d+(?:\s+\d+)+$/.test(item)) {
      return fail(`${quote(item)} is not a port: separate ports with commas, like ${item.split(/\s+/).join(',')}`);
    }
    const m = /^(\d+)(?:\s*:\s*(\d+))?$/.exec(item);
    if (!m) return fail(`${quote(item)} is not a port: ${PORT_HINT}`);
    const from = portNumber(m[1] ?? '', item);
    if (!from.ok) return from;
    if (m[2] === undefined) {
      items.push(String(from.value));
      continue;
    }
    const to = portNumber(m[2], item);
    if (!to.ok) return to;
    if (from.value > to.value) {
      return fail(`The port range ${quote(item)} starts after it ends: write ${to.value}:${from.value}`);
    }
    items.push(`${from.value}:${to.value}`);
  }
  const value = items.join(',');
  if (value.length > PORT_SPEC_MAX) {
    return fail(
      `The port list is ${value.length} characters long; the cloud takes at most ${PORT_SPEC_MAX}: combine neighbouring ports into ranges like 8000:8100, or split the rule`,
    );
  }
  return ok(value);
}
