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
});
