/** Identifiers and secrets the sandbox hands out. */
import { createHash, randomBytes, randomUUID } from 'node:crypto';

const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random bearer token: 32 hex characters. */
export function randomToken(): string {
  return randomBytes(16).toString('hex');
}

export function newUuid(): string {
  return randomUUID();
}

/** A generated root password (reinstall without `password`): 20 characters, no look-alikes. */
export function generatePassword(length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

/** Deterministic uuid (v4 layout) from a label, so seeded ids are stable across runs. */
export function stableUuid(label: string): string {
  const h = createHash('sha256').update(label).digest('hex');
  const variant = ((parseInt(h[16] ?? '0', 16) & 3) | 8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Deterministic password for seeded servers. */
export function stablePassword(label: string): string {
  const h = createHash('sha256').update(`pw:${label}`).digest();
  let out = '';
  for (let i = 0; i < 20; i++) out += ALNUM[(h[i] ?? 0) % ALNUM.length];
  return out;
}
