/**
 * Access refusals (issue 12): each reason says what refused and names the rule that did — the
 * key as a value, and the file when the rule lives in one — and still ends "Nothing was done.".
 * Hostile keys, sources and account names stay inert.
 */
import { describe, expect, it } from 'vitest';
import type { Refusal, RuleRef } from '../../../src/domain/access-verdict.js';
import type { Reply } from '../../../src/views/types.js';
import { buildAccessRefusal, refusalText } from '../../../src/views/access-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_MARKER, HOSTILE_SAMPLES } from '../../rig/hostile-strings.js';
import { checkPayload } from '../../rig/mrkdwn-abuse-checker.js';

const FILE = 'ACCESS_POLICY (policy.yml)';
const file = (key: string): RuleRef => ({ key, source: FILE });
const env = (key: string): RuleRef => ({ key, source: 'environment' });
const CMD = '/cloud server delete';

const shown = (r: Reply) => JSON.stringify(r.blocks);
function valid(r: Reply, channels: string[] = []): Reply {
  assertBlockKitValid({ text: r.text, blocks: r.blocks });
  expect(checkPayload({ text: r.text, blocks: r.blocks }, { users: [], channels, url: () => false, marker: HOSTILE_MARKER }, 'refusal')).toEqual([]);
  expect(r.text.endsWith('Nothing was done.')).toBe(true);
  return r;
}

describe('buildAccessRefusal names the rule that refused', () => {
  it('channel: keeps the CLOUD_CHANNELS wording and says where channels are set', () => {
    const r = valid(buildAccessRefusal({ ok: false, reason: 'channel', channels: ['C0OPS'], rule: env('CLOUD_CHANNELS') }, CMD, 'destroy'), ['C0OPS']);
    expect(r.text).toBe('I take `/cloud` commands only in <#C0OPS>. Nothing was done.');
    expect(shown(r)).toContain('(CLOUD_CHANNELS)');
  });

  it('unlisted: the channel is not in the policy and default_channel denies', () => {
    const r = valid(buildAccessRefusal({ ok: false, reason: 'unlisted', rule: file('default_channel') }, CMD, 'destroy'));
    expect(r.text).toBe(
      'This channel is not in the access policy, and unlisted channels are refused (rule `default_channel` in `ACCESS_POLICY (policy.yml)`: deny). Nothing was done.',
    );
  });

  it('account: names the account refused and the ones this channel may use', () => {
    const d: Refusal = { ok: false, reason: 'account', account: 'prod', allowed: ['staging', 'dev'], rule: file('channels.C0DEV.accounts') };
    expect(valid(buildAccessRefusal(d, CMD, 'destroy')).text).toBe(
      'This channel may not use account `prod` (rule `channels.C0DEV.accounts` in `ACCESS_POLICY (policy.yml)`). It may use `staging` and `dev`. Nothing was done.',
    );
    const none = valid(buildAccessRefusal({ ...d, allowed: [] }, CMD, 'destroy'));
    expect(none.text).toContain('It may use no account.');
  });

  it('account: one the channel lists but nobody declared is called unknown, not forbidden', () => {
    const r = valid(buildAccessRefusal({ ok: false, reason: 'account', account: 'ghost', allowed: ['ghost'], rule: file('accounts') }, CMD, 'read'));
    expect(r.text).toBe('There is no account `ghost` (rule `accounts` in `ACCESS_POLICY (policy.yml)`). Nothing was done.');
  });

  it('ceiling: says what the channel allows and that no role can do it here', () => {
    const r = valid(buildAccessRefusal({ ok: false, reason: 'ceiling', ceiling: ['read'], rule: file('channels.C0PROD.ceiling') }, CMD, 'destroy'));
    expect(r.text).toBe(
      '`/cloud server delete` can destroy data, and this channel allows only reads (rule `channels.C0PROD.ceiling` in `ACCESS_POLICY (policy.yml)`): no role can do it here. Nothing was done.',
    );
    const two = buildAccessRefusal({ ok: false, reason: 'ceiling', ceiling: ['read', 'change'], rule: file('default_channel.ceiling') }, CMD, 'billing');
    expect(two.text).toContain('this channel allows reads and changes (rule `default_channel.ceiling`');
  });

  it('account-ceiling: the account allows only some tiers from any channel', () => {
    const r = valid(buildAccessRefusal({ ok: false, reason: 'account-ceiling', account: 'prod', ceiling: ['read', 'change', 'billing'], rule: file('accounts.prod.ceiling') }, CMD, 'destroy'));
    expect(r.text).toBe(
      '`/cloud server delete` can destroy data, and account `prod` allows reads, changes and billing from any channel (rule `accounts.prod.ceiling` in `ACCESS_POLICY (policy.yml)`). Nothing was done.',
    );
  });

  it('role: keeps the wording and adds where the role comes from', () => {
    const env1 = valid(buildAccessRefusal({ ok: false, reason: 'role', role: 'viewer', needed: 'admin', rule: env('default (CLOUD_VIEWERS unset)') }, CMD, 'destroy'));
    expect(env1.text).toBe(
      '`/cloud server delete` can destroy data: it needs the *admin* role. Your role here is *viewer*. It comes from `default (CLOUD_VIEWERS unset)`. Nothing was done.',
    );
    const chan = valid(buildAccessRefusal({ ok: false, reason: 'role', role: 'operator', needed: 'admin', rule: file('channels.C0PROD.operators') }, CMD, 'destroy'));
    expect(chan.text).toContain('it needs the *admin* role. Your role here is *operator*. It comes from `channels.C0PROD.operators` in `ACCESS_POLICY (policy.yml)`.');
    const none = valid(buildAccessRefusal({ ok: false, reason: 'role', role: undefined, needed: 'viewer', rule: env('CLOUD_VIEWERS') }, '/cloud server list', 'read'));
    expect(none.text).toContain('it needs the *viewer* role. You have no role here. No role list names you (rule `CLOUD_VIEWERS`).');
  });

  it('points at where rules are set, and refusalText is the same sentence with an emoji', () => {
    const d: Refusal = { ok: false, reason: 'ceiling', ceiling: ['read'], rule: file('channels.C0PROD.ceiling') };
    const r = buildAccessRefusal(d, CMD, 'destroy');
    expect(shown(r)).toContain('CLOUD_ADMINS, CLOUD_OPERATORS, CLOUD_VIEWERS, CLOUD_CHANNELS or ACCESS_POLICY');
    expect(shown(r)).toContain('/cloud policy');
    expect(refusalText(d, CMD, 'destroy')).toBe(`:no_entry: ${r.text}`);
  });

  it('hostile rule keys, sources and account names stay inert', () => {
    for (const h of HOSTILE_SAMPLES) {
      const rule = { key: h, source: h };
      const all: Refusal[] = [
        { ok: false, reason: 'unlisted', rule },
        { ok: false, reason: 'account', account: h, allowed: [h, 'ok'], rule },
        { ok: false, reason: 'account', account: h, allowed: [], rule },
        { ok: false, reason: 'ceiling', ceiling: ['read'], rule },
        { ok: false, reason: 'account-ceiling', account: h, ceiling: [], rule },
        { ok: false, reason: 'role', role: 'viewer', needed: 'admin', rule },
        { ok: false, reason: 'role', role: undefined, needed: 'viewer', rule },
      ];
      for (const d of all) {
        const r = valid(buildAccessRefusal(d, h, 'destroy'));
        expect(r.text).not.toContain('\n');
      }
    }
  });
});
