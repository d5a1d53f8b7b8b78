/**
 * `--keep N` deletes only backups its own schedule made: never one a person took by hand (the
 * sandbox's seeded dailies of web-1) nor another schedule's, and it counts only its own toward N.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { useScheduleRig } from './schedule-rig.js';

const h = useScheduleRig();

describe('retention deletes only what its schedule made', () => {
  it('backups taken by hand and another schedule’s are never deleted; the schedule’s own oldest goes once it has more than N', async () => {
    const { rig, scheduled, scheduleConfirmed, runWithBackup, mutationsSince } = h;
    rig.sandbox.state.backups[101]!.splice(8); // well under web-1's plan limit of 20 for the runs to come
    const byHand = rig.sandbox.state.backups[101]!.map((b) => b.uuid);
    expect(byHand.length).toBeGreaterThan(3); // far more than --keep 2: all of them by hand
    const other = await scheduleConfirmed('schedule "backup create 101 --name weekly" daily 01:00 --keep 5');
    const s = await scheduleConfirmed('schedule "backup create 101 --name nightly" daily 02:00 --keep 2');
    const from = rig.sandbox.requests.length;
    await runWithBackup(other.nextAt!, 'weekly');
    await runWithBackup(s.nextAt!, 'nightly');
    await runWithBackup((await scheduled(s.id)).nextAt!, 'nightly');
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups', 'POST /v2/servers/101/backups', 'POST /v2/servers/101/backups']);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; nothing to delete');
    const nightly = rig.sandbox.state.backups[101]!.filter((b) => b.name === 'nightly').sort((a, b) => a.createdAt - b.createdAt);
    expect(nightly).toHaveLength(2);
    // Its third run: three of its own, one beyond --keep 2 — its own oldest, nothing else.
    await runWithBackup((await scheduled(s.id)).nextAt!, 'nightly');
    expect(mutationsSince(from).slice(3)).toEqual(['POST /v2/servers/101/backups', `DELETE /v2/servers/101/backups/${nightly[0]!.uuid}`]);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; deleted 1 old backup');
    const left = rig.sandbox.state.backups[101]!.map((b) => b.uuid);
    expect(byHand.every((u) => left.includes(u))).toBe(true);
    expect(rig.sandbox.state.backups[101]!.filter((b) => b.name === 'weekly')).toHaveLength(1);
    await rig.command(`schedule cancel ${s.id}`);
    await rig.command(`schedule cancel ${other.id}`);
  });
});

describe('a failed backup of its own', () => {
  it('is not counted among the newest N: a good backup is not deleted to make up for it', async () => {
    const { rig, clock, scheduled, scheduleConfirmed, runWithBackup, jumpTo, mutationsSince } = h;
    const s = await scheduleConfirmed('schedule "backup create 101 --name good" daily 03:00 --keep 2');
    const from = rig.sandbox.requests.length;
    await runWithBackup(s.nextAt!, 'good');
    // The second run's backup fails: completed, not successful (the spec's failed backup).
    const second = (await scheduled(s.id)).nextAt!;
    jumpTo(second + 1);
    await rig.bot.scheduler.tick();
    const failed = await waitFor(() => rig.sandbox.state.backups[101]!.find((b) => b.name === 'good' && b.createdAt >= second), { timeoutMs: 5000 });
    failed.completedAt = clock.now();
    failed.isSuccessful = false;
    clock.jump(31_000);
    await rig.bot.scheduler.settled();
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; backup failed; nothing deleted');
    // The third: two good ones of its own and a failed one — --keep 2 keeps both good ones.
    await runWithBackup((await scheduled(s.id)).nextAt!, 'good');
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups', 'POST /v2/servers/101/backups', 'POST /v2/servers/101/backups']);
    expect(rig.sandbox.state.backups[101]!.filter((b) => b.name === 'good' && b.isSuccessful)).toHaveLength(2);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; nothing to delete');
    await rig.command(`schedule cancel ${s.id}`);
  });
});
