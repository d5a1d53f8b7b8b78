import { describe, expect, it } from 'vitest';
import { createAfterAck } from '../../src/slack/after-ack.js';

const logger = () => {
  const errors: { msg: string; fields: Record<string, unknown> | undefined }[] = [];
  return { errors, error: (msg: string, fields?: Record<string, unknown>) => void errors.push({ msg, fields }) };
};

describe('createAfterAck', () => {
  it('runs the work on a later turn, not inside the listener', async () => {
    const after = createAfterAck(logger());
    let ran = false;
    after.run('x', async () => void (ran = true));
    expect(ran).toBe(false);
    expect(after.inFlight()).toBe(1);
    await after.idle();
    expect(ran).toBe(true);
    expect(after.inFlight()).toBe(0);
  });

  it('is idle only when work started by work has ended too', async () => {
    const after = createAfterAck(logger());
    const done: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    after.run('outer', async () => {
      after.run('inner', async () => {
        await gate;
        done.push('inner');
      });
      done.push('outer');
    });
    let idle = false;
    void after.idle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toEqual(['outer']);
    expect(idle).toBe(false);
    release();
    await after.idle();
    expect(done).toEqual(['outer', 'inner']);
  });

  it('logs a failure with its name and never rejects', async () => {
    const log = logger();
    const after = createAfterAck(log);
    after.run('that click', async () => {
      throw new Error('boom');
    });
    await after.idle();
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]!.fields).toMatchObject({ what: 'that click' });
  });

  it('bounds the work in flight: a place each for `running`, a queue of `waiting`, then sheds what may be shed', async () => {
    const log = { ...logger(), warns: [] as string[], warn(msg: string) { this.warns.push(msg); } };
    const after = createAfterAck(log, { running: 2, waiting: 1, heapUsed: () => 0 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const events: string[] = [];
    const job = (name: string) => async () => {
      events.push(`start ${name}`);
      await gate;
      events.push(`end ${name}`);
    };
    const busy = (name: string) => async () => void events.push(`busy ${name}`);
    for (const name of ['a', 'b', 'c', 'd']) after.run(name, job(name), busy(name));
    // A click (no busy answer) is never shed: it waits its turn.
    after.run('click', job('click'));
    await new Promise((r) => setTimeout(r, 5));
    expect(events.sort()).toEqual(['busy d', 'start a', 'start b']);
    expect(log.warns).toHaveLength(1);
    release();
    await after.idle();
    expect(events).toEqual(expect.arrayContaining(['start c', 'end c', 'start click', 'end click']));
    expect(events.filter((e) => e.startsWith('start'))).toHaveLength(4);
  });

  it('sheds sheddable work while the heap is past its share of the limit, and takes it again after', async () => {
    let used = 0.9;
    const after = createAfterAck(logger(), { heapUsed: () => used, heapShare: 0.7 });
    const events: string[] = [];
    after.run('cmd', async () => void events.push('ran'), async () => void events.push('busy'));
    after.run('click', async () => void events.push('click'));
    await after.idle();
    expect(events.sort()).toEqual(['busy', 'click']);
    used = 0.2;
    after.run('cmd', async () => void events.push('ran'), async () => void events.push('busy'));
    await after.idle();
    expect(events).toContain('ran');
  });

  it('hooks (telemetry): work is bound when handed over and reported done with its name, shed work too', async () => {
    const bound: string[] = [];
    const done: string[] = [];
    const after = createAfterAck(logger(), { waiting: 0, running: 1 }, {
      bind: (work) => {
        bound.push('bound');
        return work;
      },
      done: (what, seconds) => void done.push(`${what} ${seconds >= 0}`),
    });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    after.run('/cloud', () => gate);
    after.run('/cloud', async () => {}, async () => {}); // the queue is full: shed, answered busy
    release();
    await after.idle();
    expect(bound).toEqual(['bound', 'bound']); // the first work, and the busy answer of the second (its work never runs)
    expect(done).toEqual(['/cloud true', '/cloud true']);
  });
});

