/**
 * A scheduled run whose creator's right comes from a user group Slack cannot read at run time
 * (usergroups.users.list answers HTTP 503). That is no verdict, so a Slack hiccup must not skip
 * the run: it waits, sends nothing and says nothing, and runs once when the group can be read
 * again — or, if it never can within SCHEDULE_GRACE_MS, sends nothing and says truthfully why.
 * The bot's clock is a manual one: the run's waits end only when the test moves it on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { REFUSED_UNCHECKED, RIGHTS_RECHECK_MS } from '../../src/app/schedule-run.js';
import { waitFor } from '../rig/wait-for.js';
import { ADMINS_GROUP, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { createParkingClock } from './parking-clock.js';
import { GRACE, GROUPS, unreadGroupHelpers } from './unread-group-rig.js';

/** An admin of the ops channel only as a member of the admins user group. */
const ERIN: FakeUser = { id: 'UERIN00005', name: 'erin', realName: 'Erin Group-Admin' };
/** An operator of the ops channel by name, and an admin (who may delete backups) only through the group. */
const FRANK: FakeUser = { id: 'UFRANK0006', name: 'frank', realName: 'Frank Operator' };
const MEMBERS = [ERIN.id, FRANK.id];

/** `parked()`: the run's rechecks waiting on the clock right now (no other loop sleeps this long). */
const { manual, clock, parked } = createParkingClock(RIGHTS_RECHECK_MS);

let rig: BotRig;
const { text } = rigHelpers(() => rig);
const { slackDown, mutationsSince, channelSince, waiting, recheck } = unreadGroupHelpers(() => rig, { manual, parked });

beforeAll(async () => {
  rig = await startBotRig({
    clock,
    watch: { intervalMs: 3_600_000 },
    extraUsers: [ERIN, FRANK],
    // Read at every check, so each recheck asks Slack, not a cache.
    groupCacheMs: 0,
    schedule: { graceMs: GRACE },
    policy: { version: 1, channels: { [OPS_CHANNEL.id]: { admins: [ADMINS_GROUP.id], operators: [FRANK.id], viewers: [] } } },
  });
  rig.slack.setMembers(ADMINS_GROUP.id, MEMBERS);
});
afterEach(() => {
  rig.slack.clearFaults();
  rig.slack.setMembers(ADMINS_GROUP.id, MEMBERS);
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const refusals = async () => (await rig.store.audit.list({ limit: 100 })).filter((e) => e.opId === 'server.rename' && e.outcome === 'refused');

let n = 0;
/** Erin schedules a rename in 1h (the group read then) and its time comes; returns it and where the channel was. */
async function erinsRenameIsDue() {
  const name = `unread-${++n}`;
  const r = await rig.command(`schedule "server rename 101 ${name}" in 1h`, { userId: ERIN.id });
  const s = (await rig.store.schedules.get(/sch_[0-9a-f]{10}/.exec(visibleText(r.final))![0]))!;
  expect(s).toMatchObject({ status: 'active', createdBy: ERIN.id });
  manual.set(s.nextAt!);
  return { s, name, from: rig.sandbox.requests.length, seen: rig.slack.messages.inChannel(OPS_CHANNEL.id).length, audited: (await refusals()).length };
}
describe('a scheduled run whose creator’s role comes from a user group Slack cannot read', () => {
  it('waits, sending and saying nothing, and runs once when the group can be read again', async () => {
    const { s, name, from, seen, audited } = await erinsRenameIsDue();
    slackDown();
    await rig.bot.scheduler.tick();
    await waiting(s, from, seen);
    await recheck();
    expect(mutationsSince(from)).toEqual([]);
    expect(channelSince(seen)).toEqual([]);
    expect((await rig.store.schedules.runs(s.id)).map((r) => r.status)).toEqual(['running']);

    rig.slack.clearFaults(GROUPS);
    await manual.advance(RIGHTS_RECHECK_MS);
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual(['PATCH /v2/servers/101/rename']);
    expect(rig.sandbox.requests.slice(from).find((q) => q.method === 'PATCH')!.body).toMatchObject({ name });
    const said = channelSince(seen).join('\n');
    expect(said).toContain(`Scheduled by <@${ERIN.id}> (\`${s.id}\``);
    expect(said).not.toContain('sent nothing');
    expect(said).not.toContain('Slack did not answer');
    // The wait was no refusal: none is audited.
    expect((await refusals()).length).toBe(audited);
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'done', lastResult: 'succeeded' });
    await rig.bot.scheduler.tick(); // the occurrence never runs twice
    expect(mutationsSince(from)).toEqual(['PATCH /v2/servers/101/rename']);
  });

  it('sends nothing and says truthfully why when the group stays unreadable past the grace', async () => {
    const { s, from, seen, audited } = await erinsRenameIsDue();
    slackDown();
    await rig.bot.scheduler.tick();
    await waiting(s, from, seen);
    // Every recheck within the grace asks Slack again and says nothing.
    for (let t = RIGHTS_RECHECK_MS; t < GRACE; t += RIGHTS_RECHECK_MS) await recheck();
    expect(channelSince(seen)).toEqual([]);
    await manual.advance(RIGHTS_RECHECK_MS);
    await rig.bot.scheduler.settled();

    expect(mutationsSince(from)).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`Scheduled run of \`/cloud server rename 101 unread-2\` (\`${s.id}\``);
    expect(said[0]).toContain('sent nothing');
    expect(said[0]).toContain(`Slack did not let the bot read user group \`${ADMINS_GROUP.id}\`, which may give <@${ERIN.id}> the right to run it here`);
    // A one-off: it has no next run to check again.
    expect(said[0]).not.toContain('next run');
    expect(said[0]).not.toContain('Your role here is');
    expect(said[0]).not.toContain('try again in a moment');
    expect((await refusals()).length).toBe(audited + 1);
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'done', lastResult: REFUSED_UNCHECKED });
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'done', result: REFUSED_UNCHECKED }]);
  });

  it('a definite refusal (the group read, and it no longer names the creator) is not waited out', async () => {
    const { s, from, seen } = await erinsRenameIsDue();
    rig.slack.setMembers(ADMINS_GROUP.id, []);
    await rig.bot.scheduler.tick();
    await rig.bot.scheduler.settled();
    expect(mutationsSince(from)).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('sent nothing');
    expect(said[0]).not.toContain('Slack did not answer');
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'done', lastResult: 'refused' });
  });

  it('a --keep run waits for the right to delete backups too, and past the grace makes no backup', async () => {
    const before = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const r = await rig.command('schedule "backup create 101 --name keep-unread" in 1h --keep 1', { userId: FRANK.id });
    expect(visibleText(r.final)).toContain('waits for its Confirm');
    const id = /sch_[0-9a-f]{10}/.exec(visibleText(r.final))![0];
    const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(before).find((m) => text(m).includes(id)), { timeoutMs: 5000 });
    await rig.click(card, 'op_confirm', FRANK.id);
    const confirmRecord = (await rig.store.schedules.get(id))!.confirmRecord!;
    await waitFor(async () => ((await rig.store.operations.get(confirmRecord))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
    await rig.bot.scheduler.tick();
    const s = (await rig.store.schedules.get(id))!;
    expect(s.status).toBe('active');
    manual.set(s.nextAt!);
    const from = rig.sandbox.requests.length;
    const seen = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;

    // Frank may make the backup by name; only the group could let him delete one.
    slackDown();
    await rig.bot.scheduler.tick();
    await waiting(s, from, seen);
    for (let t = RIGHTS_RECHECK_MS; t < GRACE; t += RIGHTS_RECHECK_MS) await recheck();
    await manual.advance(RIGHTS_RECHECK_MS);
    await rig.bot.scheduler.settled();

    expect(mutationsSince(from)).toEqual([]);
    const said = channelSince(seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('sent nothing');
    expect(said[0]).toContain(`Slack did not let the bot read user group \`${ADMINS_GROUP.id}\`, which may give <@${FRANK.id}> the right to delete backups with it here`);
    expect(said[0]).not.toContain('try again in a moment');
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ lastResult: `${REFUSED_UNCHECKED} to delete backups` });
  });

  // Last: it stops the scheduler.
  it('a replica stopping while the run waits ends it as a stopped run, left for another to take over', async () => {
    const { s, from, seen } = await erinsRenameIsDue();
    slackDown();
    await rig.bot.scheduler.tick();
    await waiting(s, from, seen);
    await rig.bot.scheduler.stop();
    expect(mutationsSince(from)).toEqual([]);
    expect(channelSince(seen)).toEqual([]);
    // Its lease ends now, so another replica takes it over at its next look.
    expect(await rig.store.schedules.runs(s.id)).toMatchObject([{ status: 'running', leaseUntil: manual.now() }]);
  });
});
