/**
 * A run taken over after its occurrence plus SCHEDULE_GRACE_MS (issue 25): the replica running
 * it died and no other took it over in time (every replica was down). When the first attempt
 * had sent nothing, the change is not started that late — the grace forbids it for a first
 * attempt too — and the channel is told; a change already sent stands, and nothing is sent again.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { visibleText } from './bot-rig.js';
import { useScheduleRig } from './schedule-rig.js';

const GRACE = 60 * 60_000;
const h = useScheduleRig(GRACE);

/** A replica claimed the run and died before its run made a record; the others were down past the grace. */
async function diedBeforeMakingARecord(s: { id: string; nextAt: number | null }): Promise<void> {
  expect(await h.rig.store.schedules.claimRun(s.id, s.nextAt!, 'dead-replica', s.nextAt!, 0)).toBe(true);
  await h.rig.store.schedules.advance(s.id, s.nextAt!, null, s.nextAt!);
  h.jumpTo(s.nextAt! + GRACE + 60_000);
}

describe('a run taken over after its grace', () => {
  it('its first attempt made no record: nothing is started, the run is skipped, and the channel is told nothing was sent', async () => {
    const { rig, tick, scheduled, idIn, posted, channelSince, mutationsSince } = h;
    const s = await scheduled(idIn(visibleText((await rig.command('schedule "backup create 101 --name lateA" in 2h')).final)));
    await diedBeforeMakingARecord(s);
    const from = rig.sandbox.requests.length;
    const seen = posted();
    await tick();
    expect(mutationsSince(from)).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`Skipped the scheduled run of \`/cloud backup create 101 --name lateA\` (\`${s.id}\``);
    expect(said[0]).toContain('more than 60 minutes late');
    expect(said[0]).toContain('Nothing was sent.');
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'skipped', result: 'skipped: taken over too late; nothing was sent' }]);
    expect((await scheduled(s.id)).lastResult).toBe('skipped: taken over too late; nothing was sent');
  });

  it('a scheduled read: its answer is not made up late; the channel is told it was skipped', async () => {
    const { rig, tick, scheduled, idIn, posted, channelSince } = h;
    const s = await scheduled(idIn(visibleText((await rig.command('schedule "server status 101" in 6h')).final)));
    await diedBeforeMakingARecord(s);
    const from = rig.sandbox.requests.length;
    const seen = posted();
    await tick();
    // Not even asked of the cloud: an answer hours late would read as current.
    expect(rig.sandbox.requests.slice(from).filter((q) => q.rawPath.includes('/servers/101'))).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`Skipped the scheduled run of \`/cloud server status 101\` (\`${s.id}\``);
    expect(said[0]).not.toContain('Nothing was sent');
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'skipped', result: 'skipped: taken over too late' }]);
  });

  it('a --keep backup whose first attempt sent nothing: no backup and no retention delete, late', async () => {
    const { rig, tick, scheduleConfirmed, posted, channelSince, mutationsSince } = h;
    const s = await scheduleConfirmed('schedule "backup create 101 --name lateK" in 7h --keep 1');
    await diedBeforeMakingARecord(s);
    const from = rig.sandbox.requests.length;
    const seen = posted();
    await tick();
    expect(mutationsSince(from)).toEqual([]);
    expect(channelSince(seen).filter((t) => t.includes('Skipped the scheduled run') && t.includes('Nothing was sent.'))).toHaveLength(1);
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'skipped', result: 'skipped: taken over too late; nothing was sent' }]);
  });

  it('its first attempt was only slow, not stopped: once the channel was told nothing was sent, it sends nothing', async () => {
    const { rig, scheduled, idIn, jumpTo, posted, channelSince, mutationsSince, replicaDied } = h;
    const s = await scheduled(idIn(visibleText((await rig.command('schedule "backup create 101 --name lateS" in 150m')).final)));
    const from = rig.sandbox.requests.length;
    // The first attempt's look at the server takes long (its replica stalled): it has made no record yet.
    rig.sandbox.addFault({ method: 'GET', path: '/servers/101/status', latencyMs: 1500 });
    jumpTo(s.nextAt! + 1);
    await rig.bot.scheduler.tick();
    await waitFor(() => rig.sandbox.requests.slice(from).find((q) => q.method === 'GET' && q.rawPath.endsWith('/servers/101/status')), { timeoutMs: 5000 });
    // Its lease lapsed meanwhile and the run was taken over past the grace: skipped, and said so.
    replicaDied(s.id);
    jumpTo(s.nextAt! + GRACE + 60_000);
    const seen = posted();
    await rig.bot.scheduler.tick();
    await waitFor(() => channelSince(seen).find((t) => t.includes('Skipped the scheduled run')), { timeoutMs: 5000 });
    // The slow attempt goes on when its look comes back: it finds the occurrence closed and sends nothing.
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual([]);
    expect(channelSince(seen).some((t) => t.includes('`lateS`') && !t.includes('Skipped'))).toBe(false);
    const closed = (await rig.store.operations.listRecent({ limit: 5 })).find((o) => o.dedupeKey?.endsWith(`sched:${s.id}:${s.nextAt}`));
    expect(closed).toMatchObject({ status: 'cancelled', errorCode: 'RUN_TAKEN_OVER', confirmedAt: null });
  });

  it('its first attempt stopped before its change was confirmed: that record is closed, nothing is sent, and the channel is told', async () => {
    const { rig, text, scheduled, idIn, jumpTo, posted, channelSince, mutationsSince, firstAttemptStuck, replicaDied } = h;
    const s = await scheduled(idIn(visibleText((await rig.command('schedule "backup create 101 --name lateB" in 3h')).final)));
    const from = rig.sandbox.requests.length;
    // The first attempt's status message never gets its answer: the run stops there, its record pending.
    const stuck = await firstAttemptStuck(s);
    replicaDied(s.id);
    jumpTo(s.nextAt! + GRACE + 60_000);
    const seen = posted();
    await rig.bot.scheduler.tick();
    await waitFor(async () => ((await rig.store.schedules.runs(s.id))[0]?.status !== 'running' ? true : undefined), { timeoutMs: 5000 });
    // The first attempt's post lands late (its replica is dead in the story): its record is closed, it sends nothing.
    rig.slack.releaseHung();
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual([]);
    expect(await rig.store.operations.get(stuck.id)).toMatchObject({ status: 'cancelled', errorCode: 'RUN_TAKEN_OVER', confirmedAt: null });
    const note = channelSince(seen).find((t) => t.includes('Skipped the scheduled run'));
    expect(note).toContain(`\`/cloud backup create 101 --name lateB\` (\`${s.id}\``);
    expect(note).toContain('Nothing was sent.');
    expect(channelSince(seen).some((t) => /Back up server `101` as `lateB`.*— (done|running|confirmed)/.test(t))).toBe(false);
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'skipped', result: 'skipped: taken over too late; nothing was sent' }]);
    // Its status message, once it landed, says the bot closed it and nothing was sent, not "starting".
    const card = rig.slack.messages.inChannel(stuck.channelId).find((m) => text(m).includes('Back up server `101` as `lateB`'))!;
    expect(text(card)).toContain('closed — the bot running this scheduled change stopped before sending it; nothing was sent');
  });

  it('its first attempt had sent its change: that stands, nothing is sent again and nothing is said to be skipped', async () => {
    const { rig, tick, scheduled, idIn, jumpTo, posted, channelSince, mutationsSince, replicaDied } = h;
    const s = await scheduled(idIn(visibleText((await rig.command('schedule "backup create 101 --name lateC" in 4h')).final)));
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await tick();
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups']);
    // Its replica died after the cloud took the request, before it noted the run done.
    replicaDied(s.id, { reopen: true });
    jumpTo(s.nextAt! + GRACE + 60_000);
    const seen = posted();
    await tick();
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups']);
    expect(channelSince(seen).some((t) => t.includes('Skipped'))).toBe(false);
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'done', result: 'already started by a run that stopped' }]);
  });
});
