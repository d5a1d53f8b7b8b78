/**
 * The firewall rule validator (src/operations/firewall-rule.ts): field tables, normalisations,
 * field-keyed errors, and properties — bodies always fit `AddRuleBody`, valid addresses
 * round-trip, nothing throws, and whatever the bot accepts the sandbox's server side accepts
 * too (spec "POST /security-groups/{id}/rules").
 */
import fc from 'fast-check';
import ipaddr from 'ipaddr.js';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { AddRuleBody } from '../../../src/cloud/requests.js';
import {
  FIREWALL_LIMITS,
  FIREWALL_PROTOCOLS,
  FIREWALL_RULE_FIELDS,
  FirewallRuleInput,
  PORT_PROTOCOLS,
  RULE_ERROR_KEY,
  validateFirewallRule,
} from '../../../src/operations/firewall-rule.js';
import type { FirewallRuleRaw } from '../../../src/operations/firewall-rule.js';
import { createSandbox } from '../../../src/sandbox/index.js';
import type { ListeningSandbox, Sandbox } from '../../../src/sandbox/index.js';
import * as sandboxSyntax from '../../../src/sandbox/firewall-syntax.js';

const base = { type: 'inbound', action: 'ACCEPT', protocol: 'tcp' } as const;

function accepted(raw: unknown): AddRuleBody {
  const r = validateFirewallRule(raw);
  if (!r.ok) throw new Error(`expected ok for ${JSON.stringify(raw)}, got ${JSON.stringify(r.fieldErrors)}`);
  return r.body;
}

function refused(raw: unknown): Record<string, string> {
  const r = validateFirewallRule(raw);
  if (r.ok) throw new Error(`expected field errors for ${JSON.stringify(raw)}, got ${JSON.stringify(r.body)}`);
  return r.fieldErrors;
}

/** Refused on exactly this field; returns its message. */
function refusedOn(field: string, raw: FirewallRuleRaw): string {
  const errors = refused(raw);
  expect(Object.keys(errors)).toEqual([field]);
  return errors[field] ?? '';
}

describe('exports', () => {
  it('offers the same protocol sets as the cloud (sandbox) for the modal’s select options', () => {
    expect([...FIREWALL_PROTOCOLS]).toEqual([...sandboxSyntax.KNOWN_PROTOCOLS]);
    expect([...PORT_PROTOCOLS]).toEqual([...sandboxSyntax.PORT_PROTOCOLS]);
    for (const p of PORT_PROTOCOLS) expect(FIREWALL_PROTOCOLS).toContain(p);
    expect(FIREWALL_LIMITS).toMatchObject({ protocol: 20, port: 50, comment: 255 });
  });

  it('is a zod schema whose output type is AddRuleBody', () => {
    expectTypeOf<z.output<typeof FirewallRuleInput>>().toEqualTypeOf<AddRuleBody>();
    expect(FirewallRuleInput.parse({ ...base, destination_port: '22' })).toEqual({
      type: 'inbound', action: 'ACCEPT', protocol: 'tcp', source: null, destination: null, source_port: null, destination_port: '22',
    });
    const bad = FirewallRuleInput.safeParse({ ...base, protocol: 'quic', source: 'x.example' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path)).toEqual([['protocol'], ['source']]);
  });
});

describe('type', () => {
  it.each([
    ['inbound', 'inbound'], ['Inbound', 'inbound'], ['IN', 'inbound'], [' in ', 'inbound'], ['ingress', 'inbound'],
    ['outbound', 'outbound'], ['OUT', 'outbound'], ['Egress', 'outbound'],
  ])('accepts %j as %s', (type, expected) => {
    expect(accepted({ ...base, type }).type).toBe(expected);
  });

  it.each([['sideways'], ['inbond'], ['i'], [''], ['  '], [undefined], [null]])('refuses %j', (type) => {
    expect(refusedOn('type', { ...base, type })).toMatch(/inbound.*outbound/);
  });
});

describe('action', () => {
  it.each([
    ['ACCEPT', 'ACCEPT'], ['accept', 'ACCEPT'], ['allow', 'ACCEPT'], ['Allow', 'ACCEPT'],
    ['REJECT', 'REJECT'], ['reject', 'REJECT'],
    ['DROP', 'DROP'], ['drop', 'DROP'], ['deny', 'DROP'], [' DENY ', 'DROP'],
  ])('accepts %j as %s (deny means drop silently)', (action, expected) => {
    expect(accepted({ ...base, action }).action).toBe(expected);
  });

  it.each([['permit'], ['block'], ['ok'], [''], [undefined]])('refuses %j', (action) => {
    expect(refusedOn('action', { ...base, action })).toMatch(/ACCEPT.*REJECT.*DROP/);
  });
});

describe('protocol', () => {
  it.each([
    ...FIREWALL_PROTOCOLS.map((p): [string, string] => [p, p]),
    ['TCP', 'tcp'], [' Udp ', 'udp'], ['ICMPv6', 'icmpv6'], ['icmp6', 'icmpv6'], ['ipv6-icmp', 'icmpv6'], ['ALL', 'all'],
  ])('accepts %j as %s', (protocol, expected) => {
    expect(accepted({ ...base, protocol }).protocol).toBe(expected);
  });

  it.each([['quic'], ['6'], ['tcp/udp'], ['tcp,udp'], [''], [undefined]])('refuses %j, listing the choices', (protocol) => {
    expect(refusedOn('protocol', { ...base, protocol })).toContain(FIREWALL_PROTOCOLS.join(', '));
  });

  it('refuses more than 20 characters with a length message', () => {
    expect(refusedOn('protocol', { ...base, protocol: 'p'.repeat(21) })).toMatch(/at most 20 characters/);
  });
});

describe('source and destination', () => {
  it.each([
    // The sandbox's own accept table, then normalisations.
    ['10.0.0.1', '10.0.0.1'],
    ['10.0.0.0/8', '10.0.0.0/8'],
    ['10.0.0.1-10.0.0.20', '10.0.0.1-10.0.0.20'],
    ['2001:db8::1', '2001:db8::1'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['2001:db8::1-2001:db8::ff', '2001:db8::1-2001:db8::ff'],
    ['0.0.0.0/0', '0.0.0.0/0'],
    ['::/0', '::/0'],
    ['10.0.0.5-10.0.0.5', '10.0.0.5-10.0.0.5'],
    ['10.0.0.1/32', '10.0.0.1/32'],
    ['2001:DB8::1', '2001:DB8::1'],
    ['::ffff:10.0.0.1', '::ffff:10.0.0.1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:0db8:0000:0000:0000:0000:0000:0001'],
    ['  203.0.113.7  ', '203.0.113.7'],
    ['10.0.0.1 - 10.0.0.9', '10.0.0.1-10.0.0.9'],
    ['10.0.0.1–10.0.0.9', '10.0.0.1-10.0.0.9'],
    ['10.0.0.0 / 24', '10.0.0.0/24'],
    ['１０.０.０.１', '10.0.0.1'],
    ['\u00a010.0.0.1\u00a0', '10.0.0.1'],
    ['', null], ['  ', null], ['any', null], ['ANY', null], ['*', null], [undefined, null], [null, null],
  ])('accepts %j as %j', (value, expected) => {
    expect(accepted({ ...base, source: value }).source).toBe(expected);
    expect(accepted({ ...base, destination: value }).destination).toBe(expected);
  });

  it('says literal addresses only for host names, URLs and Slack links', () => {
    for (const host of ['example.com', 'db.internal', 'localhost', 'web-1', 'https://example.com', '<http://example.com|example.com>']) {
      expect(refusedOn('source', { ...base, source: host })).toMatch(/literal addresses only/);
    }
  });

  it('names the problem in the message', () => {
    expect(refusedOn('source', { ...base, source: '10.0.0.0/33' })).toBe(
      '“10.0.0.0/33” is not an address: use an IPv4/IPv6 address, a CIDR like 10.0.0.0/24, or a range like 10.0.0.1-10.0.0.9 (an IPv4 prefix is /0 to /32)',
    );
    expect(refusedOn('source', { ...base, source: '2001:db8::/129' })).toMatch(/IPv6 prefix is \/0 to \/128/);
    expect(refusedOn('source', { ...base, source: '10.0.0.9-10.0.0.1' })).toMatch(/starts after it ends: write 10\.0\.0\.1-10\.0\.0\.9/);
    expect(refusedOn('source', { ...base, source: '10.0.0.1-2001:db8::1' })).toMatch(/both ends of a range must be IPv4, or both IPv6/);
    expect(refusedOn('source', { ...base, source: 'fe80::1%eth0' })).toMatch(/zone ids/);
    expect(refusedOn('source', { ...base, source: '::1.2.3.4' })).toMatch(/::ffff:1\.2\.3\.4/);
    expect(refusedOn('source', { ...base, source: '10.0.0.0/024' })).toMatch(/without leading zeros: \/24/);
  });

  it.each([
    ['10.0.0'], ['010.0.0.1'], ['10.0.0.256'], ['0x0a000001'], ['167772161'], ['10.0.0.1.5'],
    ['1.2.3.4/24/1'], ['10.0.0.0/'], ['/24'], ['10.0.0.0/-1'], ['10.0.0.0/8.0'], ['-'], ['10.0.0.1-'],
    ['10.0.0.1-10.0.0.5-10.0.0.9'], ['10.0.0.0/24-10.0.1.0/24'], ['[::1]'], ['1::2::3'], ['1:2:3:4:5:6:7:8:9'],
    ['::ffff:010.0.0.1'], ['::ffff:0x1.2.3.4'], ['10.0.0.1 10.0.0.2'], ['10.0.0.1,10.0.0.2'], ['∞'],
  ])('refuses %j with the address hint', (value) => {
    expect(refusedOn('source', { ...base, source: value })).toMatch(/is not an address: use an IPv4\/IPv6 address, a CIDR/);
    expect(refusedOn('destination', { ...base, destination: value })).toMatch(/is not an address/);
  });

  it('refuses an IPv4 source with an IPv6 destination (and the reverse) on the destination', () => {
    expect(refusedOn('destination', { ...base, source: '10.0.0.1', destination: '2001:db8::1' })).toBe(
      '“2001:db8::1” is IPv6 but the source “10.0.0.1” is IPv4: a rule\'s source and destination must be the same IP family (add one rule per family).',
    );
    expect(refusedOn('destination', { ...base, source: '2001:db8::/32', destination: '10.0.0.1-10.0.0.9' })).toMatch(/same IP family/);
    expect(accepted({ ...base, source: null, destination: '2001:db8::1' }).destination).toBe('2001:db8::1');
    expect(accepted({ ...base, source: '::ffff:10.0.0.1', destination: '2001:db8::1' }).source).toBe('::ffff:10.0.0.1');
  });
});

describe('ports', () => {
  it.each([
    ['22', '22'],
    ['80,443', '80,443'],
    ['22, 80', '22,80'],
    [' 8000 : 8100 ', '8000:8100'],
    ['80 , 443 , 8000:8100', '80,443,8000:8100'],
    ['1:65535', '1:65535'],
    ['65535', '65535'],
    ['53:53', '53:53'],
    ['080', '80'],
    ['８０', '80'],
    [`${'1,'.repeat(24)}1`, `${'1,'.repeat(24)}1`],
    ['', null], [' ', null], ['any', null], ['*', null], [undefined, null], [null, null],
  ])('accepts %j as %j', (value, expected) => {
    expect(accepted({ ...base, destination_port: value }).destination_port).toBe(expected);
    expect(accepted({ ...base, protocol: 'udp', source_port: value }).source_port).toBe(expected);
  });

  it.each([
    ['0', /out of range: ports are 1 to 65535/],
    ['65536', /out of range/],
    ['99999999999999999999', /out of range/],
    ['0:80', /out of range/],
    ['90:80', /starts after it ends: write 80:90/],
    ['80-90', /write ranges with a colon, like 80:90/],
    ['80–90', /like 80:90/],
    ['80 443', /separate ports with commas, like 80,443/],
    ['80,', /stray comma/],
    [',80', /stray comma/],
    ['80,,443', /stray comma/],
    ['http', /is not a port: use a port like 443/],
    ['-1', /is not a port/],
    ['1:2:3', /is not a port/],
    ['22/tcp', /is not a port/],
    ['+22', /is not a port/],
    [`${'1,'.repeat(25)}1`, /51 characters long; the cloud takes at most 50/],
    [`${'08,'.repeat(17)}8`, null],
  ])('refuses or normalises %j', (value, message) => {
    if (message === null) {
      // 52 characters typed, 35 once leading zeros go: the limit applies to what is sent.
      expect(accepted({ ...base, destination_port: value }).destination_port).toBe(`${'8,'.repeat(17)}8`);
      return;
    }
    expect(refusedOn('destination_port', { ...base, destination_port: value })).toMatch(message);
    expect(refusedOn('source_port', { ...base, source_port: value })).toMatch(message);
  });

  it.each(FIREWALL_PROTOCOLS.filter((p) => !(PORT_PROTOCOLS as readonly string[]).includes(p)))(
    'refuses ports with %s on the port field, naming the port protocols',
    (protocol) => {
      const errors = refused({ ...base, protocol, source_port: '1024:65535', destination_port: 'not even a port' });
      expect(Object.keys(errors).sort()).toEqual(['destination_port', 'source_port']);
      expect(errors.destination_port).toBe(
        `Ports are only allowed with tcp or udp; ${protocol} has none — clear the destination port or choose tcp or udp.`,
      );
      expect(errors.source_port).toMatch(/only allowed with tcp or udp.*clear the source port/);
      // "any" port is no port at all.
      expect(accepted({ ...base, protocol, destination_port: 'any' }).destination_port).toBeNull();
    },
  );

  it('still checks port syntax when the protocol itself is wrong', () => {
    expect(refused({ ...base, protocol: 'quic', destination_port: '22' })).toEqual({
      protocol: expect.stringContaining('not a protocol'),
    });
    expect(Object.keys(refused({ ...base, protocol: 'quic', destination_port: '0' })).sort()).toEqual(['destination_port', 'protocol']);
  });
});

describe('comment', () => {
  it('is trimmed, omitted when blank, and kept at 255 characters', () => {
    expect(accepted({ ...base, comment: '  SSH from office  ' }).comment).toBe('SSH from office');
    expect(accepted({ ...base, comment: 'Büro – Zugang 🔐' }).comment).toBe('Büro – Zugang 🔐');
    expect('comment' in accepted({ ...base, comment: '   ' })).toBe(false);
    expect('comment' in accepted({ ...base, comment: undefined })).toBe(false);
    expect(accepted({ ...base, comment: 'c'.repeat(255) }).comment).toHaveLength(255);
  });

  it('refuses more than 255 characters (UTF-16 units, as AddRuleBody counts)', () => {
    expect(refusedOn('comment', { ...base, comment: 'c'.repeat(256) })).toBe('The comment is 256 characters long; at most 255 are allowed.');
    expect(refusedOn('comment', { ...base, comment: '🔥'.repeat(128) })).toMatch(/at most 255/);
  });
});

describe('priority', () => {
  it.each([
    ['0', 0], ['10', 10], [' 1000 ', 1000], ['007', 7], ['１０', 10], [String(FIREWALL_LIMITS.priorityMax), FIREWALL_LIMITS.priorityMax],
  ])('accepts %j as %i', (priority, expected) => {
    expect(accepted({ ...base, priority }).priority).toBe(expected);
  });

  it('is omitted when blank (the cloud defaults to 0)', () => {
    expect('priority' in accepted({ ...base, priority: '' })).toBe(false);
    expect('priority' in accepted(base)).toBe(false);
  });

  it.each([
    ['-1', /priorities start at 0/],
    ['- 5', /priorities start at 0/],
    ['1.5', /not a priority: use a whole number from 0/],
    ['1e3', /not a priority/],
    ['+1', /not a priority/],
    ['high', /not a priority/],
    ['2147483648', /too large/],
    ['99999999999999999999999', /too large/],
  ])('refuses %j', (priority, message) => {
    expect(refusedOn('priority', { ...base, priority })).toMatch(message);
  });
});

describe('field-keyed errors', () => {
  it('reports every bad field at once, one sentence each', () => {
    const errors = refused({
      type: 'sideways', action: 'permit', protocol: 'icmp', source: 'example.com', destination: '10.0.0.0/33',
      destination_port: '22', comment: 'x'.repeat(300), priority: '-1',
    });
    expect(Object.keys(errors).sort()).toEqual(['action', 'comment', 'destination', 'destination_port', 'priority', 'source', 'type']);
    for (const message of Object.values(errors)) expect(message).toMatch(/^\S.*[^\s]$/s);
    expect(errors.destination_port).toMatch(/only allowed with tcp or udp/);
  });

  it('keys required fields when nothing is given', () => {
    expect(refused({})).toEqual({
      type: 'Choose the direction: inbound or outbound.',
      action: 'Choose the action: ACCEPT, REJECT or DROP.',
      protocol: `Choose the protocol: ${FIREWALL_PROTOCOLS.join(', ')}.`,
    });
  });

  it('keys a non-text value by its field, and input that is no object under "rule"', () => {
    expect(refused({ ...base, priority: 5 })).toEqual({ priority: 'Enter this as text.' });
    expect(refused(null)).toEqual({ [RULE_ERROR_KEY]: expect.any(String) });
    expect(refused(['inbound'])).toEqual({ [RULE_ERROR_KEY]: expect.any(String) });
  });

  it('quotes user text escaped and shortened', () => {
    const message = refusedOn('source', { ...base, source: `10.0.0.1\n${'9'.repeat(80)}` });
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^“10\.0\.0\.1\\n9+…” is not an address/);
  });

  it('ignores fields it does not know', () => {
    expect(accepted({ ...base, server: '101', foo: 1 })).not.toHaveProperty('server');
  });
});

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const ipv4Arb = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((b) => b.join('.'));
/** Several spellings of an IPv6 address, all unambiguous (no deprecated `::a.b.c.d`). */
const ipv6Arb = fc.oneof(
  fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).chain((parts) => {
    const a = new ipaddr.IPv6(parts);
    const fixed = parts.map((p) => p.toString(16).padStart(4, '0')).join(':');
    return fc.constantFrom(a.toString(), a.toNormalizedString(), fixed, a.toString().toUpperCase());
  }),
  ipv4Arb.map((v4) => `::ffff:${v4}`),
  fc.ipV6().filter((s) => !/^::\d+\.\d+\.\d+\.\d+$/.test(s)),
);
const valueOf = (text: string): bigint => ipaddr.parse(text).toByteArray().reduce((acc, b) => (acc << 8n) | BigInt(b), 0n);
const range = (a: fc.Arbitrary<string>) =>
  fc.tuple(a, a).map(([x, y]) => (valueOf(x) <= valueOf(y) ? `${x}-${y}` : `${y}-${x}`));

type Fam = 'ipv4' | 'ipv6';
const specOf = (family: Fam): fc.Arbitrary<string> => {
  const addr = family === 'ipv4' ? ipv4Arb : ipv6Arb;
  return fc.oneof(addr, fc.tuple(addr, fc.nat(family === 'ipv4' ? 32 : 128)).map(([a, p]) => `${a}/${p}`), range(addr));
};
const validSpecArb = fc.oneof(specOf('ipv4'), specOf('ipv6'));

/** Spaces and NBSPs around the text and around `/` and `-` (what Slack users type). */
const decorate = (text: fc.Arbitrary<string>) =>
  fc.tuple(text, fc.constantFrom('', ' ', '  ', '\u00a0'), fc.constantFrom('', ' ', '\t')).map(([t, outer, inner]) =>
    `${outer}${t.replace(/([/-])/g, `${inner}$1${inner}`)}${outer}`,
  );

const port = fc.integer({ min: 1, max: 65535 });
const portItem = fc.oneof(port.map(String), fc.tuple(port, port).map(([a, b]) => `${Math.min(a, b)}:${Math.max(a, b)}`));
const portListArb = fc.array(portItem, { minLength: 1, maxLength: 6 }).map((items) => items.join(','));
/** Same list with spaces after commas and leading zeros. */
const decoratedPorts = fc
  .tuple(portListArb, fc.constantFrom('', ' ', ', '), fc.boolean())
  .map(([list, sep, zeros]) => ({
    canonical: list,
    typed: list
      .split(',')
      .map((item) => (zeros ? item.replace(/(\d+)/g, '0$1') : item))
      .join(sep === ', ' ? ', ' : sep === ' ' ? ' ,' : ','),
  }));

/**
 * Near misses: borderline spellings where the bot and the server could disagree (octets and
 * ports one past the limit, leading zeros, hex, zone ids, prefixes 0–130, reversed or mixed
 * ranges, dash ranges for ports). The consistency property only means something if the bot's
 * accept/refuse line is probed here, not just well inside it.
 */
const octet = fc.oneof(fc.nat(255).map(String), fc.constantFrom('256', '010', '00', '0x1f', '1e1'));
const nearV4 = fc.tuple(octet, octet, octet, octet).map((o) => o.join('.'));
const hextet = fc.oneof({ weight: 8, arbitrary: fc.nat(0xffff).map((n) => n.toString(16)) }, { weight: 1, arbitrary: fc.constantFrom('', '00000', 'g', '0x1') });
const nearV6 = fc.oneof(
  ipv6Arb,
  ipv6Arb.map((a) => `${a}%eth0`),
  ipv4Arb.map((v4) => `::${v4}`),
  nearV4.map((v4) => `::ffff:${v4}`),
  fc.array(hextet, { minLength: 6, maxLength: 9 }).map((p) => p.join(':')),
);
const nearAddr = fc.oneof(nearV4, nearV6);
const nearPrefix = fc.oneof(fc.nat(130).map(String), fc.constantFrom('00', '024', '0128', '', '-1', '8.0'));
const nearSpecArb = fc.oneof(
  nearAddr,
  fc.tuple(fc.oneof(ipv4Arb, ipv6Arb, nearAddr), nearPrefix).map(([a, p]) => `${a}/${p}`),
  fc.tuple(nearAddr, nearAddr).map(([a, b]) => `${a}-${b}`),
  fc.tuple(ipv4Arb, ipv4Arb).map(([a, b]) => `${a}-${b}`),
  fc.tuple(ipv6Arb, ipv6Arb).map(([a, b]) => `${a}-${b}`),
);
const nearPortNum = fc.oneof(
  fc.integer({ min: 0, max: 65536 }).map(String),
  fc.constantFrom('0', '1', '65535', '65536', '00080', '000000', '0000080'),
  fc.integer({ min: 0, max: 65536 }).map((n) => `0${n}`),
);
const nearPortItem = fc.oneof(
  nearPortNum,
  fc.tuple(nearPortNum, nearPortNum, fc.constantFrom(':', ':', '-', ' : ')).map(([a, b, sep]) => `${a}${sep}${b}`),
);
const nearPortsArb = fc
  .tuple(fc.array(nearPortItem, { minLength: 1, maxLength: 12 }), fc.constantFrom(',', ', ', ' ,'))
  .map(([items, sep]) => items.join(sep));
const nearPriority = fc.constantFrom('-1', '0', '00', String(FIREWALL_LIMITS.priorityMax), String(FIREWALL_LIMITS.priorityMax + 1), '1.0');

/** Mostly well-formed rules in every spelling the bot accepts, with near misses and junk mixed in. */
const junk = fc.string({ unit: fc.constantFrom(...'0123456789abcdef.:/-, %*'.split('')), maxLength: 20 });
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: good }, { weight: 1, arbitrary: bad });
const rawRuleArb: fc.Arbitrary<FirewallRuleRaw> = fc
  .record({
    type: mostly(fc.constantFrom('inbound', 'outbound', 'in', 'out', 'IN', 'Outbound', 'ingress', 'egress', ' in '), junk),
    action: mostly(fc.constantFrom('ACCEPT', 'REJECT', 'DROP', 'accept', 'Reject', 'drop', 'allow', 'deny', 'DENY '), junk),
    protocol: mostly(fc.constantFrom(...FIREWALL_PROTOCOLS, 'TCP', 'tcp', 'udp', 'icmp6', ' Udp '), junk),
    family: fc.constantFrom<Fam>('ipv4', 'ipv6'),
    mixed: fc.nat(9).map((n) => n === 0),
    portsDespiteProtocol: fc.nat(9).map((n) => n === 0),
    src: fc.nat(12),
    dst: fc.nat(12),
    srcPorts: fc.oneof(fc.constantFrom(undefined, ''), decoratedPorts.map((p) => p.typed), nearPortsArb, junk),
    dstPorts: mostly(fc.oneof(decoratedPorts.map((p) => p.typed), nearPortsArb, fc.constantFrom(undefined, '', 'any')), junk),
    comment: fc.option(mostly(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'grapheme', minLength: 200, maxLength: 300 })), { nil: undefined }),
    priority: fc.option(mostly(fc.oneof(fc.nat(5000).map(String), fc.nat(FIREWALL_LIMITS.priorityMax).map((n) => ` 0${n}`), nearPriority), junk), { nil: undefined }),
    seed: fc.tuple(specOf('ipv4'), specOf('ipv6'), specOf('ipv4'), specOf('ipv6'), junk, junk, nearSpecArb, nearSpecArb),
  })
  .map((r): FirewallRuleRaw => {
    const [v4a, v6a, v4b, v6b, junkA, junkB, nearA, nearB] = r.seed;
    const pick = (n: number, first: boolean): string | undefined => {
      const fam: Fam = first || !r.mixed ? r.family : r.family === 'ipv4' ? 'ipv6' : 'ipv4';
      const spec = fam === 'ipv4' ? (first ? v4a : v4b) : first ? v6a : v6b;
      if (n <= 5) return spec;
      if (n <= 7) return first ? nearA : nearB;
      if (n === 8) return ` ${spec.replace('-', ' - ').replace('/', ' / ')} `;
      if (n === 9) return first ? junkA : junkB;
      return n === 10 ? 'any' : n === 11 ? '' : undefined;
    };
    // Ports mostly only where the protocol has them, so most rules are acceptable.
    const portCapable = ['tcp', 'udp'].includes(r.protocol.trim().toLowerCase());
    const keepPorts = portCapable || r.portsDespiteProtocol;
    return {
      type: r.type, action: r.action, protocol: r.protocol,
      source: pick(r.src, true), destination: pick(r.dst, false),
      source_port: keepPorts ? r.srcPorts : undefined, destination_port: keepPorts ? r.dstPorts : undefined,
      comment: r.comment, priority: r.priority,
    };
  });

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

describe('properties', () => {
  it('(a) every accepted body passes AddRuleBody unchanged', () => {
    let ok = 0;
    fc.assert(
      fc.property(rawRuleArb, (raw) => {
        const r = validateFirewallRule(raw);
        if (!r.ok) return;
        ok += 1;
        expect(AddRuleBody.parse(r.body)).toEqual(r.body);
        expect(Object.keys(r.body).every((k) => k in AddRuleBody.shape)).toBe(true);
      }),
      { numRuns: 600 },
    );
    expect(ok).toBeGreaterThan(100);
  });

  it('(b) valid IPv4/IPv6 addresses, CIDRs and ranges are accepted and round-trip', () => {
    fc.assert(
      fc.property(validSpecArb, (spec) => {
        expect(accepted({ ...base, source: spec }).source).toBe(spec);
        expect(accepted({ ...base, destination: spec }).destination).toBe(spec);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(decorate(validSpecArb).map((typed) => typed), fc.boolean(), (typed, asSource) => {
        const canonical = typed.trim().replace(/\s*([/-])\s*/g, '$1');
        const body = accepted({ ...base, [asSource ? 'source' : 'destination']: typed });
        expect(asSource ? body.source : body.destination).toBe(canonical);
      }),
      { numRuns: 300 },
    );
  });

  it('(b) port lists round-trip, spaces and leading zeros normalised', () => {
    fc.assert(
      fc.property(decoratedPorts, ({ canonical, typed }) => {
        const r = validateFirewallRule({ ...base, destination_port: typed });
        if (canonical.length <= 50) expect(r).toEqual({ ok: true, body: expect.objectContaining({ destination_port: canonical }) });
        else expect(r.ok ? undefined : r.fieldErrors.destination_port).toMatch(/at most 50/);
      }),
      { numRuns: 300 },
    );
  });

  it('(b) out-of-family prefixes and non-decimal IPv4 spellings are refused', () => {
    fc.assert(
      fc.property(ipv4Arb, fc.integer({ min: 33, max: 999 }), (a, p) => {
        expect(refused({ ...base, source: `${a}/${p}` })).toHaveProperty('source');
      }),
    );
    fc.assert(
      fc.property(ipv6Arb, fc.integer({ min: 129, max: 999 }), (a, p) => {
        expect(refused({ ...base, source: `${a}/${p}` })).toHaveProperty('source');
      }),
    );
    fc.assert(
      fc.property(fc.ipV4Extended(), (a) => {
        expect(validateFirewallRule({ ...base, source: a }).ok).toBe(ipaddr.IPv4.isValidFourPartDecimal(a));
      }),
    );
  });

  it('(c) random input never throws: a body or field errors', () => {
    const field = fc.option(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), junk), { nil: undefined });
    const rawArb = fc.oneof(
      fc.record(Object.fromEntries(FIREWALL_RULE_FIELDS.map((f) => [f, field])) as Record<string, typeof field>),
      rawRuleArb,
      fc.anything(),
    );
    const keys = new Set<string>([...FIREWALL_RULE_FIELDS, RULE_ERROR_KEY]);
    fc.assert(
      fc.property(rawArb, (raw) => {
        const r = validateFirewallRule(raw);
        if (r.ok) return;
        expect(Object.keys(r.fieldErrors).length).toBeGreaterThan(0);
        for (const [k, v] of Object.entries(r.fieldErrors)) {
          expect(keys.has(k)).toBe(true);
          expect(typeof v).toBe('string');
          expect(v.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('(d) consistency with the cloud’s server side (sandbox)', () => {
  let sandbox: Sandbox;
  let server: ListeningSandbox;
  beforeAll(async () => {
    sandbox = createSandbox();
    server = await sandbox.listen();
  });
  afterAll(() => server.close());

  const post = async (body: AddRuleBody) => {
    const r = await request(`${server.baseUrl}/security-groups/7/rules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: r.statusCode, json: (await r.body.json()) as any };
  };

  it('whatever the bot accepts, POST /security-groups/7/rules accepts (201) and echoes', async () => {
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(rawRuleArb, async (raw) => {
        const r = validateFirewallRule(raw);
        if (!r.ok) return;
        sent += 1;
        const answer = await post(r.body);
        expect({ status: answer.status, error: answer.json.error }).toEqual({ status: 201, error: undefined });
        expect(answer.json.data).toMatchObject({
          ...r.body,
          protocol: r.body.protocol,
          comment: r.body.comment ?? null,
          priority: r.body.priority ?? 0,
        });
      }),
      { numRuns: 1200 },
    );
    // "A few hundred" accepted rules actually reach the server (about a third of the inputs).
    expect(sent).toBeGreaterThan(250);
  });

  it('the sandbox also refuses what the bot refuses on port-capability and family mixing', async () => {
    const icmp = await post({ ...base, protocol: 'icmp', destination_port: '22' });
    expect(Object.keys(icmp.json.error.details)).toEqual(['destination_port']);
    const mixed = await post({ ...base, source: '10.0.0.1', destination: '2001:db8::1' });
    expect(Object.keys(mixed.json.error.details)).toEqual(['destination']);
  });
});
