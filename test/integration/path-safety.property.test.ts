/**
 * Property, over loopback against the sandbox: no generated identifier or address reaches the
 * server as anything but one valid path segment. For every input, either the client refuses
 * it locally (INVALID_IDENTIFIER, and the sandbox records nothing), or exactly one request
 * arrives whose raw path has the route's segment count, the route's literal segments, and
 * the input — decoded — in its slot. An oracle written apart from src/cloud/ids.ts says
 * which of the two must happen.
 */
import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CloudApiError } from '../../src/cloud/errors.js';
import type { CloudClient } from '../../src/cloud/cloud-client.js';
import { SEED_SERVERS, SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import { startRig } from './helpers.js';
import type { Rig } from './helpers.js';

const RUNS = 300;

let rig: Rig;
/** Both outcomes must be common, or a property would pass vacuously. */
const outcomes = { refused: 0, sent: 0 };
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig.close();
  expect(outcomes.refused).toBeGreaterThan(RUNS);
  expect(outcomes.sent).toBeGreaterThan(RUNS);
});

// ── Oracles (independent of src/cloud/ids.ts) ─────────────────────────────────────────────
const UUID_RE = /^[\dA-Fa-f]{8}(?:-[\dA-Fa-f]{4}){3}-[\dA-Fa-f]{12}$/;
const oracle = {
  server: (s: string) => /^[1-9]\d{0,18}$/.test(s) || /^[A-Za-z\d]{8}$/.test(s) || UUID_RE.test(s),
  serverUuid: (s: string) => /^[A-Za-z\d]{8}$/.test(s) || UUID_RE.test(s),
  uuid: (s: string) => UUID_RE.test(s),
  ip: (s: string) => isIP(s) !== 0 && !/[%\s[\]]/.test(s),
  id: (v: string | number) =>
    typeof v === 'number' ? Number.isSafeInteger(v) && v >= 1 : /^[1-9]\d*$/.test(v) && Number.isSafeInteger(Number(v)),
};
type Kind = keyof typeof oracle;

// ── Generators ─────────────────────────────────────────────────────────────────────────────
const numericId = fc.bigInt({ min: 1n, max: 9_999_999_999_999_999_999n }).map(String);
const shortUuid = fc.stringMatching(/^[A-Za-z0-9]{8}$/);
const uuid = fc.uuid().map(String);
const ip = fc.oneof(fc.ipV4(), fc.ipV6(), fc.constantFrom('185.10.20.12', '2a0c:8c0:1::11', '::', '::ffff:1.2.3.4'));
const safeId = fc.oneof(fc.integer({ min: 1, max: 200 }), fc.maxSafeNat().filter((n) => n >= 1), fc.constantFrom(11, 12, 13, 71, 74, 81));

const valid: Record<Exclude<Kind, 'id'>, fc.Arbitrary<string>> = {
  server: fc.oneof(numericId, shortUuid, uuid, fc.constantFrom('101', SEED_SERVERS.web.uuid, '9B7E1D42')),
  serverUuid: fc.oneof(shortUuid, uuid),
  uuid: fc.oneof(uuid, fc.constant(SEED_WORKER_UUID)),
  ip,
};
const anyValid = fc.oneof(...Object.values(valid), safeId.map(String));

/** Pieces that would change a path's meaning if they got through unencoded. */
const PIECES = ['/', '%2F', '%2f', '..', '.', '%2e', '%2E%2E', '?', '#', '\\', ' ', '%', '%25', '%00', '\u0000', '\n', ':', '@', ';', '&', '=', '+', '~'];
const HOSTILE = [
  '', ' ', '.', '..', '../', '../account/usage', '..%2F..%2Fssh-keys', '%2e%2e', '%2F', '%252F', '/', '//', '\\..\\', '?page=2', '#frag',
  'fe80::1%eth0', '[::1]', '1.2.3.4/24', '1.2.3.4:80', '0', '007', '-1', '1e3', '0x1F', '１２３', 'ａbcdefgh', '\u202e', '\ud800', '\udfff',
  '101/ips', '101%2Fips', '101?x=1', '101#x', '101 ', ' 101', '101\n',
];
/** Any UTF-16 code unit, lone surrogates included. */
const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 24 });
const mixture = fc
  .array(fc.oneof(fc.constantFrom(...PIECES), anyValid, fc.string({ maxLength: 6 })), { minLength: 1, maxLength: 5 })
  .map((parts) => parts.join(''));
/** A valid value with one character replaced or inserted. */
const corrupt = (v: fc.Arbitrary<string>) =>
  fc.tuple(v, fc.nat(), fc.constantFrom(...'/.%?#\\ \n:-gZ0\u0000é０['.split('')), fc.boolean()).map(([s, n, ch, insert]) => {
    const i = n % (s.length + 1);
    return s.slice(0, i) + ch + s.slice(insert ? i : i + 1);
  });

/** Mostly right for the slot, often almost right, sometimes anything at all. */
function candidate(v: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: v },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', ...PIECES), v, fc.constantFrom('', ...PIECES)).map(([a, x, b]) => a + x + b) },
    { weight: 3, arbitrary: corrupt(v) },
    { weight: 3, arbitrary: mixture },
    { weight: 1, arbitrary: anyValid },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: codeUnits },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE) },
  );
}
const idCandidate: fc.Arbitrary<string | number> = fc.oneof(
  { weight: 4, arbitrary: safeId },
  { weight: 2, arbitrary: safeId.map(String) },
  { weight: 2, arbitrary: candidate(safeId.map(String)) },
  { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -0, 2 ** 53, Infinity, NaN, 1.5)) },
);

// ── The check ──────────────────────────────────────────────────────────────────────────────
interface Slot {
  kind: Kind;
  value: string | number;
}

/**
 * Runs `call` and checks the outcome against the oracle. `shape` is the route's raw path
 * after /v2 with `null` for each slot, in order.
 */
async function check(
  method: string,
  shape: (string | null)[],
  slots: Slot[],
  call: () => Promise<unknown>,
  body?: (b: unknown) => void,
  /** Identifiers the client checks that go into the body rather than the path. */
  bodySlots: Slot[] = [],
) {
  const mark = rig.sandbox.requests.length;
  let error: unknown;
  try {
    await call();
  } catch (e) {
    error = e;
  }
  const sent = rig.sandbox.requests.slice(mark);
  const acceptable = [...slots, ...bodySlots].every((s) =>
    s.kind === 'id' ? oracle.id(s.value) : typeof s.value === 'string' && oracle[s.kind](s.value),
  );

  if (error instanceof CloudApiError && error.code === 'INVALID_IDENTIFIER') {
    expect(sent, 'refused locally, yet a request arrived').toHaveLength(0);
    expect(error.status).toBe(0);
    expect(acceptable, `refused an identifier the oracle accepts: ${JSON.stringify([...slots, ...bodySlots])}`).toBe(false);
    outcomes.refused += 1;
    return;
  }
  // Anything else must be the sandbox's own answer to exactly one request.
  if (error !== undefined) {
    expect(error).toBeInstanceOf(CloudApiError);
    expect((error as CloudApiError).status).toBeGreaterThanOrEqual(400);
  }
  expect(acceptable, `sent an identifier the oracle refuses: ${JSON.stringify([...slots, ...bodySlots])}`).toBe(true);
  expect(sent).toHaveLength(1);
  const req = sent[0]!;
  expect(req.method).toBe(method);
  const raw = req.rawPath.split('/');
  expect(raw.slice(0, 2)).toEqual(['', 'v2']);
  const parts = raw.slice(2);
  expect(parts).toHaveLength(shape.length);
  let n = 0;
  shape.forEach((literal, i) => {
    const segment = parts[i] ?? '';
    if (literal !== null) {
      expect(segment).toBe(literal);
      return;
    }
    const slot = slots[n++]!;
    // One segment: nothing that could end or climb out of it, decoding back to the input.
    expect(segment).not.toMatch(/[/?#\\\s]/);
    expect(segment).not.toMatch(/^\.{1,2}$/);
    expect(decodeURIComponent(segment)).toBe(String(slot.value));
    expect(req.segments[i]).toBe(String(slot.value));
  });
  expect(req.query).toEqual({});
  body?.(req.body);
  outcomes.sent += 1;
}

const c = (): CloudClient => rig.client;
const asNumber = (v: string | number) => v as number; // the client must cope with text cast to a number type

describe('path segments stay single, valid and faithful', () => {
  it('servers.status(server)', async () => {
    await fc.assert(
      fc.asyncProperty(candidate(valid.server), (s) =>
        check('GET', ['servers', null, 'status'], [{ kind: 'server', value: s }], () => c().servers.status(s)),
      ),
      { numRuns: RUNS },
    );
  });

  it('servers.removeIp(server, address)', async () => {
    await fc.assert(
      fc.asyncProperty(candidate(valid.server), candidate(valid.ip), (s, a) =>
        check(
          'DELETE',
          ['servers', null, 'ips', null],
          [
            { kind: 'server', value: s },
            { kind: 'ip', value: a },
          ],
          () => c().servers.removeIp(s, a),
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('backups.delete(server, backupUuid)', async () => {
    await fc.assert(
      fc.asyncProperty(candidate(valid.server), candidate(valid.uuid), (s, b) =>
        check(
          'DELETE',
          ['servers', null, 'backups', null],
          [
            { kind: 'server', value: s },
            { kind: 'uuid', value: b },
          ],
          () => c().backups.delete(s, b),
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('workers.status(worker)', async () => {
    await fc.assert(
      fc.asyncProperty(candidate(valid.uuid), (w) =>
        check('GET', ['workers', null, 'status'], [{ kind: 'uuid', value: w }], () => c().workers.status(w)),
      ),
      { numRuns: RUNS },
    );
  });

  it('sshKeys.delete(id), with text cast to a number', async () => {
    await fc.assert(
      fc.asyncProperty(idCandidate, (id) =>
        check('DELETE', ['ssh-keys', null], [{ kind: 'id', value: id }], () => c().sshKeys.delete(asNumber(id))),
      ),
      { numRuns: RUNS },
    );
  });

  it('securityGroups.deleteRule(id, ruleId)', async () => {
    await fc.assert(
      fc.asyncProperty(idCandidate, idCandidate, (g, r) =>
        check(
          'DELETE',
          ['security-groups', null, 'rules', null],
          [
            { kind: 'id', value: g },
            { kind: 'id', value: r },
          ],
          () => c().securityGroups.deleteRule(asNumber(g), asNumber(r)),
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('servers.rename(server, name): the name travels in the body, verbatim', async () => {
    await fc.assert(
      fc.asyncProperty(candidate(valid.server), fc.string({ unit: 'binary', maxLength: 50 }), (s, name) =>
        check('PATCH', ['servers', null, 'rename'], [{ kind: 'server', value: s }], () => c().servers.rename(s, name), (body) =>
          expect(body).toEqual({ name }),
        ),
      ),
      { numRuns: RUNS },
    );
  });

  it('securityGroups.attachServer(id, serverUuid): the uuid is checked too, and travels in the body', async () => {
    await fc.assert(
      fc.asyncProperty(idCandidate, candidate(valid.serverUuid), (g, u) =>
        check(
          'POST',
          ['security-groups', null, 'servers', 'attach'],
          [{ kind: 'id', value: g }],
          () => c().securityGroups.attachServer(asNumber(g), u),
          (body) => expect(body).toEqual({ server_uuid: u }),
          [{ kind: 'serverUuid', value: u }],
        ),
      ),
      { numRuns: RUNS },
    );
  });
});
