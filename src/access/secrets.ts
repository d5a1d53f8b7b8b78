/**
 * Secrets handling in one place: which arguments are secret (an operation's `secretArgs`),
 * splitting them off to be sealed, masking them for audit, logs and the request stored with a
 * change's record, and finding secret values in a cloud result so the logger can redact them.
 * Called by the flows, never by a renderer. (The cloud client's own token scrubbing is
 * cloud/redaction.ts.)
 */
import { changeRequest } from '../operations/change-request.js';
import type { AnyOperation } from '../operations/types.js';
import type { CloudRequest } from '../domain/cloud-request.js';

/** What a secret value is shown as, wherever it would have been shown. */
export const MASK = '••••••';

/** Keys whose values are secrets whatever the operation says (defence in depth). */
export const SECRET_KEY = /password|passwd|secret|token|private_?key|credential/i;

const secretNamesOf = (op: Pick<AnyOperation, 'change'>) => new Set(op.change?.secretArgs ?? []);

/** Whether `name` is one of the operation's secret arguments (masked wherever shown). */
export const isSecretArg = (op: Pick<AnyOperation, 'change'>, name: string): boolean => secretNamesOf(op).has(name);

/** Splits validated arguments into what may be stored as is and the secrets to seal. */
export function splitSecrets(op: AnyOperation, args: Record<string, unknown>): { plain: Record<string, unknown>; secrets: Record<string, string> } {
  const secretNames = secretNamesOf(op);
  const plain: Record<string, unknown> = {};
  const secrets: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined) continue;
    if (secretNames.has(k)) secrets[k] = String(v);
    else plain[k] = v;
  }
  return { plain, secrets };
}

/** Arguments with secret values masked (undefined ones left out), for the audit trail and logs. */
export function maskedArgs(op: Pick<AnyOperation, 'change'>, args: Record<string, unknown>): Record<string, unknown> {
  const secretNames = secretNamesOf(op);
  return Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, secretNames.has(k) ? MASK : v]),
  );
}

/**
 * The change's request with secret fields masked: for dry runs, and once when a change's record
 * is made (stored with it for its status messages and audit entries). It runs the change against
 * a recording client (operations/change-request.ts), so no renderer calls it.
 */
export function maskedRequest(op: AnyOperation, args: Record<string, unknown>): CloudRequest {
  const secretNames = secretNamesOf(op);
  const masked = Object.fromEntries(Object.entries(args).map(([k, v]) => [k, secretNames.has(k) && v !== undefined ? MASK : v]));
  const r = changeRequest(op, masked);
  if (!r.body) return r;
  // A secret argument may be renamed in the body: mask by value too.
  const secretValues = new Set(Object.entries(args).filter(([k, v]) => secretNames.has(k) && v !== undefined).map(([, v]) => String(v)));
  const body = Object.fromEntries(Object.entries(r.body).map(([k, v]) => [k, typeof v === 'string' && secretValues.has(v) ? MASK : v]));
  return { ...r, body };
}

/** String values under password-, secret- or token-like keys (e.g. a password the cloud generated). */
export function secretsIn(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 4 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' && SECRET_KEY.test(k)) out.push(v);
    else secretsIn(v, out, depth + 1);
  }
  return out;
}

/** Whatever can redact: the logger (`addSecret`). */
export interface SecretSink {
  addSecret(secret: string): void;
}

/** Tells the logger these values are secret, before any log line can carry them. */
export function rememberSecrets(sink: SecretSink, values: Iterable<string>): void {
  for (const s of values) sink.addSecret(s);
}

/** Tells the logger every secret a result holds (see `secretsIn`). */
export function rememberSecretsIn(sink: SecretSink, result: unknown): void {
  rememberSecrets(sink, secretsIn(result));
}
