/**
 * A one-off schedule whose Confirm comes after its time (issue 25): within SCHEDULE_GRACE_MS it
 * runs once, late, at the Confirm; later than that it does not run. The card says which.
 */
import { describe, expect, it } from 'vitest';
import { appHomeOpenedEnvelope } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE } from '../rig/workspace.js';
import { visibleText } from './bot-rig.js';
import { useScheduleRig } from './schedule-rig.js';

const GRACE = 5 * 60_000; // under the card's 10 minutes, so a Confirm can come too late
const h = useScheduleRig(GRACE);

const unlocked = () => h.oldestFirst(101).filter((b) => !b.isLocked);
async function confirmedLate(uuid: string, lateBy: number) {
  const { rig, clock, text, scheduled, scheduledWithCard, confirm } = h;
  const { s, card } = await scheduledWithCard(`schedule "backup delete 101 ${uuid}" in 1m`);
  clock.jump(60_000 + lateBy);
  await confirm(s, card);
  const said = await waitFor(() => {
    const t = text(rig.slack.messages.get(card.channel, card.ts)!);
    return t.includes(`Schedule \`${s.id}\` `) ? t : undefined; // its summary: the record succeeded
  }, { timeoutMs: 5000 });
  return { s, said, scheduled };
}

describe('a one-off confirmed after its time', () => {
  it('within the grace: runs once, late, at the Confirm, as its card says', async () => {
    const { rig, tick, mutationsSince } = h;
    const victim = unlocked()[0]!;
    const from = rig.sandbox.requests.length;
    const { s, said, scheduled } = await confirmedLate(victim.uuid, 2 * 60_000);
    expect(said).toContain(`Schedule \`${s.id}\` confirmed after its time had passed: it runs now, once, late.`);
    expect(said).toContain(':white_check_mark:'); // armed: done
    await tick();
    expect(mutationsSince(from)).toEqual([`DELETE /v2/servers/101/backups/${victim.uuid}`]);
    expect(await scheduled(s.id)).toMatchObject({ status: 'done', lastResult: 'succeeded' });
  });

  it('past the grace: does not run, as its card says', async () => {
    const { rig, tick, mutationsSince } = h;
    const victim = unlocked()[0]!;
    const from = rig.sandbox.requests.length;
    const { s, said, scheduled } = await confirmedLate(victim.uuid, GRACE + 60_000);
    expect(said).toContain(`Schedule \`${s.id}\` was confirmed more than 5 minutes (\`SCHEDULE_GRACE_MS\`) after its time: it does not run. Schedule it again to run it.`);
    // Its heading is no success: nothing was armed.
    expect(said).toContain('— not armed: confirmed too late; it does not run');
    expect(said).toContain(':warning:');
    expect(said).not.toContain(':white_check_mark:');
    expect(said).not.toContain('— done');
    await tick();
    expect(mutationsSince(from)).toEqual([]);
    expect((await scheduled(s.id)).status).toBe('done');
    // Nowhere is it listed as armed with a next run: not in `/cloud schedules`, not on App Home.
    expect(visibleText((await rig.command('schedules')).final)).not.toContain(s.id);
    const before = rig.slack.callsTo('views.publish').length;
    await rig.send.event(appHomeOpenedEnvelope({ userId: ALICE.id }));
    await waitFor(() => rig.slack.callsTo('views.publish').slice(before).find((c) => c.response.ok === true), { timeoutMs: 10_000 });
    expect(visibleText({ blocks: rig.slack.views.home(ALICE.id)!.blocks as unknown[] })).not.toContain(s.id);
    // Its audit entry says it armed nothing.
    const entry = (await rig.store.audit.list({ limit: 50 })).find((e) => e.opId === 'schedule.confirm' && e.outcome === 'succeeded' && e.args.id === s.id);
    expect(entry?.detail).toBe('confirmed too late: not armed, it does not run');
  });
});
