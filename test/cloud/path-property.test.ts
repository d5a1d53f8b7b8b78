/**
 * Property: whatever string a user gives as a server, address, uuid or numeric id, either the
 * client refuses it locally (INVALID_IDENTIFIER, nothing sent), or exactly one request arrives
 * whose raw path has the expected segments, each decoding back to the input. An independent
 * oracle says which of the two must happen.
 */
import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudApiError } from '../../src/cloud/errors.js';
import { ok, startFakeServer } from './fake-server.js';
import type { FakeServer } from './fake-server.js';
import { clientFor } from './helpers.js';

let server: FakeServer;
let client: ReturnType<typeof clientFor>;
beforeAll(async () => {
  server = await startFakeServer();
  server.fallback((req) => (req.method === 'DELETE' ? { status: 204 } : ok({ status: 'active', state: 'running' })));
  client = clientFor(server);
});
afterAll(async () => {
  await client.close();
  await server.close();
});

// Oracles written apart from src/cloud/ids.ts.
const oracle = {
  server: (s: string) => /^(?:[1-9]\d{0,18}|[A-Za-z0-9]{8}|[\dA-Fa-f]{8}(?:-[\dA-Fa-f]{4}){3}-[\dA-Fa-f]{12})$/.test(s),
  uuid: (s: string) => /^[\dA-Fa-f]{8}(?:-[\dA-Fa-f]{4}){3}-[\dA-Fa-f]{12}$/.test(s),
  ip: (s: string) => isIP(s) !== 0 && !/[%\s[\]]/.test(s),
  id: (s: string) => /^[1-9]\d*$/.test(s) && Number.isSafeInteger(Number(s)),
};

const HOSTILE = [
  '', ' ', '.', '..', '../', '../etc', '..%2f', '%2e%2e', '%2F', '%252F', '/', '\\', '?', '#', '%', '%00', '\u0000', '\n', '\t',
  'fe80::1%eth0', '[::1]', '1.2.3.4/24', '0', '007', '１２３', 'ａbcdefgh', '\u202e', '\ud800',
];
const SUFFIX = fc.constantFrom('', '/', '%2F', '/..', '..', ' ', '%', '%eth0', '%25lo', '\n', '?a=1', '#x', '%2e', '\\', '\u0000', '0');

const numeric = fc.bigInt({ min: 1n, max: 9_223_372_036_854_775_807n }).map(String);
const short = fc.stringMatching(/^[A-Za-z0-9]{8}$/);
const uuid = fc.uuid().map(String);
const validFor: Record<keyof typeof oracle, fc.Arbitrary<string>> = {
  server: fc.oneof(numeric, short, uuid),
  uuid,
  ip: fc.oneof(fc.ipV4(), fc.ipV6()),
  id: fc.integer({ min: 1 }).map(String),
};
const anyValid = fc.oneof(...Object.values(validFor));
const BAD_CHARS = fc.constantFrom(...'/.%?#\\ \n\t:-gZ0\u0000é０['.split(''));

/** A valid value with one character replaced or inserted: same shape, one flaw. */
const corrupt = (valid: fc.Arbitrary<string>) =>
  fc.tuple(valid, fc.nat(), BAD_CHARS, fc.boolean()).map(([v, n, ch, insert]) => {
    const i = n % (v.length + 1);
    return v.slice(0, i) + ch + v.slice(insert ? i : i + 1);
  });

/** Mostly right for the slot, often almost right, sometimes anything at all. */
const candidateFor = (kind: keyof typeof oracle): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 6, arbitrary: validFor[kind] },
    { weight: 2, arbitrary: fc.tuple(SUFFIX, validFor[kind], SUFFIX).map(([a, v, b]) => a + v + b) },
    { weight: 3, arbitrary: corrupt(validFor[kind]) },
    { weight: 1, arbitrary: anyValid },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE) },
  );

type Case = {
  name: string;
  kinds: (keyof typeof oracle)[];
  call: (args: string[]) => Promise<unknown>;
  /** Raw path segments with `null` where the inputs go, in order. */
  shape: (string | null)[];
};

const cases: Case[] = [
  { name: 'servers.removeIp', kinds: ['server', 'ip'], call: ([s, a]) => client.servers.removeIp(s!, a!), shape: ['', 'v2', 'servers', null, 'ips', null] },
  { name: 'backups.delete', kinds: ['server', 'uuid'], call: ([s, b]) => client.backups.delete(s!, b!), shape: ['', 'v2', 'servers', null, 'backups', null] },
  { name: 'servers.status', kinds: ['server'], call: ([s]) => client.servers.status(s!), shape: ['', 'v2', 'servers', null, 'status'] },
  { name: 'workers.status', kinds: ['uuid'], call: ([w]) => client.workers.status(w!), shape: ['', 'v2', 'workers', null, 'status'] },
  {
    name: 'securityGroups.deleteRule',
    kinds: ['id', 'id'],
    // Chat input arrives as text; the interface's numbers are checked the same way.
    call: ([g, r]) => client.securityGroups.deleteRule(g as unknown as number, r as unknown as number),
    shape: ['', 'v2', 'security-groups', null, 'rules', null],
  },
];

let accepted = 0;

describe('path property', () => {
  afterAll(() => {
    // The property says little if almost everything is refused.
    expect(accepted).toBeGreaterThan(cases.length * 50);
  });

  it.each(cases)('$name: refused locally, or one request with exactly the input in its segments', async (c) => {
    await fc.assert(
      fc.asyncProperty(fc.tuple(...c.kinds.map(candidateFor)), async (args) => {
        const before = server.requests.length;
        const shouldPass = args.every((a, i) => oracle[c.kinds[i]!](a));
        let refused: unknown;
        try {
          await c.call(args);
        } catch (e) {
          refused = e;
        }
        const sent = server.requests.slice(before);
        if (!shouldPass) {
          expect(refused).toBeInstanceOf(CloudApiError);
          expect((refused as CloudApiError).code).toBe('INVALID_IDENTIFIER');
          expect(sent).toHaveLength(0);
          return;
        }
        expect(refused).toBeUndefined();
        expect(sent).toHaveLength(1);
        accepted += 1;
        const segments = sent[0]!.rawUrl.split('/');
        expect(segments).toHaveLength(c.shape.length);
        let k = 0;
        c.shape.forEach((fixed, i) => {
          const raw = segments[i]!;
          if (fixed !== null) return expect(raw).toBe(fixed);
          const input = args[k]!;
          const kind = c.kinds[k++]!;
          expect(raw).not.toMatch(/[/?#]/);
          expect(decodeURIComponent(raw)).toBe(input);
          expect(oracle[kind](decodeURIComponent(raw))).toBe(true);
        });
      }),
      { numRuns: 200 },
    );
  });
});
