/** Path safety: what may become a URL path segment (src/cloud/ids.ts). */
import { describe, expect, it } from 'vitest';
import { CloudApiError } from '../../src/cloud/errors.js';
import {
  IpAddressSchema,
  PositiveIntSchema,
  ServerIdSchema,
  UuidSchema,
  ipAddress,
  path,
  positiveInt,
  serverId,
  serverUuid,
  uuid,
} from '../../src/cloud/ids.js';
import type { PathSegment } from '../../src/cloud/ids.js';

function refusal(run: () => unknown): CloudApiError {
  try {
    run();
  } catch (e) {
    if (e instanceof CloudApiError) return e;
    throw e;
  }
  throw new Error('accepted');
}

const UUID = '3f2a9c4e-8b1d-4e6f-a7c2-9d0e1f2a3b4c';

/** Refused by every validator: traversal, encodings, whitespace, unicode look-alikes. */
const HOSTILE = [
  '', ' ', '\t', '\n', '..', '.', '../etc', '..%2f', '..%2F', '%2e%2e', '%2F', '1%2F2', '1/2', '/', '\\', '1\\2',
  '?', '#', '1?x=1', '1#x', '%00', '\u0000', '\u202e', 'ａbcdefgh', 'аbcdefgh', '１２３', '12 ', ' 12', '1\n',
];

describe('serverId', () => {
  it.each([
    '1', '42', '123456789', '9223372036854775807', 'abcdEF12', '01234567', '3f2a9c4e', '00000000',
    UUID, UUID.toUpperCase(),
  ])('accepts %j', (v) => {
    expect(serverId(v)).toBe(v);
  });

  it.each([
    ...HOSTILE, '0', '007', '0123', '12345678901234567890', '-1', '+1', '1.0', '1e3', 'abcdefg', 'abcdefghi',
    'ab-defgh', 'abcdefg_', 'abcd efg', '3f2a9c4e8b1d4e6fa7c29d0e1f2a3b4c', `{${UUID}}`, `${UUID}0`,
    UUID.replace('3', 'g'), UUID.replace(/-/g, '_'), `${UUID}\n`, 'a'.repeat(200),
  ])('refuses %j with INVALID_IDENTIFIER', (v) => {
    expect(refusal(() => serverId(v))).toMatchObject({ status: 0, code: 'INVALID_IDENTIFIER' });
  });

  it('says what is wrong, quoting the input', () => {
    expect(refusal(() => serverId('../etc')).message).toBe(
      '“../etc” is not a server id: use a numeric id, an 8-character short uuid or a 36-character uuid',
    );
    expect(refusal(() => serverId('x\ny')).message).toMatch(/^“x\\ny” is not a server id/);
    expect(refusal(() => serverId('z'.repeat(100))).message).toMatch(/^“z{39}…”/);
    expect(refusal(() => serverId(42 as unknown as string)).message).toMatch(/^“42” is not a server id/);
    expect(refusal(() => serverId(null as unknown as string)).message).toMatch(/^a value of type null is not/);
  });
});

describe('serverUuid (attach body)', () => {
  it('accepts uuid_short and uuid, refuses a numeric id that is not 8 characters', () => {
    expect(serverUuid('3f2a9c4e')).toBe('3f2a9c4e');
    expect(serverUuid(UUID)).toBe(UUID);
    expect(refusal(() => serverUuid('123')).message).toMatch(/is not a server uuid/);
  });
});

describe('ipAddress', () => {
  it.each(['192.0.2.1', '0.0.0.0', '255.255.255.255', '2001:db8::1', '::1', '::', '::ffff:192.0.2.1', 'FE80::1', '2001:0db8:0000:0000:0000:0000:0000:0001'])(
    'accepts %j',
    (v) => {
      expect(ipAddress(v)).toBe(v);
    },
  );

  it.each([
    ...HOSTILE, 'fe80::1%eth0', 'fe80::1%25eth0', 'fe80::1%1', '[2001:db8::1]', '[::1]:80', '192.0.2.1/24', '192.0.2.1:80',
    '256.0.0.1', '01.2.3.4', '1.2.3', '1.2.3.4.5', '../1.2.3.4', '1.2.3.4/../x', 'localhost', 'example.com', '192.0.2.1 ',
    '１92.0.2.1', '2001:db8:::1', '1.2.3.4\u0000',
  ])('refuses %j', (v) => {
    expect(refusal(() => ipAddress(v)).message).toMatch(/is not an IP address: use a literal IPv4 or IPv6 address/);
  });
});

describe('uuid', () => {
  it.each([UUID, UUID.toUpperCase(), '00000000-0000-0000-0000-000000000000'])('accepts %j', (v) => {
    expect(uuid(v)).toBe(v);
  });

  it.each([...HOSTILE, '3f2a9c4e', '3f2a9c4e8b1d4e6fa7c29d0e1f2a3b4c', `{${UUID}}`, `${UUID} `, `urn:uuid:${UUID}`, UUID.slice(1), `${UUID}a`, '123'])(
    'refuses %j',
    (v) => {
      expect(refusal(() => uuid(v)).message).toMatch(/is not a uuid: use a 36-character uuid/);
    },
  );
});

describe('positiveInt', () => {
  it.each([
    [1, 1], [42, 42], ['1', 1], ['42', 42], ['9007199254740991', 9007199254740991], [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  ] as const)('accepts %j', (v, n) => {
    expect(positiveInt(v)).toBe(n);
  });

  it.each([
    0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '0', '01', '007', '1.0', '1e3', ' 1', '1 ', '', '+1', '-1', '0x10',
    '9007199254740993', '99999999999999999', '../1', '1/2', '%31',
  ])('refuses %j', (v) => {
    expect(refusal(() => positiveInt(v, 'security group id')).message).toMatch(/is not a security group id: use a positive whole number/);
  });

  it('uses “an” where English does', () => {
    expect(refusal(() => positiveInt(0, 'SSH key id')).message).toMatch(/is not an SSH key id/);
    expect(refusal(() => positiveInt(0)).message).toMatch(/is not an id/);
  });
});

describe('zod schemas for the command parser', () => {
  it('share rules and messages with the validators', () => {
    expect(ServerIdSchema.parse('123')).toBe('123');
    const bad = ServerIdSchema.safeParse('../etc');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toMatch(/^“\.\.\/etc” is not a server id/);
    expect(IpAddressSchema.safeParse('fe80::1%eth0').success).toBe(false);
    expect(UuidSchema.parse(UUID)).toBe(UUID);
    expect(PositiveIntSchema.parse('12')).toBe(12);
    expect(PositiveIntSchema.parse(12)).toBe(12);
    expect(PositiveIntSchema.safeParse('012').success).toBe(false);
    expect(ServerIdSchema.safeParse(12).success).toBe(false);
  });
});

describe('path', () => {
  it('encodes each validated segment', () => {
    expect(path`/servers/${serverId('123')}/ips/${ipAddress('2001:db8::1')}`).toBe('/servers/123/ips/2001%3Adb8%3A%3A1');
    expect(path`/security-groups/${positiveInt(5)}/rules/${positiveInt('9')}`).toBe('/security-groups/5/rules/9');
  });

  it('refuses an empty or dot segment smuggled past the types', () => {
    const smuggle = (v: string) => v as unknown as PathSegment;
    for (const v of ['', '.', '..']) {
      expect(refusal(() => path`/servers/${smuggle(v)}/status`).code).toBe('INVALID_IDENTIFIER');
    }
    expect(path`/servers/${smuggle('../x')}`).toBe('/servers/..%2Fx'); // still one segment
  });
});
