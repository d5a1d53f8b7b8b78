/**
 * The scheduler over a shared database (issue 25): two replicas ticking at the same moment run
 * an occurrence once (PostgreSQL, and SQLite's two connections); a replica that dies mid-run
 * leaves the run to one taker once its lease ends. Driven by an injected clock; the runner is
 * counted, not a real command (the end-to-end runs are in test/e2e/schedules.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log.js';
import { createScheduler, type ScheduledRunner } from '../../src/schedule/scheduler.js';
import type { Store } from '../../src/store/index.js';
import { BACKENDS, T0, tempStores } from './helpers.js';

const quiet = createLogger({ level: 'error', sink: () => {} });

describe.each(BACKENDS)('%s', (backend) => {
  let t: ReturnType<typeof tempStores>;
  beforeEach(() => {
    t = tempStores(backend);
  });
  afterEach(async () => {
    await t.cleanup();
  });

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
});
