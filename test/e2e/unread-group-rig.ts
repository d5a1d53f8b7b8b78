/**
 * The shared parts of the tests of a scheduled run whose rights come from a user group Slack
 * cannot read at run time (schedule-unread.test.ts: its creator; schedule-approver-unread.test.ts:
 * its approver): usergroups.users.list answers HTTP 503, the bot's clock is a manual one that
 * parks the run's rechecks, and the helpers below say what the run sent and said meanwhile.
 */
import { expect } from 'vitest';
import { RIGHTS_RECHECK_MS } from '../../src/app/schedule-run.js';
import { waitFor } from '../rig/wait-for.js';
import { OPS_CHANNEL } from '../rig/workspace.js';
import type { BotRig } from './bot-rig.js';
import { visibleText } from './bot-rig.js';
import type { createParkingClock } from './parking-clock.js';

export const GROUPS = 'usergroups.users.list';
/** The schedules' grace in these tests: four rechecks. */
export const GRACE = 4 * RIGHTS_RECHECK_MS;

/** `parked()`: the run's rechecks waiting on the clock right now (no other loop sleeps this long). */
export function unreadGroupHelpers(rig: () => BotRig, { manual, parked }: Pick<ReturnType<typeof createParkingClock>, 'manual' | 'parked'>) {
  const text = (m: { blocks?: unknown[]; text: string }) => visibleText({ text: m.text, blocks: m.blocks });
  const mutationsSince = (from: number) => rig().mutations(from).map((q) => `${q.method} ${q.rawPath}`);
  const channelSince = (n: number) => rig().slack.messages.inChannel(OPS_CHANNEL.id).slice(n).map((m) => text(m));
  return {
    /** Slack down for the group's reads until the case clears it (every try of every call). */
    slackDown: () => rig().slack.httpErrorNext(GROUPS, 503, 100_000),
    mutationsSince,
    channelSince,
    /** The run asks Slack and waits to ask again, having sent and said nothing (it has not ended). */
    async waiting(s: { id: string }, from: number, seen: number): Promise<void> {
      const ended = async () => (await rig().store.schedules.runs(s.id)).some((r) => r.status !== 'running');
      await waitFor(async () => parked() === 1 || (await ended()) || undefined, { timeoutMs: 5000, message: 'the run to wait for its recheck' });
      expect(channelSince(seen)).toEqual([]);
      expect(mutationsSince(from)).toEqual([]);
      expect(parked()).toBe(1);
    },
    /** Moves the clock on to the run's next recheck, and waits until it waits again. */
    async recheck(): Promise<void> {
      const reads = rig().slack.callsTo(GROUPS).length;
      await manual.advance(RIGHTS_RECHECK_MS);
      await waitFor(() => (rig().slack.callsTo(GROUPS).length > reads && parked() === 1) || undefined, { timeoutMs: 5000, message: 'the run to ask again and wait' });
    },
  };
}
