/**
 * A scheduled run whose approver's admin role comes from a user group Slack cannot read at run
 * time (usergroups.users.list answers HTTP 503). As for its creator (schedule-unread.test.ts),
 * that is no verdict: the run waits, sending and saying nothing, and runs once the group can be
 * read again within SCHEDULE_GRACE_MS — or sends nothing past it and says truthfully why, like
 * an undo window's RIGHTS_UNCHECKED. It never sends on a guess.
 * The bot's clock is a manual one: the run's waits end only when the test moves it on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_APPROVAL_WITHDRAWN, REFUSED_APPROVER_UNCHECKED, RIGHTS_RECHECK_MS } from '../../src/app/schedule-run.js';
import { waitFor } from '../rig/wait-for.js';
import { ADMINS_GROUP, ALICE, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { createParkingClock } from './parking-clock.js';
import { GRACE, GROUPS, unreadGroupHelpers } from './unread-group-rig.js';

/** An admin of the ops channel only as a member of the admins user group: the approver. */
const ERIN: FakeUser = { id: 'UERIN00005', name: 'erin', realName: 'Erin Group-Admin' };

const { manual, clock, parked } = createParkingClock(RIGHTS_RECHECK_MS);

let rig: BotRig;
const { text } = rigHelpers(() => rig);
const { slackDown, mutationsSince, channelSince, waiting, recheck } = unreadGroupHelpers(() => rig, { manual, parked });

beforeAll(async () => {
  rig = await startBotRig({
    clock,
    watch: { intervalMs: 3_600_000 },
    extraUsers: [ERIN],
    // Read at every check, so each recheck asks Slack, not a cache.
    groupCacheMs: 0,
    schedule: { graceMs: GRACE },
    // Alice (the creator) is an admin by CLOUD_ADMINS, whatever the group; Erin only through it.
    policy: { version: 1, channels: { [OPS_CHANNEL.id]: { admins: [ADMINS_GROUP.id], operators: [], viewers: [], approval: ['destroy'] } } },
  });
  rig.slack.setMembers(ADMINS_GROUP.id, [ERIN.id]);
});
afterEach(() => {
  rig.slack.clearFaults();
  rig.slack.setMembers(ADMINS_GROUP.id, [ERIN.id]);
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const uncheckedOf = async (scheduleId: string) =>
  (await rig.store.audit.list({ limit: 100 })).filter((e) => e.outcome === 'refused' && e.errorCode === 'RIGHTS_UNCHECKED' && (e.detail ?? '').includes(scheduleId));

let nextKey = 41;
/** Alice schedules deleting a key of its own in 1h, Erin approves it (the group read then), and its time comes. */
async function approvedDeleteIsDue() {
  const key = nextKey++;
  rig.sandbox.state.sshKeys.push({ ...rig.sandbox.state.sshKeys.find((k) => k.id === 11)!, id: key, name: `unread-${key}` });
  const before = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
  const r = await rig.command(`schedule "ssh-key delete ${key}" in 1h`);
  expect(visibleText(r.final)).toContain('waits for a second admin’s approval');
  const id = /sch_[0-9a-f]{10}/.exec(visibleText(r.final))![0];
  const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(before).find((m) => text(m).includes(id)), { timeoutMs: 5000 });
  await rig.click(card, 'op_confirm', ERIN.id);
  const confirmRecord = (await rig.store.schedules.get(id))!.confirmRecord!;
  await waitFor(async () => ((await rig.store.operations.get(confirmRecord))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
  expect(await rig.store.operations.get(confirmRecord)).toMatchObject({ requestedBy: ALICE.id, approvedBy: ERIN.id });
  await rig.bot.scheduler.tick();
  const s = (await rig.store.schedules.get(id))!;
  expect(s.status).toBe('active');
  manual.set(s.nextAt!);
  return { s, key, from: rig.sandbox.requests.length, seen: rig.slack.messages.inChannel(OPS_CHANNEL.id).length };
}
describe('a scheduled run whose approver’s admin role comes from a user group Slack cannot read', () => {
  it('sends nothing past the grace and says truthfully why, naming the approver; audited; the schedule stays active', async () => {
    const { s, key, from, seen } = await approvedDeleteIsDue();
    slackDown();
    await rig.bot.scheduler.tick();
    await waiting(s, from, seen);
    for (let t = RIGHTS_RECHECK_MS; t < GRACE; t += RIGHTS_RECHECK_MS) await recheck();
    expect(channelSince(seen)).toEqual([]);
    await manual.advance(RIGHTS_RECHECK_MS);
    await rig.bot.scheduler.settled();

    expect(mutationsSince(from)).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`Scheduled run of \`/cloud ssh-key delete ${key}\` (\`${s.id}\``);
    expect(said[0]).toContain('sent nothing');
    expect(said[0]).toContain(`Slack did not let the bot read user group \`${ADMINS_GROUP.id}\`, which may give <@${ERIN.id}>, who approved it, the right to approve it here`);
    // A one-off: it has no next run to check again.
    expect(said[0]).not.toContain('next run');
    // No verdict on Erin's role: not told as withdrawn, nor as the click's "try again in a moment".
    expect(said[0]).not.toContain('may no longer approve');
    expect(said[0]).not.toContain('try again in a moment');
    const audited = await uncheckedOf(s.id);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ opId: 'ssh-key.delete', userId: ALICE.id, approvedBy: ERIN.id });
    expect(audited[0]!.detail).toContain(`Slack did not let the bot read user group ${ADMINS_GROUP.id}`);
    expect(audited[0]!.detail).toContain(ERIN.id);
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ lastResult: REFUSED_APPROVER_UNCHECKED });
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'done', result: REFUSED_APPROVER_UNCHECKED }]);
  });

  it('waits, sending and saying nothing, and runs once when the group can be read again', async () => {
    const { s, key, from, seen } = await approvedDeleteIsDue();
    slackDown();
    await rig.bot.scheduler.tick();
    await waiting(s, from, seen);
    await recheck();
    expect(mutationsSince(from)).toEqual([]);
    expect(channelSince(seen)).toEqual([]);

    rig.slack.clearFaults(GROUPS);
    await manual.advance(RIGHTS_RECHECK_MS);
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual([`DELETE /v2/ssh-keys/${key}`]);
    const said = channelSince(seen).join('\n');
    expect(said).toContain(`approved by <@${ERIN.id}>`);
    expect(said).not.toContain('sent nothing');
    expect(await uncheckedOf(s.id)).toEqual([]);
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ lastResult: 'succeeded' });
  });

  it('a definite answer (the group read, and it no longer names the approver) is not waited out: withdrawn', async () => {
    const { s, from, seen } = await approvedDeleteIsDue();
    rig.slack.setMembers(ADMINS_GROUP.id, []);
    await rig.bot.scheduler.tick();
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`<@${ERIN.id}>, who approved it, may no longer approve it here`);
    expect(said[0]).not.toContain('Slack did not let the bot read');
    // A one-off, done now: nothing left to cancel, and no next run.
    expect(said[0]).toContain('It was a one-off: schedule it again for an admin to approve if it should still be done.');
    expect(said[0]).not.toContain('cancel');
    expect(said[0]).not.toContain('next run');
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'done', lastResult: REFUSED_APPROVAL_WITHDRAWN });
  });
});
