/** Start-up against a Slack that does not answer yet: stated retries, a clear give-up, no retry on a bad token. */
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { createLogger } from '../../src/log.js';
import { rejectedToken, SlackUnreachableError, waitForSlack } from '../../src/slack/wait-for-slack.js';

function setup(failures: unknown[]) {
  const clock = createManualClock();
  const lines: string[] = [];
  const logger = createLogger({ sink: (l) => lines.push(l) });
  let calls = 0;
  const authTest = async () => {
    calls++;
    const f = failures.shift();
    if (f) throw f;
    return { ok: true };
  };
  return { clock, lines, logger, authTest, calls: () => calls };
}

const fetchFailed = () => Object.assign(new Error('fetch failed'), { code: 'slack_webapi_request_error' });

/** Lets the waiting code run until it parks on the clock (or settles). */
const parked = async (clock: ReturnType<typeof createManualClock>) => {
  for (let i = 0; i < 50 && clock.pendingSleeps() === 0; i++) await new Promise((r) => setImmediate(r));
};

describe('waitForSlack', () => {
  it('says which call it waits for, backs off 1 s, 2 s, 4 s, and goes on once Slack answers', async () => {
    const s = setup([fetchFailed(), fetchFailed(), fetchFailed()]);
    let done = false;
    const waiting = waitForSlack({ authTest: s.authTest, clock: s.clock, logger: s.logger, timeoutMs: 60_000 }).then(() => (done = true));
    for (const ms of [1000, 2000, 4000]) {
      await parked(s.clock);
      expect(done).toBe(false);
      expect(s.lines.at(-1)).toContain(`waiting for Slack: auth.test failed (slack_webapi_request_error: fetch failed); trying again in ${ms / 1000} s`);
      await s.clock.advance(ms);
    }
    await waiting;
    expect(s.calls()).toBe(4);
    expect(s.lines.at(-1)).toContain('Slack answers again: auth.test succeeded');
  });

  it('gives up with one message naming the call, the time waited and the setting', async () => {
    const s = setup(Array.from({ length: 20 }, fetchFailed));
    const waiting = waitForSlack({ authTest: s.authTest, clock: s.clock, logger: s.logger, timeoutMs: 10_000 });
    const outcome = waiting.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    for (let i = 0; i < 5; i++) {
      await parked(s.clock);
      await s.clock.advance(8000);
    }
    const e = await outcome;
    expect(e).toBeInstanceOf(SlackUnreachableError);
    expect((e as Error).message).toMatch(/^Slack did not answer auth\.test within 10 s \(SLACK_START_TIMEOUT_MS=10000; 5 tries, last error: .*fetch failed\); giving up\.$/);
    expect(s.calls()).toBe(5); // at 0, 1, 3 and 7 s, and at the limit: the 8 s wait is cut to 3 s
  });

  it('the time it gave up after is the setting (issue 20: "for 1 s … SLACK_START_TIMEOUT_MS=3000")', async () => {
    const s = setup(Array.from({ length: 20 }, fetchFailed));
    const outcome = waitForSlack({ authTest: s.authTest, clock: s.clock, logger: s.logger, timeoutMs: 3000 }).then(
      () => 'resolved',
      (e: unknown) => e,
    );
    for (let i = 0; i < 4; i++) {
      await parked(s.clock);
      await s.clock.advance(1000);
    }
    const e = await outcome;
    expect((e as Error).message).toMatch(/^Slack did not answer auth\.test within 3 s \(SLACK_START_TIMEOUT_MS=3000; 3 tries, last error: .*fetch failed\); giving up\.$/);
    expect(s.calls()).toBe(3); // at 0, 1 and 3 s
  });

  it('does not wait on a token Slack refuses', async () => {
    const refused = Object.assign(new Error('An API error occurred: invalid_auth'), { data: { ok: false, error: 'invalid_auth' } });
    const s = setup([refused]);
    await expect(waitForSlack({ authTest: s.authTest, clock: s.clock, logger: s.logger, timeoutMs: 0 })).rejects.toThrow(
      'SLACK_BOT_TOKEN was rejected by Slack (auth.test: invalid_auth). Check SLACK_BOT_TOKEN.',
    );
    expect(s.calls()).toBe(1);
  });

  it('names the app token when Socket Mode refuses it, and leaves other errors alone', () => {
    const refused = Object.assign(new Error('An API error occurred: invalid_auth'), { data: { ok: false, error: 'invalid_auth' } });
    const named = rejectedToken(refused, 'SLACK_APP_TOKEN', 'apps.connections.open');
    expect(named).toBeInstanceOf(SlackUnreachableError);
    expect(named!.message).toBe('SLACK_APP_TOKEN was rejected by Slack (apps.connections.open: invalid_auth). Check SLACK_APP_TOKEN.');
    expect(rejectedToken(new Error('fetch failed'), 'SLACK_APP_TOKEN', 'apps.connections.open')).toBeUndefined();
  });

  it('stops waiting when the bot is stopped', async () => {
    const s = setup(Array.from({ length: 5 }, fetchFailed));
    const stop = new AbortController();
    const waiting = waitForSlack({ authTest: s.authTest, clock: s.clock, logger: s.logger, timeoutMs: 0, signal: stop.signal });
    await parked(s.clock);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
  });
});
