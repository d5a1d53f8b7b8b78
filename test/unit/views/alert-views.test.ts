/** Alert messages (issue 13): words per condition, buttons only while firing, values that parse back, limits, hostile values. */
import { describe, expect, it } from 'vitest';
import {
  ALERT_RUN,
  ALERT_SNOOZE,
  ALERT_WATCH,
  alertActionPattern,
  buildAlertButtonUnreadable,
  buildAlertFollowUp,
  buildAlertMessage,
  buildNothingToSnooze,
  buildSnoozed,
  type AlertAction,
  type AlertInput,
} from '../../../src/views/alert-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_SAMPLES } from '../../rig/hostile-strings.js';
import { buttonsOf, expectInert, shownJson } from './reply-checks.js';

const now = Date.parse('2026-11-22T12:00:00Z');
const MIN = 60_000;

const serverActions: AlertAction[] = [
  { label: 'Server status', op: 'server.status', args: { server: '101' } },
  { label: 'Watch', op: 'server.status', args: { server: '101' }, watch: true },
  { label: 'Credentials', op: 'server.credentials', args: { server: '101' }, account: 'prod' },
];

function alert(over: Partial<AlertInput> = {}): AlertInput {
  return {
    kind: 'server',
    resource: '101',
    condition: 'power-off',
    detail: { state: 'stopped' },
    status: 'firing',
    startedAt: now - 12 * MIN,
    resolvedAt: null,
    now,
    subscriptionId: 'sub_abcdefghij',
    actions: serverActions,
    ...over,
  };
}

const resolved = (over: Partial<AlertInput> = {}) => alert({ status: 'resolved', resolvedAt: now, ...over });
const all = (r: { text: string; blocks: unknown[] }) => shownJson(r as never);

describe('buildAlertMessage while firing', () => {
  it('says what is wrong and since when, with a red icon', () => {
    const r = buildAlertMessage(alert());
    expect(r.text).toBe('Server `101` is powered off');
    expect(all(r)).toContain(':red_circle: *Server `101` is powered off*');
    expect(all(r)).toContain('Since <!date^');
    expect(all(r)).toContain('(12 minutes)');
    expect(all(r)).toContain('subscription `sub_abcdefghij`');
    expectInert(r, false);
  });

  it('has one button per action and two snooze buttons, with distinct action ids matched by prefix', () => {
    const b = buttonsOf(buildAlertMessage(alert()));
    expect(b.map((x) => x.text)).toEqual(['Server status', 'Watch', 'Credentials', 'Snooze 1 h', 'Snooze 1 day']);
    expect(b.map((x) => x.actionId)).toEqual(['alert_run:0', 'alert_watch:1', 'alert_run:2', 'alert_snooze:0', 'alert_snooze:1']);
    expect(new Set(b.map((x) => x.actionId)).size).toBe(b.length);
    expect(b.filter((x) => alertActionPattern(ALERT_RUN).test(x.actionId))).toHaveLength(2);
    expect(b.filter((x) => alertActionPattern(ALERT_WATCH).test(x.actionId))).toHaveLength(1);
    expect(b.filter((x) => alertActionPattern(ALERT_SNOOZE).test(x.actionId))).toHaveLength(2);
    expect(alertActionPattern(ALERT_RUN).test('alert_runner')).toBe(false);
    expect(alertActionPattern(ALERT_RUN).test(ALERT_RUN)).toBe(true);
    expect(alertActionPattern(ALERT_RUN).test('alert_run:x')).toBe(false);
    // Every id is a constant, a colon and a number: what alertActionPattern, the listener's route, matches.
    for (const x of b) expect(x.actionId).toMatch(/^alert_(run|watch|snooze):\d+$/);
  });

  it('button values parse back to the operation, its arguments and account, and the snooze to the subscription', () => {
    const b = buttonsOf(buildAlertMessage(alert()));
    expect(JSON.parse(b[0]!.value)).toEqual({ op: 'server.status', args: { server: '101' } });
    expect(JSON.parse(b[1]!.value)).toEqual({ op: 'server.status', args: { server: '101' } });
    expect(JSON.parse(b[2]!.value)).toEqual({ op: 'server.credentials', args: { server: '101' }, account: 'prod' });
    expect(JSON.parse(b[3]!.value)).toEqual({ sub: 'sub_abcdefghij', ms: 3_600_000 });
    expect(JSON.parse(b[4]!.value)).toEqual({ sub: 'sub_abcdefghij', ms: 86_400_000 });
  });

  it('names the account in the text and the block when given', () => {
    const r = buildAlertMessage(alert({ account: 'prod' }));
    expect(r.text).toBe('Server `101` is powered off (account `prod`)');
    expect(all(r)).toContain('account `prod`');
  });

  it('leaves out a button whose value Slack would refuse, and caps the buttons at 25', () => {
    const long = buildAlertMessage(alert({ actions: [{ label: 'Big', op: 'server.status', args: { x: 'y'.repeat(3000) } }] }));
    expect(buttonsOf(long).map((x) => x.text)).toEqual(['Snooze 1 h', 'Snooze 1 day']);
    assertBlockKitValid(long);
    const many = buildAlertMessage(alert({ actions: Array.from({ length: 40 }, (_, i) => ({ label: `A${i}`, op: 'server.status', args: {} })) }));
    expect(buttonsOf(many)).toHaveLength(25);
    expect(buttonsOf(many).slice(-2).map((x) => x.text)).toEqual(['Snooze 1 h', 'Snooze 1 day']);
    assertBlockKitValid(many);
  });
});

describe('buildAlertMessage once resolved', () => {
  it('says it is back, after how long, with a green check and no buttons', () => {
    const r = buildAlertMessage(resolved());
    expect(r.text).toBe('Resolved: Server `101` is back on after 12 minutes');
    expect(all(r)).toContain(':white_check_mark:');
    expect(all(r)).toContain('Was: Server `101` powered off');
    expect(buttonsOf(r)).toEqual([]);
    expect(r.blocks.some((b) => b.type === 'actions')).toBe(false);
    expectInert(r, false);
  });
});

describe('the words of each condition', () => {
  const cases: [Partial<AlertInput>, string, string][] = [
    [{ condition: 'busy', detail: { status: 'installing' } }, 'Server `101` is busy: an install or reinstall in progress (installing)', 'Server `101` finished installing'],
    [{ condition: 'busy', detail: { status: 'suspended' } }, 'Server `101` is suspended', 'Server `101` is no longer suspended'],
    [{ condition: 'busy', detail: { status: 'odd' } }, 'Server `101` is busy: an install or reinstall in progress (`odd`)', 'Server `101` is no longer busy (was `odd`)'],
    [{ condition: 'power-off', detail: { state: 'halted' } }, 'Server `101` is powered off (power state `halted`)', 'Server `101` is back on'],
    [{ condition: 'task-failed', detail: { action: 'reboot', message: 'timeout' } }, 'The power task `reboot` failed on server `101`', 'Server `101` has no failed power task any more'],
    [{ kind: 'worker', resource: 'w-1', condition: 'building', detail: { status: 'in_progress' } }, 'Worker `w-1` is building (in progress)', 'Worker `w-1` finished building'],
    [{ kind: 'worker', resource: 'w-1', condition: 'failed', detail: { status: 'failed', error: 'npm ERR' } }, 'Worker `w-1` failed (failed)', 'Worker `w-1` is back to normal'],
    [{ kind: 'usage', resource: '', condition: 'cpu', detail: { used: 17, limit: 20, percent: 85, threshold: 80 } }, 'CPU usage is at 85% of the limit (threshold 80%)', 'CPU usage is back below 80%'],
    [{ kind: 'invoices', resource: '', condition: 'invoice:42', detail: { id: 42, status: 'overdue', amountDue: 12.5, total: 20, createdAt: '2026-11-01T00:00:00Z' } }, 'Invoice `#42` is unpaid (status `overdue`)', 'Invoice `#42` is no longer unpaid'],
    [{ condition: 'new-thing', detail: {} }, 'server `101`: `new-thing`', 'server `101`: `new-thing` cleared'],
  ];
  it.each(cases)('%j', (over, firing, back) => {
    expect(buildAlertMessage(alert(over)).text).toBe(firing);
    expect(buildAlertMessage(resolved(over)).text).toBe(`Resolved: ${back} after 12 minutes`);
  });

  it('shows the facts under the subject: a task message, a build error, usage amounts, an invoice amount', () => {
    expect(all(buildAlertMessage(alert({ condition: 'task-failed', detail: { message: 'timeout' } })))).toContain('• Message: `timeout`');
    expect(all(buildAlertMessage(alert({ kind: 'worker', condition: 'failed', detail: { status: 'failed', error: 'npm ERR' } })))).toContain('• Error: `npm ERR`');
    expect(all(buildAlertMessage(alert({ kind: 'usage', condition: 'cpu', detail: { used: 17, limit: 20, percent: 85, threshold: 80 } })))).toContain('Used: 17 cores of 20 cores');
    const ram = buildAlertMessage(alert({ kind: 'usage', condition: 'ram', detail: { used: 15 * 1024 ** 3, limit: 16 * 1024 ** 3, percent: 93.75, threshold: 90 } }));
    expect(ram.text).toBe('Memory usage is at 93.8% of the limit (threshold 90%)');
    expect(all(ram)).toContain('Used: 15 GB of 16 GB');
    const inv = buildAlertMessage(alert({ kind: 'invoices', condition: 'invoice:42', detail: { id: 42, status: 'unpaid', amountDue: 12.5, total: 20 } }));
    expect(all(inv)).toContain('due 12.50 · total 20.00');
    expect(all(inv)).toContain(':warning:');
  });
});

describe('buildAlertFollowUp', () => {
  it('fired, changed and resolved read as short thread replies', () => {
    expect(buildAlertFollowUp(alert()).text).toBe('Fired: Server `101` is powered off.');
    expect(buildAlertFollowUp(alert({ change: 'changed', detail: { state: 'halted' } })).text).toBe('Now: Server `101` is powered off (power state `halted`) (for 12 minutes).');
    const back = buildAlertFollowUp(resolved());
    expect(back.text).toBe('Resolved: Server `101` is back on after 12 minutes.');
    expect(buttonsOf(back)).toEqual([]);
    expectInert(back, false);
  });
});

describe('snooze answers', () => {
  it('says until when and for how long', () => {
    const r = buildSnoozed(now + 3_600_000, now, 'sub_abcdefghij');
    expect(r.text).toBe('Snoozed `sub_abcdefghij` for 1 hour');
    expect(all(r)).toContain('until <!date^');
    expect(all(r)).toContain('(in 1 hour)');
    expect(all(r)).toContain('`/cloud mute sub_abcdefghij off` unmutes it');
    expectInert(r, false);
    expect(buildNothingToSnooze('sub_gone').text).toContain('`sub_gone`');
    expectInert(buildAlertButtonUnreadable(), false);
  });
});

describe('an alert whose watching ended while it fired', () => {
  it('says no longer watched and what was last seen, never resolved; no buttons', () => {
    for (const [why, said] of [['unsubscribed', /the subscription was removed/], ['policy', /access policy no longer lets it read this/]] as const) {
      const r = buildAlertMessage(alert({ status: 'resolved', resolvedAt: now, detail: { state: 'stopped', unwatched: why } }));
      const shown = shownJson(r);
      expect(shown).toMatch(said);
      expect(shown).toContain('Still firing when last seen: Server `101` is powered off');
      expect(shown).not.toMatch(/Resolved|back on/);
      expect(r.text).toMatch(/^No longer watched: Server `101` is powered off when last seen/);
      expect(buttonsOf(r)).toEqual([]);
      assertBlockKitValid({ blocks: r.blocks });
    }
  });
});

describe.each(HOSTILE_SAMPLES)('alerts with the hostile value %j', (h) => {
  const detail = { state: h, status: h, action: h, message: h, error: h, id: h, amountDue: h, total: h, createdAt: h, used: h, limit: h, percent: h, threshold: h };
  const actions: AlertAction[] = [{ label: h, op: h, args: { server: h }, account: h }, { label: h, op: 'server.status', args: { [h]: h }, watch: true }];
  const base = { resource: h, detail, account: h, subscriptionId: h, actions };
  const conditions: [AlertInput['kind'], string][] = [
    ['server', 'power-off'], ['server', 'busy'], ['server', 'task-failed'], ['worker', 'building'], ['worker', 'failed'],
    ['usage', 'cpu'], ['usage', 'ram'], ['usage', 'ip'], ['invoices', `invoice:${h}`], ['server', h],
  ];

  it.each(conditions)('%s %s: message, follow-ups, both states, stay inert', (kind, condition) => {
    for (const status of ['firing', 'resolved'] as const) {
      const a = alert({ ...base, kind, condition, status, resolvedAt: status === 'resolved' ? now : null });
      const r = buildAlertMessage(a);
      expectInert(r);
      expectInert(buildAlertFollowUp(a));
      expectInert(buildAlertFollowUp({ ...a, change: 'changed' }));
      if (status === 'resolved') for (const why of ['unsubscribed', 'policy']) expectInert(buildAlertMessage({ ...a, detail: { ...detail, unwatched: why } }));
      if (status === 'firing') {
        // The values still parse back exactly: the click handler re-validates them.
        const b = buttonsOf(r);
        expect(JSON.parse(b[0]!.value)).toEqual({ op: h, args: { server: h }, account: h });
        expect(JSON.parse(b.at(-1)!.value)).toEqual({ sub: h, ms: 86_400_000 });
      }
    }
  });

  it('snooze answers', () => {
    expectInert(buildSnoozed(now + 86_400_000, now, h));
    expectInert(buildNothingToSnooze(h));
  });
});
