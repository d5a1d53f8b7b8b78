import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SealError, createSealer } from '../../src/store/index.js';
import { T0, newOp, tempStores } from './helpers.js';

const KEYS = ['xoxb-test-bot-token-1234', 'signing-secret-abcdef'];
const PASSWORD = 'Tr0ub4dor&3-correct-horse-battery';

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

/** Flip one bit inside the base64url body, keeping it valid base64url. */
function tamper(sealed: string, at: number): string {
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  raw[at] = raw[at]! ^ 0x01;
  return 'v1.' + raw.toString('base64url');
}

describe('createSealer', () => {
  it('round-trips an object of strings, with a fresh IV each time', () => {
    const sealer = createSealer(KEYS);
    const value = { rootPassword: PASSWORD, note: 'ünïcödé ✓' };
    const a = sealer.seal(value);
    const b = sealer.seal(value);
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain(PASSWORD);
    expect(sealer.open(a)).toEqual(value);
    expect(sealer.open(b)).toEqual(value);
    // Another sealer from the same material (after a restart) opens it too.
    expect(createSealer([...KEYS]).open(a)).toEqual(value);
  });

  it('detects tampering anywhere: IV, tag, or ciphertext', () => {
    const sealer = createSealer(KEYS);
    const sealed = sealer.seal({ rootPassword: PASSWORD });
    for (const at of [0, 11, 12, 27, 28, 30]) {
      const err = errorOf(() => sealer.open(tamper(sealed, at)));
      expect(err).toBeInstanceOf(SealError);
      expect(err.message).toMatch(/altered, or sealed with a different key/);
    }
    expect(() => sealer.open(sealed.slice(0, 20))).toThrow(SealError);
    expect(() => sealer.open(sealed.slice(0, -2))).toThrow(SealError);
    expect(() => sealer.open('v2.' + sealed.slice(3))).toThrow(/not in the v1 format/);
    expect(() => sealer.open('v1.!!!')).toThrow(/not in the v1 format/);
  });

  it('fingerprints secrets with a key: the same for every replica (same material), another with other material, never the plain hash', () => {
    const a = createSealer(KEYS);
    const b = createSealer(KEYS);
    const other = createSealer(['xoxb-another-token-5678', 'x']);
    const fp = a.fingerprint({ password: PASSWORD });
    expect(b.fingerprint({ password: PASSWORD })).toBe(fp);
    expect(other.fingerprint({ password: PASSWORD })).not.toBe(fp);
    expect(a.fingerprint({ password: `${PASSWORD}!` })).not.toBe(fp);
    expect(a.fingerprint({ password: PASSWORD, other: 'x' })).toBe(a.fingerprint({ other: 'x', password: PASSWORD }));
    for (const plain of [PASSWORD, JSON.stringify({ password: PASSWORD }), JSON.stringify([['password', PASSWORD]])]) {
      expect(fp).not.toBe(createHash('sha256').update(plain).digest('hex'));
    }
    expect(fp).not.toContain(PASSWORD);
  });

  it('refuses a value sealed with different key material', () => {
    const sealed = createSealer(KEYS).seal({ rootPassword: PASSWORD });
    const err = errorOf(() => createSealer(['xoxb-another-token']).open(sealed));
    expect(err).toBeInstanceOf(SealError);
    // Joining is unambiguous: the same characters split differently are another key.
    expect(() => createSealer([['xoxb', 'test-bot-token-1234signing-secret-abcdef'].join('-')]).open(sealed)).toThrow(SealError);
  });

  it('never puts the plaintext, the sealed text or the key material in an error', () => {
    const sealer = createSealer(KEYS);
    const sealed = sealer.seal({ rootPassword: PASSWORD });
    const err = errorOf(() => sealer.open(tamper(sealed, 40)));
    const shown = `${err.message} ${err.stack} ${JSON.stringify(err)} ${String((err as { cause?: unknown }).cause)}`;
    for (const secret of [PASSWORD, sealed.slice(3, 30), ...KEYS]) expect(shown).not.toContain(secret);
  });

  it('needs key material and string values', () => {
    expect(() => createSealer([])).toThrow(/key material/);
    expect(() => createSealer(['', ''])).toThrow(/key material/);
    const sealer = createSealer(KEYS);
    expect(() => sealer.seal({ n: 1 } as unknown as Record<string, string>)).toThrow(/string values/);
  });
});

describe('sealed secrets in the database', () => {
  let t: ReturnType<typeof tempStores>;
  beforeEach(() => {
    t = tempStores();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  const filesOf = (path: string) =>
    Buffer.concat([path, `${path}-wal`, `${path}-journal`].filter(existsSync).map((f) => readFileSync(f)));

  it('the plaintext password never appears in the database file or its WAL', async () => {
    const path = t.file();
    const store = t.open(path);
    const sealer = createSealer(KEYS);
    const sealed = sealer.seal({ rootPassword: PASSWORD });
    await store.operations.create(newOp({ args: { server: 'srv-before' } }));
    const { record } = await store.operations.create(
      newOp({ opId: 'server.reinstall', args: { server: 'srv-marker-77' }, sealedSecrets: sealed }),
    );
    await store.operations.create(newOp({ args: { server: 'srv-after' } }));

    const live = filesOf(path);
    expect(existsSync(`${path}-wal`)).toBe(true);
    // The grep is meaningful: the record's other data is in these bytes.
    expect(live.includes('srv-marker-77')).toBe(true);
    expect(live.includes(sealed)).toBe(true);
    for (const needle of [PASSWORD, Buffer.from(PASSWORD, 'utf16le'), Buffer.from(PASSWORD).toString('base64')]) {
      expect(live.includes(needle)).toBe(false);
    }

    // At confirm time the secret is opened from the record, used, and erased.
    const confirmed = await store.operations.transition(record.id, {
      from: ['pending'],
      to: 'confirmed',
      now: T0 + 1,
      patch: { confirmedBy: 'U_BOB', confirmedAt: T0 + 1 },
    });
    expect(confirmed.ok && sealer.open(confirmed.record.sealedSecrets!)).toEqual({ rootPassword: PASSWORD });
    await store.operations.transition(record.id, {
      from: ['confirmed'],
      to: 'running',
      now: T0 + 2,
      patch: { sealedSecrets: null },
    });
    expect(filesOf(path).includes(PASSWORD)).toBe(false);

    await store.close(); // checkpoints the WAL into the main file
    const closed = readFileSync(path);
    expect(closed.includes('srv-marker-77')).toBe(true);
    expect(closed.includes(PASSWORD)).toBe(false);
    // secure_delete: the erased ciphertext is not left behind in the page's free space either.
    expect(closed.includes(sealed.slice(3))).toBe(false);
  });
});
