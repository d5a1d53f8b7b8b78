/**
 * Chat output cannot be abused: hostile strings in every cloud-controlled field and every
 * typed argument never reach Slack as a live mention, a foreign link, live formatting, a
 * broken-out line or a bidi control (rules in test/rig/mrkdwn-abuse-checker.ts). Its twin,
 * hostile-output-unescaped.test.ts, runs the same tour with escaping switched off and must
 * find violations, so this file cannot pass vacuously.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { HOSTILE_MARKER, hostileLong, hostileSet, hostileTyped } from '../rig/hostile-strings.js';
import { cloudTour } from './hostile-cloud-tour.js';
import { assertBriefly, findingsSince, outputMark, reach, startHostileRig, summarize } from './hostile-rig.js';
import { ALL_OPS, opsOf, stuck, TYPED_OPS } from './hostile-run.js';
import { seedHostile } from './hostile-seed.js';
import { typedTour } from './hostile-typed-tour.js';
import { surfacesTour } from './hostile-surfaces-tour.js';
import { stepTour } from './hostile-steps.js';
import type { BotRig } from './bot-rig.js';

const RUNS = 3;
/** Hostile text was shown at least once in each of these kinds of output. */
const shown = (...kinds: string[]) => Object.fromEntries(kinds.map((k) => [k, expect.any(Number)]));
let rig: BotRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('hostile chat output', () => {
  it('hostile cloud data, cloud errors and watches: nothing live reaches Slack', async () => {
    await assertBriefly(
      // Eleven values of any length and one of 5,000 characters, spread over the fields.
      fc.asyncProperty(fc.tuple(hostileSet(11), hostileLong).map(([some, long]) => [...some, long]), async (values) => {
        rig = await startHostileRig();
        seedHostile(rig.sandbox.state, values);
        const mark = outputMark(rig);
        const outcomes = await cloudTour(rig, (i) => values[i % values.length]!);
        const done = outcomes.filter((o) => /done/.test(o.how)).length;
        expect({ stuck: stuck(outcomes), findings: summarize(findingsSince(rig, mark)), blockKit: [...rig.slack.violations, ...rig.responses.violations] }).toEqual({ stuck: [], findings: [], blockKit: [] });
        // The tour really went through: every operation ran, changes were confirmed and ended.
        expect(opsOf(outcomes)).toEqual(ALL_OPS);
        expect(done).toBeGreaterThan(8);
        expect(reach(rig, mark)).toMatchObject(shown('response_url', 'modal', 'channel post', 'status edit', 'thread reply', 'final broadcast'));
        await rig.close();
        rig = undefined;
      }),
      // Regression (CI, seed -2054601846): a hostile fqdn that is a DNS name in capitals is
      // linked lowercased by the URL parser; that link is the worker's own and allowed.
      { numRuns: RUNS, endOnFailure: true, examples: [[[...Array.from({ length: 10 }, (_, i) => `${HOSTILE_MARKER}<!channel> *${i}*`), `${HOSTILE_MARKER}-b.0b`, HOSTILE_MARKER + 'x'.repeat(5000)]]] },
    );
  }, 60_000);

  it('hostile typed arguments and ids: refusals and accepted values echo nothing live', async () => {
    await assertBriefly(
      fc.asyncProperty(hostileTyped, hostileLong.map((s) => s.replace(/["“”]/g, '')), async (t, long) => {
        rig = await startHostileRig();
        const mark = outputMark(rig);
        const outcomes = await typedTour(rig, t, long);
        expect({ stuck: stuck(outcomes), findings: summarize(findingsSince(rig, mark)), blockKit: [...rig.slack.violations, ...rig.responses.violations] }).toEqual({ stuck: [], findings: [], blockKit: [] });
        expect(opsOf(outcomes)).toEqual(expect.arrayContaining(TYPED_OPS));
        expect(outcomes.filter((o) => o.how === 'answered').length).toBeGreaterThan(20);
        expect(reach(rig, mark)).toMatchObject(shown('response_url', 'channel post', 'status edit', 'audit channel'));
        await rig.close();
        rig = undefined;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 60_000);

  it('hostile names and message text through Act on this and link unfurls: nothing live reaches Slack (issue 23)', async () => {
    await assertBriefly(
      fc.asyncProperty(hostileSet(11), async (values) => {
        rig = await startHostileRig();
        seedHostile(rig.sandbox.state, values);
        const mark = outputMark(rig);
        const outcome = await surfacesTour(rig, values);
        expect({ findings: summarize(findingsSince(rig, mark)), blockKit: [...rig.slack.violations, ...rig.responses.violations] }).toEqual({ findings: [], blockKit: [] });
        // The tour really went through: resources listed, reads pressed, three cards attached.
        expect(outcome.listed).toBeGreaterThanOrEqual(3);
        expect(outcome.pressed).toBeGreaterThan(2);
        expect(outcome.cards).toBe(3);
        expect(reach(rig, mark)).toMatchObject(shown('modal', 'unfurl', 'response_url'));
        await rig.close();
        rig = undefined;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 60_000);

  it('hostile workflow step inputs: step errors, outputs and cards echo nothing live', async () => {
    await assertBriefly(
      fc.asyncProperty(hostileSet(5), async (values) => {
        rig = await startHostileRig();
        const mark = outputMark(rig);
        await stepTour(rig, (i) => values[i % values.length]!.replace(/["“”]/g, ''));
        expect({ findings: summarize(findingsSince(rig, mark)), blockKit: [...rig.slack.violations, ...rig.responses.violations] }).toEqual({ findings: [], blockKit: [] });
        // Hostile text did reach a step's error sentence (a refusal echoing the input).
        const errors = rig.slack.calls.slice(mark.calls).filter((c) => c.method === 'functions.completeError' && String(c.params.error).includes(HOSTILE_MARKER));
        expect(errors.length).toBeGreaterThan(0);
        await rig.close();
        rig = undefined;
      }),
      { numRuns: RUNS, endOnFailure: true },
    );
  }, 60_000);
});
