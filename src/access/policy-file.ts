/**
 * ACCESS_POLICY: a YAML file with roles per channel, added to the global lists.
 *
 *   channels:
 *     C0123ABCD:            # #staging: Bob may change things here
 *       operators: [U0BOB]
 *     C0456EFGH:
 *       admins: [S0ONCALL]  # a user group
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const principal = z.string().regex(/^[UWS][A-Z0-9]{2,}$/, { error: 'must be a user id (U…/W…) or user group id (S…)' });
const roles = z
  .object({
    admins: z.array(principal).default([]),
    operators: z.array(principal).default([]),
    viewers: z.array(principal).default([]),
  })
  .strict();

export const PolicyFile = z
  .object({
    channels: z.record(z.string().regex(/^[CGD][A-Z0-9]{2,}$/, { error: 'must be a channel id like C0123ABCD' }), roles).default({}),
  })
  .strict();
export type PolicyFile = z.infer<typeof PolicyFile>;

export class PolicyFileError extends Error {
  override readonly name = 'PolicyFileError';
}

export function readPolicyFile(path: string): PolicyFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PolicyFileError(`ACCESS_POLICY: cannot read ${path} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  let data: unknown;
  try {
    data = parse(text) ?? {};
  } catch (e) {
    throw new PolicyFileError(`ACCESS_POLICY: ${path} is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  const result = PolicyFile.safeParse(data);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.') || '(top)'} ${i.message}`);
    throw new PolicyFileError(`ACCESS_POLICY: ${path} has problems:\n  - ${problems.join('\n  - ')}`);
  }
  return result.data;
}
