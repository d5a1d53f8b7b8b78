/**
 * The access decision, pure: every role × tier × kind of channel against a table written out
 * by hand (matrix-table.ts), then account ceilings, `--account`, scopes and which approval
 * rule is named. The same table at every surface: surfaces-matrix.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { approvalRule, decide, type Decision } from '../../../src/access/decide.js';
import { buildPolicy, type Policy } from '../../../src/access/policy.js';
import type { Tier } from '../../../src/domain/tier.js';
import { ACCESS, ACCOUNTS, KINDS, NEEDED, NO_ROLES, policy, ROLE_SOURCE, SOURCE, TIERS, UNLISTED, WHO, type Who } from './matrix-table.js';

const run = (p: Policy, who: Who, channel: string | undefined, tier: Tier, extra: { scope?: 'cloud' | 'bot' | 'everywhere'; account?: string } = {}): Decision =>
  decide(p, { role: who === 'none' ? undefined : who, roleSource: ROLE_SOURCE[who], channelId: channel, tier, ...extra });

describe('role × tier × channel', () => {
  for (const [kindName, kind] of Object.entries(KINDS)) {
    describe(kindName, () => {
      for (const who of WHO) {
        for (const [i, tier] of TIERS.entries()) {
          const letter = kind.grid[who][i]!;
          it(`${who} · ${tier} → ${letter}`, () => {
            const d = run(kind.policy, who, kind.channel, tier);
            switch (letter) {
              case 'Y':
                expect(d).toEqual({ ok: true, role: who, account: 'prod', approval: undefined });
                break;
              case 'R':
                expect(d).toEqual({
                  ok: false,
                  reason: 'role',
                  role: who === 'none' ? undefined : who,
                  needed: NEEDED[tier],
                  rule: { key: ROLE_SOURCE[who], source: 'environment' },
                });
                break;
              case 'C':
                expect(d).toMatchObject({ ok: false, reason: 'ceiling', rule: { key: kind.ceilingKey, source: SOURCE } });
                expect(d.ok === false && d.reason === 'ceiling' && d.ceiling).toEqual(kind.channel === 'C0READ001' ? ['read'] : ['read', 'change']);
                break;
              case 'U':
                expect(d).toEqual({ ok: false, reason: 'unlisted', rule: { key: 'default_channel', source: SOURCE } });
                break;
              case 'L':
                expect(d).toEqual({ ok: false, reason: 'channel', channels: ['C0READ001'], rule: { key: 'CLOUD_CHANNELS', source: 'environment' } });
                break;
              default:
                throw new Error(`bad letter ${letter}`);
            }
          });
        }
      }
    });
  }

  it('no channel at all (a DM the bot cannot place) is refused by an allowlist and by deny', () => {
    expect(run(policy({}, { channels: ['C0OPEN001'] }), 'admin', undefined, 'read')).toMatchObject({ ok: false, reason: 'channel' });
    expect(run(policy({ default_channel: 'deny' }), 'admin', undefined, 'read')).toMatchObject({ ok: false, reason: 'unlisted' });
  });

  it('a role from a channel list is named by its key, sourced from the file', () => {
    const d = decide(policy(), { role: 'viewer', roleSource: 'channels.C0OPEN001.viewers', channelId: 'C0OPEN001', tier: 'change' });
    expect(d).toMatchObject({ ok: false, reason: 'role', rule: { key: 'channels.C0OPEN001.viewers', source: SOURCE } });
  });
});

describe('account ceilings', () => {
  const p = policy({
    accounts: { ...ACCOUNTS, prod: { ...ACCOUNTS.prod, ceiling: ['read', 'change', 'destroy'] } },
  });

  it("an account's ceiling refuses what it leaves out, from any channel, naming accounts.<name>.ceiling", () => {
    for (const channel of ['C0OPEN001', UNLISTED]) {
      expect(run(p, 'admin', channel, 'billing')).toEqual({
        ok: false,
        reason: 'account-ceiling',
        account: 'prod',
        ceiling: ['read', 'change', 'destroy'],
        rule: { key: 'accounts.prod.ceiling', source: SOURCE },
      });
      expect(run(p, 'admin', channel, 'secret')).toMatchObject({ reason: 'account-ceiling' });
      expect(run(p, 'admin', channel, 'destroy')).toMatchObject({ ok: true, account: 'prod' });
    }
  });

  it("the channel's ceiling is named first when both refuse", () => {
    expect(run(p, 'admin', 'C0READ001', 'billing')).toMatchObject({ reason: 'ceiling', rule: { key: 'channels.C0READ001.ceiling' } });
  });

  it('the ceiling of the account asked for applies, not the channel default', () => {
    const q = policy({
      accounts: { ...ACCOUNTS, staging: { ...ACCOUNTS.staging, ceiling: ['read'] } },
      channels: { C0OPEN001: { account: 'prod', accounts: ['staging'], ...NO_ROLES } },
    });
    expect(run(q, 'admin', 'C0OPEN001', 'change')).toMatchObject({ ok: true, account: 'prod' });
    expect(run(q, 'admin', 'C0OPEN001', 'change', { account: 'staging' })).toMatchObject({ reason: 'account-ceiling', account: 'staging', rule: { key: 'accounts.staging.ceiling' } });
    expect(run(q, 'viewer', 'C0OPEN001', 'read', { account: 'staging' })).toMatchObject({ ok: true, account: 'staging' });
  });
});

describe('--account', () => {
  const p = policy({
    channels: {
      C0PROD001: { account: 'prod', ...NO_ROLES },
      C0BOTH001: { account: 'prod', accounts: ['staging'], ...NO_ROLES },
      // Only a hand-made file gets here (the parser refuses it): a name no account answers to.
      C0GHOST01: { account: 'prod', accounts: ['ghost'], ...NO_ROLES },
    },
  });

  it('outside the channel\'s accounts: refused with reason account and rule channels.X.accounts, before the role', () => {
    for (const who of WHO) {
      expect(run(p, who, 'C0PROD001', 'read', { account: 'staging' })).toEqual({
        ok: false,
        reason: 'account',
        account: 'staging',
        allowed: ['prod'],
        rule: { key: 'channels.C0PROD001.accounts', source: SOURCE },
      });
    }
  });

  it('inside them: goes to that account', () => {
    expect(run(p, 'viewer', 'C0BOTH001', 'read', { account: 'staging' })).toEqual({ ok: true, role: 'viewer', account: 'staging', approval: undefined });
    expect(run(p, 'viewer', 'C0BOTH001', 'read', { account: 'prod' })).toMatchObject({ ok: true, account: 'prod' });
    expect(run(p, 'viewer', 'C0BOTH001', 'read')).toMatchObject({ ok: true, account: 'prod' });
  });

  it('an unknown account is refused, allowed by the channel or not', () => {
    expect(run(p, 'admin', 'C0GHOST01', 'read', { account: 'ghost' })).toMatchObject({ ok: false, reason: 'account', account: 'ghost', allowed: ['prod', 'ghost'], rule: { key: 'channels.C0GHOST01.accounts' } });
    expect(run(p, 'admin', 'C0PROD001', 'read', { account: 'nosuch' })).toMatchObject({ ok: false, reason: 'account', account: 'nosuch' });
  });

  it("unlisted channels under default_channel's rule name default_channel.accounts", () => {
    expect(run(p, 'admin', UNLISTED, 'read', { account: 'staging' })).toMatchObject({ reason: 'account', rule: { key: 'default_channel.accounts' } });
    const q = policy({ default_channel: { account: 'staging', accounts: ['prod'] } });
    expect(run(q, 'admin', UNLISTED, 'read')).toMatchObject({ ok: true, account: 'staging' });
    expect(run(q, 'admin', UNLISTED, 'read', { account: 'prod' })).toMatchObject({ ok: true, account: 'prod' });
  });
});

describe('scopes', () => {
  const withAccountCeiling = policy({ accounts: { ...ACCOUNTS, prod: { ...ACCOUNTS.prod, ceiling: ['read'] } } });

  it("scope bot ignores the channel's and the account's ceilings, not the accounts it may use, nor the role", () => {
    expect(run(policy(), 'admin', 'C0READ001', 'secret', { scope: 'bot' })).toEqual({ ok: true, role: 'admin', account: 'prod', approval: undefined });
    expect(run(withAccountCeiling, 'admin', 'C0OPEN001', 'destroy', { scope: 'bot' })).toMatchObject({ ok: true });
    // A subscription polls the account it names: --account outside the channel's set is refused.
    expect(run(policy(), 'admin', 'C0READ001', 'secret', { scope: 'bot', account: 'staging' })).toMatchObject({ ok: false, reason: 'account', rule: { key: 'channels.C0READ001.accounts' } });
    expect(run(policy(), 'operator', 'C0READ001', 'secret', { scope: 'bot' })).toMatchObject({ ok: false, reason: 'role', needed: 'admin' });
  });

  it('scope bot still obeys the allowlist and deny', () => {
    expect(run(policy({}, { channels: ['C0READ001'] }), 'admin', 'C0OPEN001', 'read', { scope: 'bot' })).toMatchObject({ reason: 'channel' });
    expect(run(policy({ default_channel: 'deny' }), 'admin', UNLISTED, 'read', { scope: 'bot' })).toMatchObject({ reason: 'unlisted' });
  });

  it('scope everywhere ignores deny, not CLOUD_CHANNELS (where the bot listens at all), nor the role', () => {
    expect(run(policy({}, { channels: ['C0READ001'] }), 'admin', 'C0OPEN001', 'secret', { scope: 'everywhere' })).toMatchObject({ ok: false, reason: 'channel' });
    expect(run(policy({}, { channels: ['C0READ001'] }), 'admin', 'C0READ001', 'secret', { scope: 'everywhere' })).toMatchObject({ ok: true, role: 'admin' });
    expect(run(policy({ default_channel: 'deny' }), 'admin', UNLISTED, 'secret', { scope: 'everywhere' })).toMatchObject({ ok: true, role: 'admin', approval: undefined });
    expect(run(policy({ default_channel: 'deny' }), 'operator', UNLISTED, 'secret', { scope: 'everywhere' })).toMatchObject({ ok: false, reason: 'role' });
  });
});

describe('approval rules', () => {
  const file = {
    accounts: { ...ACCOUNTS, prod: { ...ACCOUNTS.prod, approval: ['destroy', 'billing'] as Tier[] }, staging: { ...ACCOUNTS.staging, approval: ['change'] as Tier[] } },
    channels: {
      C0APPR001: { account: 'prod', accounts: ['staging'], approval: ['destroy', 'secret'] as Tier[], ...NO_ROLES },
      C0PLAIN01: { account: 'prod', accounts: ['staging'], ...NO_ROLES },
    },
  };

  it('CLOUD_APPROVAL is named first, then the channel rule, then the account rule', () => {
    const env = policy(file, { approval: 'destroy' });
    expect(approvalRule(env, 'C0APPR001', 'prod', 'destroy')).toEqual({ key: 'CLOUD_APPROVAL', source: 'environment' });
    const p = policy(file);
    expect(approvalRule(p, 'C0APPR001', 'prod', 'destroy')).toEqual({ key: 'channels.C0APPR001.approval', source: SOURCE });
    expect(approvalRule(p, 'C0APPR001', 'prod', 'secret')).toEqual({ key: 'channels.C0APPR001.approval', source: SOURCE });
    expect(approvalRule(p, 'C0APPR001', 'prod', 'billing')).toEqual({ key: 'accounts.prod.approval', source: SOURCE });
    expect(approvalRule(p, 'C0PLAIN01', 'prod', 'destroy')).toEqual({ key: 'accounts.prod.approval', source: SOURCE });
    expect(approvalRule(p, 'C0PLAIN01', 'prod', 'change')).toBeUndefined();
    expect(approvalRule(p, 'C0PLAIN01', 'staging', 'change')).toEqual({ key: 'accounts.staging.approval', source: SOURCE });
    expect(approvalRule(p, 'C0PLAIN01', 'staging', 'destroy')).toBeUndefined();
  });

  it('decide carries the approval rule of the account the request goes to', () => {
    const p = policy(file);
    expect(run(p, 'admin', 'C0PLAIN01', 'destroy')).toEqual({ ok: true, role: 'admin', account: 'prod', approval: { key: 'accounts.prod.approval', source: SOURCE } });
    expect(run(p, 'admin', 'C0PLAIN01', 'change', { account: 'staging' })).toMatchObject({ ok: true, account: 'staging', approval: { key: 'accounts.staging.approval' } });
    expect(run(p, 'admin', 'C0PLAIN01', 'change')).toMatchObject({ ok: true, approval: undefined });
    // A refusal is not an approval: the role decides first.
    expect(run(p, 'operator', 'C0PLAIN01', 'destroy')).toMatchObject({ ok: false, reason: 'role' });
  });

  it('only CLOUD_APPROVAL=destroy without a file asks for destroy approval', () => {
    const env = buildPolicy({ access: { ...ACCESS, approval: 'destroy' }, cloud: { baseUrl: 'https://x.example.com/v2', token: 't' } });
    expect(approvalRule(env, 'C0ANY0001', 'default', 'destroy')).toEqual({ key: 'CLOUD_APPROVAL', source: 'environment' });
    for (const tier of ['read', 'change', 'billing', 'secret'] as Tier[]) expect(approvalRule(env, 'C0ANY0001', 'default', tier)).toBeUndefined();
  });
});
