/** Schedules (migration 13) on both backends: one claimer per occurrence, one advance, one taker of a stale run. */
import { expect, it } from 'vitest';
import { T0, describeStores } from './helpers.js';
import type { NewSchedule } from '../../src/store/schedule-types.js';

describeStores((t) => {

  const nightly: NewSchedule = {
    channelId: 'C1',
    teamId: 'T1',
    createdBy: 'U1',
    command: 'backup create web1',
    opId: 'backup.create',
    when: { kind: 'cron', expr: '0 2 * * *', tz: 'Europe/Berlin', text: 'daily 02:00' },
    keep: 3,
    status: 'active',
    nextAt: T0 + 60_000,
    now: T0,
  };

  it('stores a schedule and reads it back as stored', async () => {
    const store = t.open(t.file());
    const s = await store.schedules.add(nightly);
    expect(s).toMatchObject({ channelId: 'C1', createdBy: 'U1', command: 'backup create web1', keep: 3, status: 'active', nextAt: T0 + 60_000, when: nightly.when });
    expect(s.id).toMatch(/^sch_[0-9a-f]{10}$/);
    expect(await store.schedules.get(s.id)).toEqual(s);
    const once = await store.schedules.add({ ...nightly, when: { kind: 'once', at: T0 + 5, tz: 'UTC', text: 'in 2h' }, keep: null, status: 'pending', confirmRecord: 'op_x' });
    expect(once.when).toEqual({ kind: 'once', at: T0 + 5, tz: 'UTC', text: 'in 2h' });
    expect((await store.schedules.list('C1')).map((x) => x.id)).toEqual([s.id, once.id]);
    expect(await store.schedules.list('C2')).toEqual([]);
    expect((await store.schedules.pending(10)).map((x) => x.id)).toEqual([once.id]);
  });

  it('two replicas racing for one occurrence: one claims it, one advances the next run', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path); // a second replica on the same database
    const s = await a.schedules.add(nightly);
    expect((await a.schedules.due(T0 + 60_000, 10)).map((x) => x.id)).toEqual([s.id]);
    const claims = await Promise.all([a.schedules.claimRun(s.id, T0 + 60_000, 'ra', T0, 60_000), b.schedules.claimRun(s.id, T0 + 60_000, 'rb', T0, 60_000)]);
    expect(claims.sort()).toEqual([false, true]);
    const advances = await Promise.all([a.schedules.advance(s.id, T0 + 60_000, T0 + 120_000, T0), b.schedules.advance(s.id, T0 + 60_000, T0 + 120_000, T0)]);
    expect(advances.sort()).toEqual([false, true]);
    expect(await a.schedules.due(T0 + 60_000, 10)).toEqual([]);
    expect(await t.count(path, 'schedule_runs')).toBe(1);
  });

  it('a run left running past its lease is taken over once; only its holder finishes it', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    const s = await a.schedules.add(nightly);
    expect(await a.schedules.claimRun(s.id, 1000, 'ra', T0, 60_000)).toBe(true);
    expect(await b.schedules.stale(T0 + 59_999, 10)).toEqual([]);
    expect(await b.schedules.stale(T0 + 60_000, 10)).toMatchObject([{ scheduleId: s.id, occurrence: 1000, owner: 'ra', status: 'running' }]);
    const takes = await Promise.all([b.schedules.takeOver(s.id, 1000, 'rb', T0 + 60_000, 60_000), a.schedules.takeOver(s.id, 1000, 'rc', T0 + 60_000, 60_000)]);
    expect(takes.sort()).toEqual([false, true]);
    const holder = (await a.schedules.runs(s.id))[0]!.owner;
    const other = holder === 'rb' ? 'rc' : 'rb';
    expect(await a.schedules.finishRun(s.id, 1000, 'ra', 'late', T0 + 61_000)).toBe(false); // the dead replica's lease is gone
    expect(await a.schedules.finishRun(s.id, 1000, other, 'x', T0 + 61_000)).toBe(false);
    expect(await a.schedules.finishRun(s.id, 1000, holder, 'succeeded', T0 + 61_000)).toBe(true);
    expect(await a.schedules.get(s.id)).toMatchObject({ lastAt: 1000, lastResult: 'succeeded' });
    expect(await a.schedules.stale(T0 + 10 * 60_000, 10)).toEqual([]);
  });

  it('a live run keeps its lease while its holder renews it; nobody else can renew or take it', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    const s = await a.schedules.add(nightly);
    expect(await a.schedules.claimRun(s.id, 1000, 'ra', T0, 60_000)).toBe(true);
    expect(await b.schedules.renew(s.id, 1000, 'rb', T0 + 50_000, 60_000)).toBe(false);
    expect(await a.schedules.renew(s.id, 1000, 'ra', T0 + 50_000, 60_000)).toBe(true);
    expect(await b.schedules.stale(T0 + 60_000, 10)).toEqual([]);
    expect(await b.schedules.takeOver(s.id, 1000, 'rb', T0 + 60_000, 60_000)).toBe(false);
    expect((await b.schedules.stale(T0 + 110_000, 10)).map((r) => r.owner)).toEqual(['ra']);
    expect(await a.schedules.finishRun(s.id, 1000, 'ra', 'succeeded', T0 + 70_000)).toBe(true);
    expect(await a.schedules.renew(s.id, 1000, 'ra', T0 + 80_000, 60_000)).toBe(false); // a finished run stays finished
    expect(await a.schedules.runs(s.id)).toMatchObject([{ status: 'done', owner: 'ra', leaseUntil: T0 + 110_000 }]);
  });

  it('a one-off advanced to nothing is done; cancel moves only an open schedule', async () => {
    const store = t.open(t.file());
    const s = await store.schedules.add({ ...nightly, when: { kind: 'once', at: 5000, tz: 'UTC', text: 'in 2h' }, nextAt: 5000 });
    expect(await store.schedules.advance(s.id, 5000, null, T0)).toBe(true);
    expect(await store.schedules.get(s.id)).toMatchObject({ status: 'done', nextAt: null });
    expect(await store.schedules.move(s.id, ['pending', 'active'], 'cancelled', T0)).toBeUndefined();
    const c = await store.schedules.add(nightly);
    expect(await store.schedules.move(c.id, ['pending', 'active'], 'cancelled', T0)).toMatchObject({ status: 'cancelled' });
    expect(await store.schedules.list('C1')).toEqual([]);
    expect(await store.schedules.claimRun(c.id, 7, 'r', T0, 1, 'skipped')).toBe(true);
    expect(await store.schedules.runs(c.id)).toMatchObject([{ status: 'skipped', result: 'skipped', finishedAt: T0 }]);
  });

  it('a run taken over too late ends skipped, its result noted on the schedule', async () => {
    const store = t.open(t.file());
    const s = await store.schedules.add(nightly);
    expect(await store.schedules.claimRun(s.id, 1000, 'dead', T0, 0)).toBe(true);
    expect(await store.schedules.takeOver(s.id, 1000, 'rb', T0 + 1, 60_000)).toBe(true);
    expect(await store.schedules.finishRun(s.id, 1000, 'rb', 'skipped: taken over too late', T0 + 2, 'skipped')).toBe(true);
    expect(await store.schedules.runs(s.id)).toMatchObject([{ status: 'skipped', owner: 'rb', result: 'skipped: taken over too late', finishedAt: T0 + 2 }]);
    expect(await store.schedules.get(s.id)).toMatchObject({ lastAt: 1000, lastResult: 'skipped: taken over too late' });
    expect(await store.schedules.stale(T0 + 120_000, 10)).toEqual([]);
  });
});
