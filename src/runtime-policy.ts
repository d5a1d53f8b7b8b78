/**
 * The composition root's policy part: the effective policy from the settings (environment and
 * policy file), each account's client target with its token, and the audit entry of a reload.
 */
import type { PolicyFile } from './access/policy-file.js';
import { buildPolicy, type Policy } from './access/policy.js';
import type { ReloadTrigger } from './access/policy-source.js';
import type { NewAuditEntry } from './domain/audit-entry.js';
import type { AccountTarget } from './cloud/accounts.js';
import type { RuntimeSettings } from './runtime-types.js';

export function resolvePolicy(settings: Pick<RuntimeSettings, 'access' | 'cloud' | 'tokens'>) {
  const path = settings.access.policyPath;
  const policyOf = (file: PolicyFile | undefined) =>
    buildPolicy({ access: settings.access.config, cloud: settings.cloud, ...(file ? { file } : {}), ...(path ? { path } : {}) });
  const initialPolicy = policyOf(settings.access.policy);
  /** Each account's token: the environment's pair for the implicit account, else its token_env. */
  const targetsOf = (policy: Policy): AccountTarget[] =>
    Object.values(policy.accounts).map((a) => {
      const token = !policy.namedAccounts && settings.cloud ? settings.cloud.token : settings.tokens?.(a.tokenEnv);
      if (!token) throw new Error(`account ${a.name}: ${a.tokenEnv} is not set`);
      return { name: a.name, baseUrl: a.baseUrl, token };
    });
  return { path, policyOf, targetsOf, initialPolicy };
}

/**
 * The audit entry of a policy reload: what changed, or why the file was refused. A reload that
 * widens access is `policy.widened`, its widenings first, so it stands out in the trail.
 */
export function policyAuditEntry(source: string, trigger: ReloadTrigger, outcome: 'succeeded' | 'failed', detail: string, widenings: string[] = []): NewAuditEntry {
  if (widenings.length) detail = `widens access: ${widenings.join('; ')} | all changes: ${detail}`;
  return {
    userId: 'cloudbot',
    opId: widenings.length ? 'policy.widened' : 'policy.reload',
    tier: 'secret',
    args: { trigger, source },
    outcome,
    ...(outcome === 'failed' ? { errorCode: 'POLICY_REFUSED' } : {}),
    detail: detail.slice(0, 1000),
  };
}
