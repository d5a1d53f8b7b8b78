/** Identifiers in the shapes Slack uses (ts, trigger ids, view ids, hashes). */
import { randomBytes, randomInt } from 'node:crypto';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function slackId(prefix: string, length = 10): string {
  let id = prefix;
  while (id.length < length) id += ALNUM[randomInt(ALNUM.length)];
  return id;
}

/** `1700000000.123456789.0123456789abcdef0123456789abcdef`, as in real payloads. */
export function triggerId(nowMs = Date.now()): string {
  return `${Math.floor(nowMs / 1000)}.${randomInt(1e8, 1e9)}.${randomBytes(16).toString('hex')}`;
}

/** A `ts`-style string (`seconds.micros`) for an action or a message. */
export function tsAt(nowMs: number, micros = randomInt(1e6)): string {
  return `${Math.floor(nowMs / 1000)}.${String(micros).padStart(6, '0')}`;
}

/**
 * Strictly increasing message timestamps, like a channel history: never two equal, never
 * going back even if the injected clock does.
 */
export function createTsSequence(now: () => number): () => string {
  let lastMicros = 0;
  return () => {
    const micros = Math.max(Math.floor(now() * 1000), lastMicros + 1);
    lastMicros = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  };
}
