/**
 * Maintenance windows in the store (migration 14), on both backends: a window is in force from
 * its start until its end or an early end (once); alerts held back merge by condition; and of
 * two connections (replicas) claiming a window's summary, one wins.
 */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';

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

    const claims = await Promise.all([a.claimSummary(w.id, 'replica-a'), b.claimSummary(w.id, 'replica-b'), a.claimSummary(w.id, 'replica-a')]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await a.listUnsummarised(T0 + 700_000)).toEqual([]);
  });
});
