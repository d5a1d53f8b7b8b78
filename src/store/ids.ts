import { randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 'op_' + 16 lower-case base32 characters (80 random bits): safe in URLs, button values and logs. */
export function newOperationId(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(acc >>> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return `op_${out}`;
}

const ID_PATTERN = /^op_[a-z2-7]{16}$/;

/** True for strings shaped like an operation id (e.g. a button value from Slack). */
export function isOperationId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}
