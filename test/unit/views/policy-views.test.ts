/**
 * `/cloud policy`: the channel's rule, its account and choices, ceiling, approvals with their
 * rules, role grants with their lists, the declared accounts, and a person's verdict per tier —
 * every key and source a value, nobody pinged by the text, and within Slack's limits.
 */
import { describe, expect, it } from 'vitest';
import type { PolicyExplanation, TierVerdict } from '../../../src/domain/access-verdict.js';
import type { Reply } from '../../../src/views/types.js';
import { buildPolicyView } from '../../../src/views/policy-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, HOSTILE_SAMPLES } from '../../rig/hostile-strings.js';
import { checkPayload } from '../../rig/mrkdwn-abuse-checker.js';

const SRC = 'ACCESS_POLICY (policy.yml)';
const shown = (r: Reply) => JSON.stringify(r.blocks);
const valid = (r: Reply, users: string[] = [], channels: string[] = []): Reply => {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  expect(checkPayload({ text: r.text, blocks: r.blocks }, { users, channels, url: () => false, marker: HOSTILE_MARKER }, 'policy')).toEqual([]);
  // The fallback feeds notifications: it mentions nobody.
  expect(r.text).not.toMatch(/<[@#!]/);
  return r;
};

function explanation(over: Partial<PolicyExplanation> = {}): PolicyExplanation {
  return {
    source: SRC,
    channelId: 'C0PROD',
    namedAccounts: true,
    channel: {
      kind: 'rule',
      rule: { key: 'channels.C0PROD', source: SRC },
      listed: true,
      label: 'prod-ops',
      account: 'prod',
      accounts: ['prod', 'staging'],
      ceiling: ['read', 'change'],
      approval: [{ tier: 'change', rule: { key: 'channels.C0PROD.approval', source: SRC } }],
      grants: [{ role: 'operator', principals: ['U0BOB', 'S0OPS'], rule: { key: 'channels.C0PROD.operators', source: SRC } }],
    },
    accounts: [
      { name: 'prod', host: 'api.example.com', ceiling: ['read', 'change'], approval: ['destroy'], isDefault: false },
      { name: 'staging', host: 'staging.example.com', ceiling: undefined, approval: [], isDefault: true },
    ],
    grants: [{ role: 'admin', principals: ['U0ALICE'], rule: { key: 'CLOUD_ADMINS', source: 'environment' } }],
    ...over,
  };
}

describe('buildPolicyView', () => {
  it('shows the channel rule, its account and choices, ceiling, approvals and grants with their rules', () => {
    const r = valid(buildPolicyView(explanation()), ['U0BOB', 'U0ALICE']);
    const s = shown(r);
    expect(s).toContain('*Channel rule:* `channels.C0PROD` in `ACCESS_POLICY (policy.yml)` (`prod-ops`)');
    expect(s).toContain('• Account: `prod`');
    expect(s).toContain('• `--account` may choose: `prod` and `staging`');
    expect(s).toContain('• Ceiling: reads and changes (`channels.C0PROD.ceiling` in `ACCESS_POLICY (policy.yml)`)');
    expect(s).toContain("approval: *change* (`channels.C0PROD.approval` in `ACCESS_POLICY (policy.yml)`)");
    expect(s).toContain('• *operator*: <@U0BOB>, `S0OPS` (group) — `channels.C0PROD.operators` in `ACCESS_POLICY (policy.yml)`');
    expect(s).toContain('• *admin*: <@U0ALICE> — `CLOUD_ADMINS`');
    expect(s).toContain('• `prod` — `api.example.com` · ceiling: reads and changes · approval: *destroy*');
    expect(s).toContain('• `staging` _(default)_ — `staging.example.com` · ceiling: all tiers · approval: none');
    expect(r.text).toBe('Access policy for this channel');
  });

  it('an unlisted channel under default_channel, without a ceiling or approvals', () => {
    const base = explanation();
    if (base.channel.kind !== 'rule') throw new Error('fixture');
    const channel = { ...base.channel, rule: { key: 'default_channel', source: SRC }, listed: false, label: undefined, ceiling: undefined, approval: [], grants: [] };
    const s = shown(valid(buildPolicyView(explanation({ channel })), ['U0ALICE']));
    expect(s).toContain('this channel is not listed, so `default_channel` in `ACCESS_POLICY (policy.yml)` applies');
    expect(s).toContain('• Ceiling: all tiers');
    expect(s).toContain("Needs a second admin's approval: none");
    expect(s).not.toContain("this channel's rule:");
  });

  it('a channel refused by CLOUD_CHANNELS or by default_channel: deny says so and by which rule', () => {
    const no = shown(valid(buildPolicyView(explanation({ channel: { kind: 'not-allowed', channels: ['C0OPS'], rule: { key: 'CLOUD_CHANNELS', source: 'environment' } } })), ['U0ALICE'], ['C0OPS']));
    expect(no).toContain('Commands are not taken in this channel: `CLOUD_CHANNELS` allows only <#C0OPS>.');
    const deny = shown(valid(buildPolicyView(explanation({ channel: { kind: 'deny', rule: { key: 'default_channel', source: SRC } } })), ['U0ALICE']));
    expect(deny).toContain('unlisted channels are refused (`default_channel` in `ACCESS_POLICY (policy.yml)`: deny)');
  });

  it("for a person: the role and its list, and each tier's verdict with the deciding rule", () => {
    const tiers: TierVerdict[] = [
      { tier: 'read', ok: true, rule: undefined },
      { tier: 'change', ok: true, rule: { key: 'channels.C0PROD.approval', source: SRC }, reason: 'approval' },
      { tier: 'billing', ok: false, rule: { key: 'channels.C0PROD.ceiling', source: SRC }, reason: 'ceiling' },
      { tier: 'destroy', ok: false, rule: { key: 'accounts.prod.ceiling', source: SRC }, reason: 'account-ceiling' },
      { tier: 'secret', ok: false, rule: { key: 'channels.C0PROD.operators', source: SRC }, reason: 'role' },
    ];
    const r = valid(buildPolicyView(explanation({ person: { userId: 'U0BOB', role: 'operator', roleSource: 'channels.C0PROD.operators', tiers } })), ['U0BOB', 'U0ALICE']);
    const s = shown(r);
    expect(s).toContain('*For <@U0BOB>:* role *operator*, from `channels.C0PROD.operators` in `ACCESS_POLICY (policy.yml)`');
    expect(s).toContain('• *read*: allowed');
    expect(s).toContain("• *change*: allowed with a second admin's approval — `channels.C0PROD.approval`");
    expect(s).toContain("• *billing*: :no_entry: refused (above this channel's ceiling) — `channels.C0PROD.ceiling`");
    expect(s).toContain("• *destroy*: :no_entry: refused (above the account's ceiling) — `accounts.prod.ceiling`");
    expect(s).toContain('• *secret*: :no_entry: refused (the role is too low) — `channels.C0PROD.operators`');
    expect(r.text).not.toContain('U0BOB');
    const none = shown(valid(buildPolicyView(explanation({ person: { userId: 'U0EVE', role: undefined, roleSource: 'CLOUD_VIEWERS', tiers: [] } })), ['U0EVE', 'U0BOB', 'U0ALICE']));
    expect(none).toContain('*For <@U0EVE>:* no role (`CLOUD_VIEWERS`)');
  });

  it('hostile keys, sources, labels, accounts, hosts and ids stay inert', () => {
    for (const h of HOSTILE_SAMPLES) {
      const rule = { key: h, source: h };
      const e = explanation({
        source: h,
        channel: { kind: 'rule', rule, listed: true, label: h, account: h, accounts: [h, h], ceiling: ['read'], approval: [{ tier: 'destroy', rule }], grants: [{ role: 'admin', principals: [h, `S${h}`], rule }] },
        accounts: [{ name: h, host: h, ceiling: undefined, approval: [], isDefault: true }],
        grants: [{ role: 'viewer', principals: [h], rule }],
        person: { userId: h, role: 'admin', roleSource: h, tiers: [{ tier: 'destroy', ok: false, rule, reason: h }] },
      });
      valid(buildPolicyView(e));
      valid(buildPolicyView({ ...e, channel: { kind: 'not-allowed', channels: [h], rule } }));
    }
  });

  it('a huge policy stays within 50 blocks and 3000 characters a section', () => {
    const users = Array.from({ length: 400 }, (_, i) => `U${String(i).padStart(8, '0')}`);
    const grants = (['admin', 'operator', 'viewer'] as const).map((role) => ({ role, principals: users, rule: { key: `CLOUD_${role.toUpperCase()}S`, source: 'environment' } }));
    const accounts = Array.from({ length: 300 }, (_, i) => ({ name: `acct-${i}`, host: `h${i}.example.com`, ceiling: ['read' as const], approval: ['destroy' as const], isDefault: i === 0 }));
    const r = valid(buildPolicyView(explanation({ grants, accounts })), users.concat('U0BOB'));
    expect(r.blocks.length).toBeLessThanOrEqual(50);
    expect(shown(r)).toContain('+375 more');
  });
});
