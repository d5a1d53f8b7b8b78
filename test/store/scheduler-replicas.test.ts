/**
 * The scheduler over a shared database (issue 25): two replicas ticking at the same moment run
 * an occurrence once (PostgreSQL, and SQLite's two connections); a replica that dies mid-run
 * leaves the run to one taker once its lease ends (none once its schedule was cancelled); runs keep their wall-clock time across DST.
 * Driven by an injected clock; the runner is
 * counted, not a real command (the end-to-end runs are in test/e2e/schedules.test.ts).
 */
import { expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log.js';
import { createScheduler, type ScheduledRunner } from '../../src/schedule/scheduler.js';
import type { Store } from '../../src/store/index.js';
import { T0, describeStores } from './helpers.js';
import { nextAfter, parseWhen } from '../../src/operations/schedule-when.js';

const quiet = createLogger({ level: 'error', sink: () => {} });

describeStores((t) => {

  const replica = (store: Store, owner: string, clock: ReturnType<typeof createManualClock>, run: ScheduledRunner, posts: string[] = []) =>
    createScheduler({
      store: store.schedules,
      operations: store.operations,
      slack: { postMessage: async (m) => (posts.push(String(m.text)), { channel: m.channel, ts: '1.0' }) },
      clock,
      logger: quiet,
      owner,
      graceMs: 60 * 60_000,
      leaseMs: 10 * 60_000,
      run,
    });
  const add = (store: Store, nextAt: number) =>
    store.schedules.add({
      channelId: 'C1',
      createdBy: 'U1',
      command: 'backup create 101',
      opId: 'backup.create',
      when: { kind: 'cron', expr: '0 2 * * *', tz: 'Europe/Berlin', text: 'daily 02:00' },
      status: 'active',
      nextAt,
      now: T0,
    });

  it('two replicas racing for one occurrence: one run', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    const clock = createManualClock(T0);
    const calls: string[] = [];
    const run = (who: string): ScheduledRunner => async (s, occ, attempt) => (calls.push(`${who} ${s.id} ${occ} ${attempt}`), 'succeeded');
    const s = await add(a, T0 + 60_000);
    const ra = replica(a, 'replica-a', clock, run('a'));
    const rb = replica(b, 'replica-b', clock, run('b'));
    await clock.advance(61_000);
    for (let i = 0; i < 5; i++) await Promise.all([ra.tick(), rb.tick(), ra.tick(), rb.tick()]);
    await Promise.all([ra.settled(), rb.settled()]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(new RegExp(` ${s.id} ${T0 + 60_000} first$`));
    expect(await a.schedules.runs(s.id)).toMatchObject([{ occurrence: T0 + 60_000, status: 'done', result: 'succeeded' }]);
    expect((await a.schedules.get(s.id))!.nextAt).toBeGreaterThan(T0 + 61_000);
  });

  it('a replica that dies mid-run: after its lease one other replica takes the run over, once', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    const c = t.open(path);
    const clock = createManualClock(T0);
    const calls: string[] = [];
    const s = await add(a, T0 + 60_000);
    // Replica a claims the occurrence and never comes back from its run (the process died).
    const dead = replica(a, 'replica-a', clock, () => new Promise<string>(() => {}));
    await clock.advance(61_000);
    await dead.tick();
    const taker = (who: string): ScheduledRunner => async (_s, occ, attempt) => (calls.push(`${who} ${occ} ${attempt}`), 'already started by a run that stopped');
    const rb = replica(b, 'replica-b', clock, taker('b'));
    const rc = replica(c, 'replica-c', clock, taker('c'));
    await Promise.all([rb.tick(), rc.tick()]);
    expect(calls).toEqual([]); // its lease still holds
    await clock.advance(10 * 60_000);
    await Promise.all([rb.tick(), rc.tick(), rb.tick(), rc.tick()]);
    await Promise.all([rb.settled(), rc.settled()]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatch(new RegExp(` ${T0 + 60_000} takeover$`));
    expect((await a.schedules.runs(s.id))[0]).toMatchObject({ status: 'done', result: 'already started by a run that stopped' });
  });

  it('a replica that dies mid-run, its schedule cancelled since: the run is closed, not taken over', async () => {
    const store = t.open(t.file());
    const clock = createManualClock(T0);
    const s = await add(store, T0 + 60_000);
    const dead = replica(store, 'replica-a', clock, () => new Promise<string>(() => {}));
    await clock.advance(61_000);
    await dead.tick();
    await store.schedules.move(s.id, ['active'], 'cancelled', clock.now());
    const calls: string[] = [];
    const rb = replica(store, 'replica-b', clock, async (_s, occ, attempt) => (calls.push(`${occ} ${attempt}`), 'taken'));
    await clock.advance(10 * 60_000);
    await rb.tick();
    await rb.settled();
    expect(calls).toEqual([]);
    expect(await store.schedules.runs(s.id)).toMatchObject([{ status: 'done', owner: 'replica-b', result: expect.stringMatching(/^not taken over: the schedule was cancelled/) }]);
  });

  it('a run longer than its lease, its replica alive and looking: nobody takes it over, itself included', async () => {
    const path = t.file();
    const a = t.open(path);
    const b = t.open(path);
    const clock = createManualClock(T0);
    const calls: string[] = [];
    let finish!: (r: string) => void;
    const slow: ScheduledRunner = (_s, occ, attempt) => (calls.push(`a ${occ} ${attempt}`), new Promise<string>((r) => (finish = r)));
    const s = await add(a, T0 + 60_000);
    const ra = replica(a, 'replica-a', clock, slow);
    const rb = replica(b, 'replica-b', clock, async (_s, occ, attempt) => (calls.push(`b ${occ} ${attempt}`), 'taken'));
    await clock.advance(61_000);
    await ra.tick();
    // Three leases long, both replicas looking every 5 minutes.
    for (let i = 0; i < 6; i++) {
      await clock.advance(5 * 60_000);
      await ra.tick();
      await rb.tick();
    }
    expect(calls).toEqual([`a ${T0 + 60_000} first`]);
    finish('succeeded');
    await Promise.all([ra.settled(), rb.settled()]);
    expect(await a.schedules.runs(s.id)).toMatchObject([{ occurrence: T0 + 60_000, status: 'done', owner: 'replica-a', result: 'succeeded' }]);
  });

  it.each([
    ['daily 02:30', 'Europe/Berlin', '2026-03-28T12:00:00Z', ['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']],
    ['30 1 * * *', 'America/New_York', '2026-10-31T12:00:00Z', ['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']],
  ])('the scheduler runs %s (%s) across a DST change at the wall-clock time, once a day', async (text, tz, start, expected) => {
    const store = t.open(t.file());
    const clock = createManualClock(Date.parse(start));
    const parsed = parseWhen(text, tz, clock.now());
    if (!parsed.ok) throw new Error(parsed.message);
    const s = await store.schedules.add({ channelId: 'C1', createdBy: 'U1', command: 'server status 101', opId: 'server.status', when: parsed.when, status: 'active', nextAt: nextAfter(parsed.when, clock.now()), now: clock.now() });
    const ran: string[] = [];
    const r = replica(store, 'replica-a', clock, async (_s, occ) => (ran.push(new Date(occ).toISOString()), 'answered'));
    // Every 10 minutes for two days, as the loop would look.
    for (let i = 0; i < 2 * 24 * 6; i++) {
      await clock.advance(10 * 60_000);
      await r.tick();
    }
    await r.settled();
    expect(ran).toEqual(expected);
    expect((await store.schedules.runs(s.id)).map((x) => x.status)).toEqual(['done', 'done']);
  });
});
