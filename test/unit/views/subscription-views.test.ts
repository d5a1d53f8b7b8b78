/** Subscription list and the answers to subscribe, unsubscribe and mute (issue 13). */
import { describe, expect, it } from 'vitest';
import type { SubscriptionRecord } from '../../../src/store/monitor-types.js';
import { buildMuted, buildSubscribed, buildSubscriptionList, buildUnsubscribed, subscriptionWhat } from '../../../src/views/subscription-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_SAMPLES } from '../../rig/hostile-strings.js';
import { expectInert, shownJson } from './reply-checks.js';

const now = Date.parse('2026-11-22T12:00:00Z');
const HOUR = 3_600_000;

function sub(over: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id: 'sub_aaaaaaaaaa',
    channelId: 'C1',
    account: null,
    kind: 'server',
    resource: '101',
    params: {},
    createdBy: 'U123',
    createdAt: now - HOUR,
    mutedUntil: null,
    removedAt: null,
    lastRun: null,
    runOwed: null,
    ...over,
  };
}

describe('subscriptionWhat', () => {
  it('names what each kind follows', () => {
    expect(subscriptionWhat(sub())).toBe('server `101`');
    expect(subscriptionWhat(sub({ kind: 'worker', resource: 'uuid-1' }))).toBe('worker `uuid-1`');
    expect(subscriptionWhat(sub({ kind: 'usage', resource: '', params: { cpu: 80, ip: 95 } }))).toBe('usage ≥ CPU 80% · IP 95%');
    expect(subscriptionWhat(sub({ kind: 'usage', resource: '', params: {} }))).toBe('usage (CPU, RAM, IP at the default threshold)');
    expect(subscriptionWhat(sub({ kind: 'invoices', resource: '' }))).toBe('new unpaid or overdue invoices');
    expect(subscriptionWhat(sub({ kind: 'digest', resource: '', params: { at: '09:00', tz: 'Europe/Berlin' } }))).toBe('daily digest at `09:00` `Europe/Berlin`');
  });
});

describe('buildSubscriptionList', () => {
  const subs = [
    sub(),
    sub({ id: 'sub_bbbbbbbbbb', kind: 'usage', resource: '', params: { cpu: 80, ram: 90 }, account: 'prod', mutedUntil: now + 2 * HOUR }),
    sub({ id: 'sub_cccccccccc', kind: 'digest', resource: '', params: { at: '09:00', tz: 'Europe/Berlin' }, mutedUntil: now - HOUR }),
  ];

  it('lists each with its id, what it follows, who subscribed, firing alerts and mute', () => {
    const r = buildSubscriptionList(subs, { sub_aaaaaaaaaa: 2 }, now);
    const json = shownJson(r);
    expect(r.text).toBe('3 subscriptions in this channel, 1 muted');
    expect(json).toContain('• `sub_aaaaaaaaaa` server `101` · by <@U123> · :red_circle: 2 firing');
    expect(json).toContain('• `sub_bbbbbbbbbb` usage ≥ CPU 80% · RAM 90% · by <@U123> · :zzz: muted until <!date^');
    expect(json).toContain('(in 2 hours)');
    // A mute that has passed is not shown.
    expect(json).toMatch(/`sub_cccccccccc` daily digest at `09:00` `Europe\/Berlin` · by <@U123>"/);
    expect(json).not.toContain('account');
    assertBlockKitValid(r);
  });

  it('names accounts when asked, the default one for records without', () => {
    const json = shownJson(buildSubscriptionList(subs, {}, now, { showAccounts: true, defaultAccount: 'main' }));
    expect(json).toContain('server `101` · account `main`');
    expect(json).toContain('· account `prod`');
  });

  it('says how to subscribe when empty', () => {
    const r = buildSubscriptionList([], {}, now);
    expect(r.text).toBe('No subscriptions in this channel.');
    expect(shownJson(r)).toContain('`/cloud subscribe server &lt;server&gt;`');
    expectInert(r, false);
  });

  it('fits Slack with many subscriptions', () => {
    const many = Array.from({ length: 600 }, (_, i) => sub({ id: `sub_${String(i).padStart(10, '0')}`, resource: 'x'.repeat(200) }));
    const r = buildSubscriptionList(many, {}, now);
    assertBlockKitValid(r);
    expect(shownJson(r)).toMatch(/…and \d+ more/);
  });
});

describe('answers', () => {
  it('subscribed, or already subscribed with its id', () => {
    const made = buildSubscribed(sub(), true, { account: 'prod' });
    expect(made.text).toBe('Subscribed this channel to server `101` on account `prod` as `sub_aaaaaaaaaa`.');
    expect(shownJson(made)).toContain('`/cloud mute sub_aaaaaaaaaa 1h`');
    expect(buildSubscribed(sub(), false).text).toBe('This channel is already subscribed to server `101` as `sub_aaaaaaaaaa`.');
    expect(shownJson(buildSubscribed(sub({ kind: 'digest', params: { at: '09:00', tz: 'UTC' } }), true))).toContain('once a day');
  });

  it('what holds now: each condition as the alert says it, or that nothing does; a digest without invoices says so', () => {
    const off = shownJson(buildSubscribed(sub(), true, { holds: [{ condition: 'power-off', detail: { state: 'stopped' } }], now }));
    expect(off).toContain('Now: Server `101` is powered off.');
    expect(off).toContain('an alert opens here once the monitor confirms it');
    const fine = shownJson(buildSubscribed(sub(), false, { holds: [], now }));
    expect(fine).toContain('Now: nothing to alert about.');
    expect(fine).not.toContain('alert opens');
    expect(shownJson(buildSubscribed(sub({ kind: 'digest', params: { at: '09:00', tz: 'UTC' } }), true, { invoicesHidden: true }))).toContain('Invoices are left out');
  });

  it('unsubscribed, or the unknown id named', () => {
    expect(buildUnsubscribed('sub_aaaaaaaaaa', sub()).text).toBe('Unsubscribed `sub_aaaaaaaaaa` (server `101`): nothing more is posted for it here.');
    expect(buildUnsubscribed('sub_nope', undefined).text).toBe('No active subscription `sub_nope` in this channel (unknown or already removed).');
  });

  it('muted until when, unmuted, or nothing matched', () => {
    const m = buildMuted(sub(), 'sub_aaaaaaaaaa', now + 2 * HOUR, now);
    expect(m.text).toBe('Muted `sub_aaaaaaaaaa` for 2 hours.');
    expect(shownJson(m)).toContain('until <!date^');
    expect(buildMuted(sub(), 'sub_aaaaaaaaaa', now + 1.5 * HOUR, now).text).toBe('Muted `sub_aaaaaaaaaa` for 1 hour 30 minutes.'); // 90m, not "2 hours"
    expect(shownJson(buildMuted(sub(), 'sub_aaaaaaaaaa', now + 1.5 * HOUR, now))).toContain('(in 1 hour 30 minutes)');
    expect(buildMuted(sub(), '101', null, now).text).toBe('Unmuted `sub_aaaaaaaaaa` (server `101`): alerts are posted again.');
    expect(buildMuted(undefined, '101', now + HOUR, now).text).toBe('Nothing to mute: no active subscription in this channel matches `101`.');
  });
});

describe.each(HOSTILE_SAMPLES)('subscription views with the hostile value %j', (h) => {
  const kinds: Partial<SubscriptionRecord>[] = [
    { kind: 'server' },
    { kind: 'worker' },
    { kind: 'usage', params: { cpu: h, ram: h, ip: h } },
    { kind: 'invoices' },
    { kind: 'digest', params: { at: h, tz: h } },
  ];
  const hostile = (over: Partial<SubscriptionRecord>) => sub({ id: h, resource: h, account: h, createdBy: h, mutedUntil: now + HOUR, ...over });

  it.each(kinds)('%j', (over) => {
    const s = hostile(over);
    expectInert(buildSubscriptionList([s], { [h]: 3 }, now, { showAccounts: true, defaultAccount: h }));
    expectInert(buildSubscribed(s, true, { account: h }));
    expectInert(buildSubscribed(s, false, { account: h }));
    expectInert(buildSubscribed(s, true, { account: h, holds: [{ condition: h, detail: { state: h, status: h, error: h } }], invoicesHidden: true, now }));
    expectInert(buildUnsubscribed(h, s));
    expectInert(buildMuted(s, h, now + HOUR, now));
    expectInert(buildMuted(s, h, null, now));
  });

  it('unknown ids', () => {
    expectInert(buildUnsubscribed(h, undefined));
    expectInert(buildMuted(undefined, h, now + HOUR, now));
  });
});
