/**
 * Policy as code: a reload reports what changed, rule by rule; a bad file is refused with one
 * message and the policy in force stays; reloads run one at a time.
 */
import { describe, expect, it, vi } from 'vitest';
import { parsePolicyText } from '../../../src/access/policy-file.js';
import { describePolicyChanges } from '../../../src/access/policy-diff.js';
import { createPolicySource, type PolicySourceDeps, type ReloadOutcome } from '../../../src/access/policy-source.js';
import { buildPolicy, type Policy } from '../../../src/access/policy.js';
import type { AccessConfig } from '../../../src/config.js';
import { createLogger } from '../../../src/log.js';

const ACCESS: AccessConfig = { admins: ['U0ALICE01'], operators: [], viewers: undefined, channels: undefined, policyFile: undefined, approval: undefined };
const hasEnv = (n: string) => n !== 'CLOUD_UNSET_TOKEN';

const BASE = `
version: 1
default_account: staging
accounts:
  prod:    { base_url: https://prod.example.com/v2, token_env: CLOUD_PROD_TOKEN }
  staging: { base_url: https://staging.example.com/v2, token_env: CLOUD_STAGING_TOKEN }
default_channel: { account: staging, ceiling: [read, change, billing, destroy, secret], approval: [] }
channels:
  C0PROD001:
    account: prod
    ceiling: [read, change]
    approval: []
    operators: [U0BOB0002]
  C0STAGE01:
    account: staging
    ceiling: [read, change, billing, destroy, secret]
    approval: []
`;

/** The policy a file text comes to, as the runtime builds it. */
const policyOf = (text: string): Policy => buildPolicy({ access: ACCESS, cloud: undefined, file: parsePolicyText(text, 'policy.yaml', { hasEnv }), path: 'policy.yaml' });

describe('describePolicyChanges', () => {
  it('nothing changed: no lines', () => {
    expect(describePolicyChanges(policyOf(BASE), policyOf(BASE))).toEqual([]);
  });

  it('one line per changed rule, in a stable order', () => {
    const next = BASE.replace('ceiling: [read, change]', 'ceiling: [read]')
      .replace('operators: [U0BOB0002]', 'operators: []\n    admins: [U0ERIN005]')
      .replace('https://staging.example.com/v2', 'https://staging2.example.com/v2')
      .replace('default_account: staging', 'default_account: prod')
      .replace(/default_channel: .*\n/, 'default_channel: deny\n')
      .replace('  C0STAGE01:\n    account: staging\n    ceiling: [read, change, billing, destroy, secret]\n', '  C0NEW0001:\n    account: staging\n    ceiling: [read]\n')
      .replace('channels:', 'channels:\n  C0DEV0001: { account: staging, ceiling: [read, change, billing, destroy, secret], approval: [change] }')
      .concat('  # end\n')
      .replace('accounts:\n', 'accounts:\n  dev: { base_url: https://dev.example.com/v2, token_env: CLOUD_DEV_TOKEN, ceiling: [read] }\n');
    expect(describePolicyChanges(policyOf(BASE), policyOf(next))).toEqual([
      'accounts.staging.base_url: https://staging.example.com/v2 → https://staging2.example.com/v2',
      'accounts.dev: added (https://dev.example.com/v2, token from CLOUD_DEV_TOKEN)',
      'default_account: staging → prod',
      'default_channel: allow → deny',
      'channels.C0PROD001.ceiling: read, change → read',
      'channels.C0PROD001.admins: (empty) → U0ERIN005',
      'channels.C0PROD001.operators: U0BOB0002 → (empty)',
      'channels.C0STAGE01: removed',
      'channels.C0DEV0001: added (account staging, ceiling read, change, billing, destroy, secret)',
      'channels.C0NEW0001: added (account staging, ceiling read)',
    ]);
  });

  it('a token variable renamed, an approval added, an account removed, --account choices widened', () => {
    const next = BASE.replace('token_env: CLOUD_PROD_TOKEN', 'token_env: CLOUD_PROD2_TOKEN, approval: [destroy]').replace('    account: staging\n', '    account: staging\n    accounts: [prod]\n');
    expect(describePolicyChanges(policyOf(BASE), policyOf(next))).toEqual([
      'accounts.prod.token_env: CLOUD_PROD_TOKEN → CLOUD_PROD2_TOKEN',
      'accounts.prod.approval: (empty) → destroy',
      'channels.C0STAGE01.accounts: staging → staging, prod',
    ]);
    const fewer =
      'version: 1\naccounts:\n  prod: { base_url: https://prod.example.com/v2, token_env: CLOUD_PROD_TOKEN }\ndefault_channel: deny\nchannels:\n  C0PROD001: { account: prod, ceiling: [read, change], approval: [], operators: [U0BOB0002] }\n';
    const lines = describePolicyChanges(policyOf(BASE), policyOf(fewer));
    expect(lines).toContain('accounts.staging: removed');
    expect(lines).toContain('default_account: staging → prod');
  });
});

type Hooks = Pick<PolicySourceDeps, 'onChange' | 'onRefused'>;

function source(load: () => Policy, hooks: Hooks = {}) {
  const lines: string[] = [];
  const s = createPolicySource({
    initial: policyOf(BASE),
    load,
    ...(hooks.onChange ? { onChange: hooks.onChange } : {}),
    ...(hooks.onRefused ? { onRefused: hooks.onRefused } : {}),
    logger: createLogger({ level: 'debug', sink: (l) => lines.push(l) }),
  });
  return { s, lines };
}

describe('createPolicySource', () => {
  it('a changed file: reports each change line, tells onChange, then the new policy is in force', async () => {
    let text = BASE;
    const onChange = vi.fn<NonNullable<Hooks['onChange']>>();
    const { s } = source(() => policyOf(text), { onChange });
    text = BASE.replace('ceiling: [read, change]', 'ceiling: [read]').replace('    ceiling: [read, change, billing, destroy, secret]\n', '    ceiling: [read]\n');
    const seenDuringChange: Policy[] = [];
    onChange.mockImplementation(() => void seenDuringChange.push(s.current()));
    const out = await s.reload('signal');
    expect(out).toEqual({
      kind: 'changed',
      changes: ['channels.C0PROD001.ceiling: read, change → read', 'channels.C0STAGE01.ceiling: read, change, billing, destroy, secret → read'],
      widenings: [],
    });
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange.mock.calls[0]![1]).toEqual(out.kind === 'changed' ? out.changes : []);
    expect(onChange.mock.calls[0]![2]).toBe('signal');
    // Told before it takes effect: onChange still saw the old policy in force.
    expect(seenDuringChange[0]!.channels.C0PROD001!.ceiling).toEqual(['read', 'change']);
    expect(s.current().channels.C0PROD001!.ceiling).toEqual(['read']);
    expect(await s.reload('interval')).toEqual({ kind: 'unchanged' });
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('an unchanged file: unchanged, nobody told', async () => {
    const onChange = vi.fn<NonNullable<Hooks['onChange']>>();
    const { s } = source(() => policyOf(BASE), { onChange });
    const before = s.current();
    expect(await s.reload('interval')).toEqual({ kind: 'unchanged' });
    expect(onChange).not.toHaveBeenCalled();
    expect(s.current()).toBe(before);
  });

  for (const [name, bad, said] of [
    ['bad YAML', 'channels: [unclosed', /is not valid YAML/],
    ['a validation problem', BASE.replace('ceiling: [read, change]', 'ceiling: [read, nuke]'), /channels\.C0PROD001\.ceiling\.1 must be one of/],
    ['an unset token variable', BASE.replace('CLOUD_PROD_TOKEN', 'CLOUD_UNSET_TOKEN'), /CLOUD_UNSET_TOKEN, which is not set/],
  ] as const) {
    it(`${name}: refused with one message; the old policy stays; onRefused told`, async () => {
      let text = BASE;
      const onChange = vi.fn<NonNullable<Hooks['onChange']>>();
      const onRefused = vi.fn<NonNullable<Hooks['onRefused']>>();
      const { s, lines } = source(() => policyOf(text), { onChange, onRefused });
      const before = s.current();
      text = bad;
      const out = await s.reload('signal');
      expect(out.kind).toBe('refused');
      const message = (out as Extract<ReloadOutcome, { kind: 'refused' }>).message;
      expect(message).toMatch(said);
      expect(message).toContain('policy.yaml');
      expect(s.current()).toBe(before);
      expect(onChange).not.toHaveBeenCalled();
      expect(onRefused).toHaveBeenCalledTimes(1);
      expect(onRefused).toHaveBeenCalledWith(message, 'signal');
      expect(lines.filter((l) => l.includes('policy reload refused'))).toHaveLength(1);
      // A good file afterwards is taken.
      text = BASE.replace('ceiling: [read, change]', 'ceiling: [read]');
      expect(await s.reload('signal')).toMatchObject({ kind: 'changed' });
    });
  }

  it('an error that is not a policy problem propagates, and the next reload still runs', async () => {
    let fail = true;
    const { s } = source(() => {
      if (fail) throw new Error('disk on fire');
      return policyOf(BASE.replace('ceiling: [read, change]', 'ceiling: [read]'));
    });
    await expect(s.reload('interval')).rejects.toThrow('disk on fire');
    fail = false;
    expect(await s.reload('interval')).toMatchObject({ kind: 'changed' });
  });

  it('a failing onChange keeps the old policy', async () => {
    const onChange = vi.fn<NonNullable<Hooks['onChange']>>().mockRejectedValue(new Error('cannot make clients'));
    const { s } = source(() => policyOf(BASE.replace('ceiling: [read, change]', 'ceiling: [read]')), { onChange });
    const before = s.current();
    await expect(s.reload('signal')).rejects.toThrow('cannot make clients');
    expect(s.current()).toBe(before);
  });

  it('concurrent reloads run one at a time, in order', async () => {
    const texts = [BASE.replace('ceiling: [read, change]', 'ceiling: [read]'), BASE.replace('ceiling: [read, change]', 'ceiling: [change]')];
    let loads = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const gates: (() => void)[] = [];
    const onChange = vi.fn<NonNullable<Hooks['onChange']>>(async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise<void>((resolve) => gates.push(resolve));
      inFlight--;
    });
    const { s } = source(() => policyOf(texts[Math.min(loads++, texts.length - 1)]!), { onChange });
    const first = s.reload('interval');
    const second = s.reload('signal');
    // Let the first reach onChange; the second must not have loaded yet.
    await vi.waitFor(() => expect(gates).toHaveLength(1));
    await Promise.resolve();
    expect(loads).toBe(1);
    gates[0]!();
    expect(await first).toEqual({ kind: 'changed', changes: ['channels.C0PROD001.ceiling: read, change → read'], widenings: [] });
    await vi.waitFor(() => expect(gates).toHaveLength(2));
    gates[1]!();
    // The second diffed against the first's result, not the initial policy.
    expect(await second).toEqual({
      kind: 'changed',
      changes: ['channels.C0PROD001.ceiling: read → change'],
      widenings: ['channels.C0PROD001.ceiling: + change (now channels.C0PROD001)'],
    });
    expect(maxInFlight).toBe(1);
    expect(onChange.mock.calls.map((c) => c[2])).toEqual(['interval', 'signal']);
    expect(s.current().channels.C0PROD001!.ceiling).toEqual(['change']);
  });

  it('nothing to reload without a loader', async () => {
    const s = createPolicySource({ initial: policyOf(BASE), logger: createLogger({ sink: () => {} }) });
    expect(await s.reload('signal')).toEqual({ kind: 'unchanged' });
  });
});
