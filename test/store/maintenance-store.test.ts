/**
 * Maintenance windows in the store (migration 14), on both backends: a window is in force from
 * its start until its end or an early end (once); alerts held back merge by condition; and of
 * two connections (replicas) claiming a window's summary, one wins.
 */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';

const LEASE = 600_000;

describeStores((t) => {

  it('in force until it ends; ended early once; held-back alerts merge; the summary is claimed once', async () => {
    const path = t.file();
    const a = t.open(path).maintenance;
    const b = t.open(path).maintenance;
    const w = await a.create({ channelId: 'C0OPS', account: 'prod', kind: 'server', resource: '101', createdBy: 'U_BOB', now: T0, endsAt: T0 + 7_200_000 });
    expect(w.id).toMatch(/^mw_[a-z2-7]{8}$/);
    expect((await b.listOpen(T0 + 1000)).map((x) => x.id)).toEqual([w.id]);
    expect(await b.listOpen(T0 + 7_200_000)).toEqual([]);
    expect(await b.listUnsummarised(T0 + 1000)).toEqual([]);

    await a.noteMuted(w.id, { kind: 'server', resource: '101', condition: 'power_off' }, T0 + 60_000);
    await b.noteMuted(w.id, { kind: 'server', resource: '101', condition: 'power_off' }, T0 + 120_000);
    expect((await a.get(w.id))!.muted).toEqual([{ kind: 'server', resource: '101', condition: 'power_off', firstAt: T0 + 60_000, lastAt: T0 + 120_000 }]);

    const ended = await a.end(w.id, 'U_ALICE', T0 + 600_000);
    expect(ended).toMatchObject({ endedAt: T0 + 600_000, endedBy: 'U_ALICE' });
    expect(await b.end(w.id, 'U_BOB', T0 + 601_000)).toBeUndefined();
    expect(await a.listOpen(T0 + 601_000)).toEqual([]);
    expect((await b.listUnsummarised(T0 + 601_000)).map((x) => x.id)).toEqual([w.id]);

    const at = T0 + 601_000;
    const claims = await Promise.all([a.claimSummary(w.id, 'replica-a', at, at + LEASE), b.claimSummary(w.id, 'replica-b', at, at + LEASE), a.claimSummary(w.id, 'replica-a', at, at + LEASE)]);
    expect(claims.filter(Boolean)).toEqual(['fresh']);
    expect(await a.listUnsummarised(T0 + 700_000)).toEqual([]);
  });

  it('a summary claim is a lease: a replica stopped before recording its post leaves it to another, told it takes over; a posted or given-up one is never claimed again', async () => {
    const path = t.file();
    const a = t.open(path).maintenance;
    const b = t.open(path).maintenance;
    const window = async () => {
      const w = await a.create({ channelId: 'C0OPS', account: null, kind: 'server', resource: '101', createdBy: 'U_BOB', now: T0, endsAt: T0 + 60_000 });
      return w.id;
    };
    const [stopped, posted, refused] = [await window(), await window(), await window()];
    const at = T0 + 60_000;
    for (const id of [stopped, posted, refused]) expect(await a.claimSummary(id, 'replica-a', at, at + LEASE)).toBe('fresh');
    await a.setSummaryTs(posted, '1795000000.000100');
    await a.giveUpSummary(refused);

    // While the lease lasts nobody else sees or claims any of them.
    expect(await b.listUnsummarised(at + LEASE - 1)).toEqual([]);
    expect(await b.claimSummary(stopped, 'replica-b', at + LEASE - 1, at + 2 * LEASE)).toBe(false);
    // Once it ended, only the one never posted nor given up comes back, to one replica.
    expect((await b.listUnsummarised(at + LEASE)).map((w) => w.id)).toEqual([stopped]);
    const later = at + LEASE;
    const again = await Promise.all([b.claimSummary(stopped, 'replica-b', later, later + LEASE), a.claimSummary(stopped, 'replica-a', later, later + LEASE)]);
    // The winner is told an earlier claim ended unrecorded: it looks for that post before posting.
    expect(again.filter(Boolean)).toEqual(['taken-over']);
    for (const id of [posted, refused]) expect(await b.claimSummary(id, 'replica-b', at + 10 * LEASE, at + 11 * LEASE)).toBe(false);
    // Only a claim that ended unposted comes back (the second holder stopped too, here).
    expect((await b.listUnsummarised(at + 10 * LEASE)).map((w) => w.id)).toEqual([stopped]);
    expect(await a.claimSummary(stopped, 'replica-a', at + 10 * LEASE, at + 11 * LEASE)).toBe('taken-over');
    expect((await a.get(posted))!.summaryTs).toBe('1795000000.000100');
  });
});
