/**
 * A schedule approved by a second admin runs on that approval (issue 25): at each run the
 * approver is checked again, as the undo window checks a change's approver when its delay ends
 * (undo-window-revoked.test.ts). An approver who may no longer approve it here — their admin
 * role taken away by a policy reload — leaves a run that sends nothing, says so in the channel
 * naming them, is audited, and says what to do; the schedule stays active and the next run is
 * checked again (as for a creator who lost the right: schedule-rights.test.ts). An approver
 * who still holds, a schedule that never needed an approval, and one whose channel no longer
 * wants one run as before.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/access/policy-file.js';
import { REFUSED_APPROVAL_WITHDRAWN } from '../../src/app/schedule-run.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { createJumpClock, rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

/** An admin of the ops channel by its policy rule only (Alice is one by CLOUD_ADMINS). */
const DAVE: FakeUser = { id: 'UDAVE00004', name: 'dave', realName: 'Dave Channel-Admin' };

type Rule = PolicyFile['channels'][string];
const policyWith = (rule: Partial<Rule> = {}): PolicyFile => ({
  version: 1,
  channels: { [OPS_CHANNEL.id]: { admins: [DAVE.id], operators: [], viewers: [], approval: ['destroy'], ...rule } },
});
/** Dave no longer an admin here: an operator, who may not approve (nor destroy). */
const DAVE_DEMOTED: Partial<Rule> = { admins: [], operators: [DAVE.id] };

let rig: BotRig;
let current: PolicyFile = policyWith();
const clock = createJumpClock();
const { text } = rigHelpers(() => rig);

beforeAll(async () => {
  rig = await startBotRig({ clock, sandbox: { clock }, watch: { intervalMs: 3_600_000 }, extraUsers: [DAVE], policy: () => current, reloadPolicy: () => current });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});
// Each case starts under the first policy.
beforeEach(async () => reload(policyWith()));

async function reload(next: PolicyFile): Promise<void> {
  current = next;
  expect((await rig.bot.reloadPolicy('signal')).kind).not.toBe('refused');
}

const mutationsSince = (from: number) => rig.mutations(from).map((q) => `${q.method} ${q.rawPath}`);
const channelSince = (n: number) => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(n).map((m) => text(m));
const idIn = (answer: string) => /sch_[0-9a-f]{10}/.exec(answer)![0];

/**
 * A key of its own for each case, deleted by a destroy-tier schedule (a reinstall asks for its
 * root password in a form, so it cannot be scheduled).
 */
let nextKey = 31;
function freshKey(): number {
  const id = nextKey++;
  rig.sandbox.state.sshKeys.push({ ...rig.sandbox.state.sshKeys.find((k) => k.id === 11)!, id, name: `approved-${id}` });
  return id;
}

/** Alice schedules `command` daily at 03:00; whoever the card waits for (`by`) clicks it; the scheduler arms it. */
async function armed(command: string, by: string, waitsFor: 'approval' | 'confirm') {
  const seen = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
  const r = await rig.command(`schedule "${command}" daily 03:00`);
  const answer = visibleText(r.final);
  expect(answer).toContain(waitsFor === 'approval' ? 'waits for a second admin’s approval' : 'waits for its Confirm');
  // Told up front that the approval is checked again at each run, as the creator is.
  if (waitsFor === 'approval') expect(answer).toContain(`Each run is checked again as <@${ALICE.id}>, and as the admin who approves it, under the channel’s rules at that time.`);
  const id = idIn(answer);
  const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id).slice(seen).find((m) => text(m).includes(id)), { timeoutMs: 5000 });
  await rig.click(card, 'op_confirm', by);
  const confirmRecord = (await rig.store.schedules.get(id))!.confirmRecord!;
  await waitFor(async () => ((await rig.store.operations.get(confirmRecord))?.status === 'succeeded' ? true : undefined), { timeoutMs: 5000 });
  expect(await rig.store.operations.get(confirmRecord)).toMatchObject(waitsFor === 'approval' ? { approvedBy: by } : { approvedBy: null, confirmedBy: by });
  await rig.bot.scheduler.tick();
  const s = (await rig.store.schedules.get(id))!;
  expect(s.status).toBe('active');
  return s;
}

/** The schedule's next run comes; returns what the cloud was sent and what the channel saw. */
async function nextRun(id: string) {
  const s = (await rig.store.schedules.get(id))!;
  const from = rig.sandbox.requests.length;
  const seen = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
  clock.jump(s.nextAt! - clock.now() + 1);
  await rig.bot.scheduler.tick();
  await rig.bot.scheduler.settled();
  return { sent: mutationsSince(from), said: channelSince(seen), at: s.nextAt! };
}

const refusalsOf = async (scheduleId: string) =>
  (await rig.store.audit.list({ limit: 100 })).filter((e) => e.outcome === 'refused' && e.errorCode === 'RIGHTS_WITHDRAWN' && (e.detail ?? '').includes(scheduleId));

describe('a schedule a second admin approved, at each run', () => {
  it('its approver no longer an admin: nothing is sent, the channel is told whose right was withdrawn and what to do, and it is audited; every run is checked again', async () => {
    const key = freshKey();
    const s = await armed(`ssh-key delete ${key}`, DAVE.id, 'approval');
    await reload(policyWith(DAVE_DEMOTED));

    const first = await nextRun(s.id);
    expect(first.sent).toEqual([]);
    expect(first.said).toHaveLength(1);
    const said = first.said[0]!;
    expect(said).toContain(`Scheduled run of \`/cloud ssh-key delete ${key}\` (\`${s.id}\``);
    expect(said).toContain(`scheduled by <@${ALICE.id}>) sent nothing`);
    expect(said).toContain(`the approval it runs on was withdrawn: <@${DAVE.id}>, who approved it, may no longer approve it here under the rules in force now`);
    expect(said).toContain('`/cloud policy`');
    expect(said).toContain(`\`/cloud schedule cancel ${s.id}\``);
    expect(said).toContain('schedule it again');
    expect(said).toContain('The next run is checked again.');
    // Not the access refusal worded to a person who typed it.
    expect(said).not.toContain('Your role');
    expect(said).not.toContain('try again');

    const audited = await refusalsOf(s.id);
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({ opId: 'ssh-key.delete', userId: ALICE.id, channelId: OPS_CHANNEL.id, approvedBy: DAVE.id, operationId: null });
    expect(audited[0]!.detail).toContain(`not sent: ${DAVE.id}, who approved schedule ${s.id}, may no longer approve it here`);
    expect(audited[0]!.detail).toContain('admin');

    // Not paused: it stays active, its next run is checked again, and refused again, loudly.
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'active', lastResult: REFUSED_APPROVAL_WITHDRAWN });
    expect((await rig.store.schedules.get(s.id))!.nextAt).toBeGreaterThan(first.at);
    const second = await nextRun(s.id);
    expect(second.sent).toEqual([]);
    expect(second.said).toHaveLength(1);
    expect(second.said[0]).toContain(`<@${DAVE.id}>, who approved it, may no longer approve it here`);
    expect(await refusalsOf(s.id)).toHaveLength(2);

    // Their role given back, the approval holds again: the next run sends, once.
    await reload(policyWith());
    const third = await nextRun(s.id);
    expect(third.sent).toEqual([`DELETE /v2/ssh-keys/${key}`]);
    expect(third.said.join('\n')).toContain(`approved by <@${DAVE.id}>`);
    expect(third.said.join('\n')).not.toContain('sent nothing');
    expect((await rig.store.schedules.get(s.id))!.lastResult).toBe('succeeded');
  });

  it('its approver still an admin (a reload that leaves them one): the run sends, as before', async () => {
    const key = freshKey();
    const s = await armed(`ssh-key delete ${key}`, DAVE.id, 'approval');
    await reload(policyWith({ name: 'cloud-ops' }));
    const run = await nextRun(s.id);
    expect(run.sent).toEqual([`DELETE /v2/ssh-keys/${key}`]);
    expect(run.said.join('\n')).toContain(`approved by <@${DAVE.id}>`);
    expect(run.said.join('\n')).not.toContain('sent nothing');
    expect(await refusalsOf(s.id)).toEqual([]);
    expect(await rig.store.schedules.get(s.id)).toMatchObject({ status: 'active', lastResult: 'succeeded' });
  });
});

describe('a schedule no second admin approved', () => {
  it('made when no approval was needed (Dave only confirmed it): his role taken away does not stop its run', async () => {
    await reload(policyWith({ approval: [] }));
    const key = freshKey();
    const s = await armed(`ssh-key delete ${key}`, DAVE.id, 'confirm');
    await reload(policyWith({ approval: [], ...DAVE_DEMOTED }));
    const run = await nextRun(s.id);
    expect(run.sent).toEqual([`DELETE /v2/ssh-keys/${key}`]);
    expect(run.said.join('\n')).not.toContain('sent nothing');
    expect((await rig.store.schedules.get(s.id))!.lastResult).toBe('succeeded');
  });

  it('approved, in a channel that no longer wants approval: the run rests on its creator’s right alone', async () => {
    const key = freshKey();
    const s = await armed(`ssh-key delete ${key}`, DAVE.id, 'approval');
    await reload(policyWith({ approval: [], ...DAVE_DEMOTED }));
    const run = await nextRun(s.id);
    expect(run.sent).toEqual([`DELETE /v2/ssh-keys/${key}`]);
    expect(run.said.join('\n')).not.toContain('sent nothing');
    expect(await refusalsOf(s.id)).toEqual([]);
  });
});
