/** The daily digest (issue 13): sections, "none" when empty, flags, "+N more", limits, hostile values. */
import { describe, expect, it } from 'vitest';
import type { WatchRecord } from '../../../src/store/watch-store.js';
import { buildDigest, DIGEST_LIST_MAX, type DigestAlert, type DigestInput } from '../../../src/views/digest-views.js';
import { assertBlockKitValid } from '../../rig/block-kit-limits.js';
import { HOSTILE_SAMPLES } from '../../rig/hostile-strings.js';
import { expectInert, shownJson } from './reply-checks.js';

const now = Date.parse('2026-11-22T08:00:00Z');
const MIN = 60_000;

function alertOf(over: Partial<DigestAlert> = {}): DigestAlert {
  return {
    id: 'alt_aaaaaaaaaa',
    subscriptionId: 'sub_aaaaaaaaaa',
    channelId: 'C1',
    condition: 'power-off',
    status: 'resolved',
    messageTs: '1.2',
    startedAt: now - 60 * MIN,
    resolvedAt: now - 48 * MIN,
    detail: { state: 'stopped' },
    kind: 'server',
    resource: '101',
    ...over,
  };
}

function watchOf(over: Partial<WatchRecord> = {}): WatchRecord {
  return {
    id: 'w_aaaaaaaaaa', kind: 'worker', resource: 'uuid-1', operationId: null, channelId: 'C1', threadTs: null, requestedBy: 'U1',
    status: 'active', state: null, outcome: null, polls: 4, intervalMs: 15_000, startedAt: now - 30 * MIN, deadlineAt: now + 30 * MIN,
    nextPollAt: now, updatedAt: now, finalTs: null, leaseOwner: null, leaseUntil: null, account: null, unread: null, ...over,
  };
}

function digest(over: Partial<DigestInput> = {}): DigestInput {
  return {
    day: '2026-11-22',
    tz: 'Europe/Berlin',
    now,
    usage: { servers: 3, cpu_used: 18, cpu_limit: 20, ram_used: 8 * 1024 ** 3, ram_limit_gb: 32, disk_used: null, ip_used: 2, ip_limit: 10 },
    invoices: [{ id: 42, status: 'overdue', total: 20, amount_due: 12.5, created_at: '2026-11-01T00:00:00Z' }],
    alerts: [
      alertOf(),
      alertOf({ id: 'alt_b', condition: 'busy', status: 'firing', resolvedAt: null, detail: { status: 'reinstalling' } }),
      alertOf({ id: 'alt_c', kind: 'worker', resource: 'uuid-2', condition: 'failed', detail: { status: 'failed', error: 'boom' } }),
      alertOf({ id: 'alt_d', kind: 'worker', resource: 'uuid-3', condition: 'building', detail: { status: 'pending' } }),
    ],
    watches: [watchOf()],
    ...over,
  };
}

describe('buildDigest', () => {
  it('where the channel may not read invoices: says so, counts none, shows none', () => {
    const r = buildDigest(digest({ invoices: 'not-allowed' }));
    expect(shownJson(r)).toContain('Not shown here: this channel may not read invoices on this account');
    expect(shownJson(r)).not.toContain('42');
    expect(r.text).toBe('Daily digest 2026-11-22: 2 server changes, 1 failed build, 1 active watch');
  });

  it('an alert closed because its watching ended is not called resolved', () => {
    const r = buildDigest(digest({ alerts: [alertOf({ detail: { state: 'stopped', unwatched: 'unsubscribed' } })] }));
    expect(shownJson(r)).toContain('no longer watched after 12 minutes, still firing when last seen');
    expect(shownJson(r)).not.toContain('resolved after');
  });

  it('summarises usage, invoices, server changes, failed builds and watches', () => {
    const r = buildDigest(digest());
    const json = shownJson(r);
    expect(r.text).toBe('Daily digest 2026-11-22: 2 server changes, 1 failed build, 1 unpaid invoice, 1 active watch');
    expect(json).toContain('Daily digest — 2026-11-22');
    expect(json).toContain('`Europe/Berlin`');
    expect(json).toContain('18 of 20 (90%) :warning:');
    expect(json).toContain('2 of 10 (20%)"');
    expect(json).toContain('8 GB of 32 GB (25%)"');
    expect(json).toContain('`#42`');
    expect(json).toContain('12.50 due');
    expect(json).toContain(':white_check_mark: Server `101` powered off — resolved after 12 minutes');
    expect(json).toContain('Server `101` busy (reinstalling) — since <!date^');
    expect(json).toContain('Worker `uuid-2` failed (failed) — resolved after 12 minutes');
    // A build that merely ran is not a failed build.
    expect(json).not.toContain('uuid-3');
    expect(json).toContain('• `w_aaaaaaaaaa` worker `uuid-1` · for 30 minutes · 4 polls');
    expectInert(r, false);
  });

  it('says "none" for each empty section', () => {
    const r = buildDigest(digest({ usage: undefined, invoices: [], alerts: [], watches: [] }));
    const json = shownJson(r);
    expect(json.match(/_none_/g)).toHaveLength(5);
    expect(r.text).toBe('Daily digest 2026-11-22: 0 server changes, 0 failed builds, 0 unpaid invoices, 0 active watches');
    assertBlockKitValid(r);
  });

  it('says when the watches could not be listed, rather than "none" or "0 active watches"', () => {
    const r = buildDigest(digest({ watches: 'unreadable' }));
    expect(shownJson(r)).toContain('could not be read from the bot');
    expect(r.text).toContain('active watches unknown');
    expect(r.text).not.toContain('0 active watches');
    assertBlockKitValid(r);
  });

  it('says when usage or invoices could not be read', () => {
    const json = shownJson(buildDigest(digest({ usage: { error: 'rate limited' }, invoices: { error: 'timeout' } })));
    expect(json).toContain('Could not read usage: `rate limited`');
    expect(json).toContain('Could not read invoices: `timeout`');
  });

  it('names the account', () => {
    const r = buildDigest(digest({ account: 'prod' }));
    expect(r.text).toMatch(/^Daily digest 2026-11-22 \(account `prod`\):/);
    expect(shownJson(r)).toContain('· account `prod`');
  });

  it('caps long lists with "+N more" and fits Slack', () => {
    const alerts = Array.from({ length: 200 }, (_, i) => alertOf({ id: `alt_${i}`, resource: `srv-${i}-${'x'.repeat(250)}` }));
    const watches = Array.from({ length: 40 }, (_, i) => watchOf({ id: `w_${i}` }));
    const r = buildDigest(digest({ alerts, watches }));
    assertBlockKitValid(r);
    const json = shownJson(r);
    expect(json).toContain(`+${40 - DIGEST_LIST_MAX} more`);
    const more = [...json.matchAll(/\+(\d+) more/g)].map((m) => Number(m[1]));
    // The servers: 200 alerts, some shown, the rest counted exactly.
    const shownServers = (json.match(/Server `srv-/g) ?? []).length;
    expect(more).toContain(200 - shownServers);
  });

  it('when the day held more alerts than were listed, counts them all and says how many more there were', () => {
    // Two server changes and one failed build listed, out of 40 and 7 the last 24 hours held.
    const r = buildDigest(digest({ totals: { servers: 40, builds: 7 } }));
    const json = shownJson(r);
    expect(r.text).toBe('Daily digest 2026-11-22: 40 server changes, 7 failed builds, 1 unpaid invoice, 1 active watch');
    expect(json).toContain(':white_check_mark: Server `101` powered off — resolved after 12 minutes');
    expect(json).toMatch(/Server `101` busy \(reinstalling\)[^"]*\\n_\+38 more in the last 24 hours_/);
    expect(json).toMatch(/Worker `uuid-2` failed \(failed\)[^"]*\\n_\+6 more in the last 24 hours_/);
    assertBlockKitValid(r);
  });

  it('a section none of whose alerts were listed says how many there were, never "none"', () => {
    const r = buildDigest(digest({ alerts: [alertOf()], totals: { servers: 1, builds: 3 } }));
    const json = shownJson(r);
    expect(json).toContain('*Failed builds*\\n_3 in the last 24 hours, not listed here_');
    expect(json.match(/_none_/g)).toBeNull();
    expect(r.text).toContain('1 server change, 3 failed builds');
  });

  it('totals below what was listed count what was listed (a count is never less than the list)', () => {
    const r = buildDigest(digest({ totals: { servers: 0, builds: 0 } }));
    expect(r.text).toContain('2 server changes, 1 failed build');
    expect(shownJson(r)).not.toContain('more');
  });

  it('counts exactly what it leaves out when the sections run out before the cap', () => {
    const invoices = Array.from({ length: 30 }, (_, i) => ({ id: 1000 + i, status: 's'.repeat(400), type: 't'.repeat(400), total: 1, amount_due: 1, created_at: null }));
    const r = buildDigest(digest({ invoices }));
    assertBlockKitValid(r);
    const json = shownJson(r);
    const shown = (json.match(/`#10\d\d`/g) ?? []).length;
    expect(shown).toBeLessThan(DIGEST_LIST_MAX);
    expect(json).toContain(`+${30 - shown} more`);
  });
});

describe.each(HOSTILE_SAMPLES)('the digest with the hostile value %j', (h) => {
  it('every outside field stays inert', () => {
    const r = buildDigest({
      day: h,
      tz: h,
      now,
      account: h,
      usage: { error: h },
      invoices: [{ id: 1, status: h, type: h, total: 1, amount_due: 1, created_at: h }],
      alerts: [
        alertOf({ resource: h, detail: { state: h } }),
        alertOf({ resource: h, condition: 'task-failed', detail: { action: h, message: h } }),
        alertOf({ kind: 'worker', resource: h, condition: 'failed', status: 'firing', resolvedAt: null, detail: { status: h, error: h } }),
        alertOf({ resource: h, condition: h, detail: {} }),
      ],
      watches: [watchOf({ id: h, resource: h, requestedBy: h })],
    });
    expectInert(r);
    expectInert(buildDigest({ day: h, tz: h, now, usage: undefined, invoices: { error: h }, alerts: [], watches: [] }));
  });
});
