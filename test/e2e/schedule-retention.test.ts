/**
 * `--keep` retention of scheduled backups against the sandbox, beyond test/e2e/schedules.test.ts:
 * a delete that failed once is tried again by a later run (never twice in one), what a run
 * says of its deletes is what the cloud answered, locked backups count among the newest N, and
 * a run left by a stopped replica is not taken over once its schedule was cancelled.
 */
import { describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { visibleText } from './bot-rig.js';
import { useScheduleRig } from './schedule-rig.js';

const h = useScheduleRig();

describe('a retention delete the cloud did not do', () => {
  it('at the backup limit: the next run deletes again and makes its backup (not blocked by the first attempt)', async () => {
    const { rig, scheduled, scheduleConfirmed, jumpTo, tick, oldestFirst, mutationsSince } = h;
    expect(rig.sandbox.state.backups[102]).toHaveLength(3); // db-1 is at its plan's limit of 3
    const oldest = oldestFirst(102)[0]!;
    const s = await scheduleConfirmed('schedule "backup create 102 --name room" daily 01:00 --keep 3');
    await h.adoptBackups(s, 102); // the backups there were made by this schedule's earlier runs
    rig.sandbox.addFault({ method: 'DELETE', path: `/servers/102/backups/${oldest.uuid}`, status: 500, times: 1 });
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await tick();
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/102/backups', `DELETE /v2/servers/102/backups/${oldest.uuid}`]);
    expect((await scheduled(s.id)).lastResult).toBe('failed: RESOURCE_LIMIT_EXCEEDED; could not make room');
    jumpTo((await scheduled(s.id)).nextAt! + 1);
    await tick();
    expect(mutationsSince(from).slice(2)).toEqual([
      'POST /v2/servers/102/backups',
      `DELETE /v2/servers/102/backups/${oldest.uuid}`,
      'POST /v2/servers/102/backups',
    ]);
    expect(rig.sandbox.state.backups[102]!.map((b) => b.name)).toContain('room');
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; nothing more deleted (room made before)');
    await rig.command(`schedule cancel ${s.id}`);
  });

  it('after the backup: the run says the delete failed, and the next run deletes it', async () => {
    const { rig, scheduled, scheduleConfirmed, runWithBackup, oldestFirst, mutationsSince } = h;
    // Two beyond the number kept once the backup is made: the locked oldest, and the victim.
    const keep = rig.sandbox.state.backups[101]!.length - 1;
    const [locked, victim] = oldestFirst(101);
    expect(locked!.isLocked).toBe(true);
    const s = await scheduleConfirmed(`schedule "backup create 101 --name again" daily 04:00 --keep ${keep}`);
    await h.adoptBackups(s, 101); // the backups there were made by this schedule's earlier runs
    rig.sandbox.addFault({ method: 'DELETE', path: `/servers/101/backups/${victim!.uuid}`, status: 500, times: 1 });
    const from = rig.sandbox.requests.length;
    await runWithBackup(s.nextAt!, 'again');
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups', `DELETE /v2/servers/101/backups/${victim!.uuid}`]);
    expect((await scheduled(s.id)).lastResult).toMatch(new RegExp(`^succeeded; could not delete old backup ${victim!.uuid} \\(failed: `));
    await runWithBackup((await scheduled(s.id)).nextAt!, 'again');
    expect(mutationsSince(from).slice(2)).toEqual(['POST /v2/servers/101/backups', `DELETE /v2/servers/101/backups/${victim!.uuid}`]);
    expect(rig.sandbox.state.backups[101]!.some((b) => b.uuid === victim!.uuid)).toBe(false);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; deleted 1 old backup');
    await rig.command(`schedule cancel ${s.id}`);
  });
});

describe('a new backup that failed', () => {
  it('deletes nothing, and the run says the backup failed at once, not after waiting out its deadline', async () => {
    const { rig, clock, scheduled, scheduleConfirmed, jumpTo, oldestFirst, mutationsSince } = h;
    const keep = Math.max(1, rig.sandbox.state.backups[101]!.length - 1);
    const s = await scheduleConfirmed(`schedule "backup create 101 --name broken" daily 05:00 --keep ${keep}`);
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await rig.bot.scheduler.tick();
    const made = await waitFor(() => rig.sandbox.state.backups[101]!.find((b) => b.name === 'broken' && b.createdAt >= s.nextAt!), { timeoutMs: 5000 });
    // The cloud lists it completed, not successful (the spec's failed backup).
    made.completedAt = clock.now();
    made.isSuccessful = false;
    clock.jump(31_000);
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups']);
    expect(oldestFirst(101).some((b) => b.uuid === made.uuid)).toBe(true);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; backup failed; nothing deleted');
    await rig.command(`schedule cancel ${s.id}`);
    // The later tests count server 101's backups as they were.
    const list = rig.sandbox.state.backups[101]!;
    list.splice(list.indexOf(made), 1);
  });
});

describe('locked backups among the oldest', () => {
  it('count among the newest N: a backup within them is never deleted to make up for a locked one', async () => {
    const { rig, scheduled, scheduleConfirmed, runWithBackup, oldestFirst, mutationsSince } = h;
    // Once the backup is made, the one beyond the number kept is the locked oldest.
    const keep = rig.sandbox.state.backups[101]!.length;
    expect(oldestFirst(101)[0]!.isLocked).toBe(true);
    const s = await scheduleConfirmed(`schedule "backup create 101 --name within" daily 05:00 --keep ${keep}`);
    await h.adoptBackups(s, 101); // the backups there were made by this schedule's earlier runs
    const from = rig.sandbox.requests.length;
    await runWithBackup(s.nextAt!, 'within');
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups']);
    expect((await scheduled(s.id)).lastResult).toBe('succeeded; nothing to delete (the older ones are locked)');
    await rig.command(`schedule cancel ${s.id}`);
    // Back under web-1's plan limit (20) for the runs after this one.
    const list = rig.sandbox.state.backups[101]!;
    list.splice(list.findIndex((b) => b.name === 'within'), 1);
  });

  it('at the backup limit: nothing is deleted when what --keep would delete is locked, and the channel is told', async () => {
    const { rig, scheduled, scheduleConfirmed, jumpTo, tick, oldestFirst, mutationsSince, channelSince, posted } = h;
    const [a, b, c] = oldestFirst(102);
    expect(rig.sandbox.state.backups[102]).toHaveLength(3);
    a!.isLocked = b!.isLocked = true;
    try {
      const s = await scheduleConfirmed('schedule "backup create 102 --name locked" daily 06:00 --keep 3');
      await h.adoptBackups(s, 102); // the backups there were made by this schedule's earlier runs
      const from = rig.sandbox.requests.length;
      const seen = posted();
      jumpTo(s.nextAt! + 1);
      await tick();
      expect(mutationsSince(from)).toEqual(['POST /v2/servers/102/backups']); // refused: the limit
      expect(rig.sandbox.state.backups[102]!.some((x) => x.uuid === c!.uuid)).toBe(true);
      expect(channelSince(seen).join('\n')).toContain(`Server \`102\` has 3 backups, its plan’s limit, and \`--keep 3\` would delete only locked ones: nothing was deleted and no backup was made.`);
      expect((await scheduled(s.id)).lastResult).toBe('failed: RESOURCE_LIMIT_EXCEEDED; limit reached; nothing deleted');
      await rig.command(`schedule cancel ${s.id}`);
    } finally {
      a!.isLocked = b!.isLocked = false;
    }
  });
});

describe('a schedule cancelled while its run waits for the backup, its replica stopped', () => {
  it('the run is not taken over: nothing is deleted, and the run says why', async () => {
    const { rig, clock, scheduleConfirmed, jumpTo, tick, oldestFirst, mutationsSince } = h;
    const keep = rig.sandbox.state.backups[101]!.length - 1; // the retention would owe one delete
    const victim = oldestFirst(101)[1]!;
    const s = await scheduleConfirmed(`schedule "backup create 101 --name cancelled" daily 07:00 --keep ${keep}`);
    await h.adoptBackups(s, 101); // the backups there were made by this schedule's earlier runs
    const from = rig.sandbox.requests.length;
    jumpTo(s.nextAt! + 1);
    await rig.bot.scheduler.tick();
    await waitFor(() => rig.sandbox.state.backups[101]!.find((b) => b.name === 'cancelled'), { timeoutMs: 5000 });
    await rig.restartBot(); // a deploy: the run is left waiting, its lease held
    expect(visibleText((await rig.command(`schedule cancel ${s.id}`)).final)).toContain(`Cancelled schedule \`${s.id}\``);
    clock.jump(46 * 60_000); // the lease runs out
    await tick();
    expect(mutationsSince(from)).toEqual(['POST /v2/servers/101/backups']);
    expect(rig.sandbox.state.backups[101]!.some((b) => b.uuid === victim.uuid)).toBe(true);
    expect((await rig.store.schedules.runs(s.id)).at(-1)).toMatchObject({ status: 'done', result: 'not taken over: the schedule was cancelled after its run stopped; what that run did stands' });
  });
});
