/**
 * Sealing of secret arguments (a reinstall password typed in a modal) between the request and
 * the confirmation click, so they never reach the database in plain text.
 *
 * The key is derived with HKDF-SHA256 from key material the caller passes (the bot's own
 * tokens): no extra secret to configure, and sealed data lives only minutes. Consequence: if
 * those tokens change, values sealed before cannot be opened (treat them as expired).
 *
 * Format: 'v1.' + base64url(iv (12) | tag (16) | AES-256-GCM ciphertext of JSON).
 * Errors never contain the plaintext, the sealed text or the key.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'v1.';
const SALT = 'cloudbot/seal/v1';
const INFO = 'cloudbot/seal/v1/aes-256-gcm';
const AAD = Buffer.from('cloudbot/seal/v1', 'utf8');
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SealError extends Error {
  override readonly name = 'SealError';
}

export interface Sealer {
  seal(value: Record<string, string>): string;
  /** Throws SealError if the value was tampered with, truncated, or sealed with another key. */
  open(sealed: string): Record<string, string>;
  /**
   * A keyed digest (HMAC-SHA256, hex) of secret values: the same for every replica (same key
   * material), of no use to anyone guessing a password from a copy of the database.
   */
  fingerprint(values: Record<string, string>): string;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => typeof v === 'string')
  );
}

export function createSealer(keyMaterial: string[]): Sealer {
  const pieces = keyMaterial.filter((k) => typeof k === 'string' && k.length > 0);
  if (pieces.length === 0) throw new SealError('createSealer needs at least one non-empty key material string');
  // JSON keeps the pieces unambiguous (['ab','c'] and ['a','bc'] give different keys).
  const ikm = Buffer.from(JSON.stringify(pieces), 'utf8');
  const key = Buffer.from(hkdfSync('sha256', ikm, SALT, INFO, 32));
  // Another key from the same material, for fingerprints only (never the sealing key twice).
  const macKey = Buffer.from(hkdfSync('sha256', ikm, SALT, 'cloudbot/seal/v1/fingerprint', 32));

  return {
    seal(value) {
      if (!isStringRecord(value)) throw new SealError('seal() takes an object of string values');
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(AAD);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },

    fingerprint(values) {
      const sorted = Object.keys(values).sort().map((k) => [k, values[k]]);
      return createHmac('sha256', macKey).update(JSON.stringify(sorted)).digest('hex');
    },
    open(sealed) {
      if (typeof sealed !== 'string' || !sealed.startsWith(PREFIX)) {
        throw new SealError('Sealed value is not in the v1 format');
      }
      const encoded = sealed.slice(PREFIX.length);
      if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new SealError('Sealed value is not in the v1 format');
      const raw = Buffer.from(encoded, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new SealError('Sealed value is truncated');
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const body = raw.subarray(IV_BYTES + TAG_BYTES);
      let plain: string;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(AAD);
        decipher.setAuthTag(tag);
        plain = Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        // Deliberately no cause: keep crypto internals and data out of logs.
        throw new SealError('Sealed value could not be opened: it was altered, or sealed with a different key');
      }
      let value: unknown;
      try {
        value = JSON.parse(plain);
      } catch {
        throw new SealError('Sealed value did not contain an object of strings');
      }
      if (!isStringRecord(value)) throw new SealError('Sealed value did not contain an object of strings');
      return value;
    },
  };
}
