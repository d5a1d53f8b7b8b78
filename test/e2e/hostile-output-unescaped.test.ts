/**
 * The hostile-output test can fail: the same tours as hostile-output.test.ts, with escaping
 * switched off in the safe mrkdwn layer (`val` and `escapeEntities` made identity functions,
 * as a careless refactor would), must produce live mentions, foreign links, outside text as
 * live formatting and bidi controls in what the bot sends to Slack.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HOSTILE_FRAGMENTS, HOSTILE_MARKER } from '../rig/hostile-strings.js';
import { cloudTour } from './hostile-cloud-tour.js';
import { findingsSince, outputMark, startHostileRig } from './hostile-rig.js';
import { seedHostile } from './hostile-seed.js';
import { typedTour } from './hostile-typed-tour.js';
import { surfacesTour } from './hostile-surfaces-tour.js';
import { stepTour } from './hostile-steps.js';
import type { BotRig } from './bot-rig.js';
import type { Finding } from '../rig/mrkdwn-abuse-checker.js';

vi.mock('../../src/views/mrkdwn.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/views/mrkdwn.js')>();
  return {
    ...real,
    val: (value: string | number | null | undefined) => (value == null ? '—' : String(value)),
    escapeEntities: (text: string) => text,
  };
});

// One value per fragment the issue names, each behind the marker.
const VALUES = HOSTILE_FRAGMENTS.map((f) => `${HOSTILE_MARKER} ${f} x`);
const rulesOf = (found: Finding[]) => [...new Set(found.map((f) => f.rule))].sort();

let rig: BotRig;
beforeAll(async () => {
  rig = await startHostileRig();
});
afterAll(() => rig.close());

describe('with escaping switched off', () => {
  it('hostile cloud data reaches Slack live, and the checker says so', async () => {
    seedHostile(rig.sandbox.state, VALUES);
    const mark = outputMark(rig);
    await cloudTour(rig, (i) => VALUES[i % VALUES.length]!);
    expect(rulesOf(findingsSince(rig, mark))).toEqual(expect.arrayContaining(['bidi', 'channel', 'link', 'mention', 'outside-code', 'special-mention']));
  }, 60_000);

  it('hostile typed arguments are echoed live, and the checker says so', async () => {
    const mark = outputMark(rig);
    await typedTour(rig, `${HOSTILE_MARKER}<!channel> <@U1> <#C1> <http://x|y>\u202e`);
    expect(rulesOf(findingsSince(rig, mark))).toEqual(expect.arrayContaining(['bidi', 'channel', 'link', 'mention', 'outside-code', 'special-mention']));
  }, 60_000);

  it('hostile names reach the Act on this modal and the unfurl cards live, and the checker says so (issue 23)', async () => {
    const fresh = await startHostileRig();
    try {
      seedHostile(fresh.sandbox.state, VALUES);
      const mark = outputMark(fresh);
      await surfacesTour(fresh, VALUES);
      const found = findingsSince(fresh, mark);
      const where = (prefix: string) => rulesOf(found.filter((f) => f.where.startsWith(prefix)));
      expect(where('views.open')).toEqual(expect.arrayContaining(['outside-code', 'special-mention']));
      expect(where('chat.unfurl')).toEqual(expect.arrayContaining(['outside-code', 'special-mention']));
    } finally {
      await fresh.close();
    }
  }, 60_000);

  it('hostile workflow step inputs reach step errors live, and the checker says so', async () => {
    const mark = outputMark(rig);
    const value = `${HOSTILE_MARKER}<!channel> <@U1> <#C1> <http://x|y>\u202e`;
    await stepTour(rig, () => value);
    const inErrors = findingsSince(rig, mark).filter((f) => f.where.startsWith('functions.completeError'));
    expect(rulesOf(inErrors)).toEqual(expect.arrayContaining(['channel', 'mention', 'special-mention']));
  }, 60_000);
});
