/**
 * The undo window's recheck when Slack cannot answer it: the confirmer is an admin of the
 * channel only through a user group, and when the delay ends usergroups.users.list fails (Slack
 * answers HTTP 503). Nobody's rights changed, so nothing may say they were withdrawn, and
 * nothing may be sent unchecked: the change waits, unsent, and is sent once when the group
 * can be read again — or, if it never can in time, closes unsent saying what happened.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { UNDO_LATE_LIMIT_MS, UNDO_TICK_MS } from '../../src/confirm/undo-window.js';
import { waitFor } from '../rig/wait-for.js';
import { ADMINS_GROUP, ALICE, BOB, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { createUndoClock } from './undo-clock.js';

/** An admin of the ops channel only as a member of the admins user group. */
const ERIN: FakeUser = { id: 'UERIN00005', name: 'erin', realName: 'Erin Group-Admin' };
const GROUPS = 'usergroups.users.list';

let rig: BotRig;
const { clock, parkedLoop, advance } = createUndoClock();
const { text, until, buttons, ephemeralTo } = rigHelpers(() => rig);

beforeAll(async () => {
  rig = await startBotRig({
    clock,
    watch: { intervalMs: 3_600_000 },
    extraUsers: [ERIN],
    // Read at every check, so the recheck at the delay's end asks Slack, not a cache.
    groupCacheMs: 0,
    // Changes want a second admin's approval here (the last case); destroys do not.
    policy: { version: 1, undo_delay: 30_000, channels: { [OPS_CHANNEL.id]: { admins: [ADMINS_GROUP.id], operators: [], viewers: [], approval: ['change'] } } },
  });
  rig.slack.setMembers(ADMINS_GROUP.id, [ERIN.id]);
  await parkedLoop();
});
afterEach(() => rig.slack.clearFaults());
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const deletes = (from: number) => rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`);
/** Slack down for the group's reads until the case clears it (every try of every call). */
const slackDown = () => rig.slack.httpErrorNext(GROUPS, 503, 100_000);
const recordOf = async (ts: string) => (await rig.store.operations.listRecent({ limit: 20 })).find((r) => r.messageTs === ts)!;
const entriesOf = async (recordId: string) => (await rig.store.audit.list({ limit: 50 })).filter((e) => e.operationId === recordId);
/** Every version of the message people saw, as text. */
const seen = (msg: { versions: { text: string; blocks?: unknown[] }[] }) => msg.versions.map((v) => visibleText({ text: v.text, blocks: v.blocks })).join('\n');

let nextKey = 31;
async function confirmedByErin() {
  const id = nextKey++;
  rig.sandbox.state.sshKeys.push({ ...rig.sandbox.state.sshKeys.find((k) => k.id === 11)!, id, name: `unread-${id}` });
  const before = Date.now();
  await rig.sendCommand(`ssh-key delete ${id}`, { userId: ERIN.id });
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  await until(msg, 'awaiting confirmation');
  await rig.click(msg, 'op_confirm', ERIN.id);
  await until(msg, 'sending in 30 seconds');
  // Two ticks of the countdown; the next one is the delay's end.
  await advance(UNDO_TICK_MS);
  await advance(UNDO_TICK_MS);
  return { id, msg, record: await recordOf(msg.ts) };
}

describe('the recheck at the end of an undo delay, when Slack cannot say who is in a user group', () => {
  it('waits unsent, says it is waiting, and sends once when the group can be read again', async () => {
    const from = rig.sandbox.requests.length;
    const { id, msg, record } = await confirmedByErin();
    const reads = rig.slack.callsTo(GROUPS).length;

    slackDown();
    await advance(UNDO_TICK_MS);
    expect(rig.slack.callsTo(GROUPS).length).toBeGreaterThan(reads);
    expect(deletes(from)).toEqual([]);
    expect(await recordOf(msg.ts)).toMatchObject({ status: 'confirmed', errorCode: null });
    const held = await until(msg, 'waiting to check the right to make it here');
    expect(text(held)).toContain('nothing has been sent yet');
    expect(text(held)).toContain(`Slack did not let the bot read user group \`${ADMINS_GROUP.id}\` to check that <@${ERIN.id}> may still make this change here`);
    // Nothing was decided: Undo still takes it back.
    expect(buttons(held)).toEqual(['"action_id":"op_undo"']);
    // Still down on the next pass: still waiting, still nothing sent or closed.
    await advance(UNDO_TICK_MS);
    expect(deletes(from)).toEqual([]);
    expect((await recordOf(msg.ts)).status).toBe('confirmed');

    rig.slack.clearFaults(GROUPS);
    await advance(UNDO_TICK_MS);
    const done = await until(msg, '— done');
    expect(text(done)).toContain(`sent \`DELETE /ssh-keys/${id}\``);
    await advance(UNDO_TICK_MS);
    expect(deletes(from)).toEqual([`DELETE /v2/ssh-keys/${id}`]);
    expect(seen(msg)).not.toContain('withdrawn');
    expect(seen(msg)).not.toContain('may no longer');
    expect((await entriesOf(record.id)).filter((e) => e.outcome === 'cancelled')).toEqual([]);
  });

  it('closes unsent, saying Slack could not tell, when the group stays unreadable past the late limit', async () => {
    const from = rig.sandbox.requests.length;
    const { msg, record } = await confirmedByErin();

    slackDown();
    // The delay's end, then every pass up to the late limit: each asks Slack again, none may send.
    for (let t = 0; t <= UNDO_LATE_LIMIT_MS; t += UNDO_TICK_MS) await advance(UNDO_TICK_MS);
    expect((await recordOf(msg.ts)).status).toBe('confirmed');
    const reads = rig.slack.callsTo(GROUPS).length;
    await advance(UNDO_TICK_MS);
    expect(rig.slack.callsTo(GROUPS).length).toBe(reads);

    const closed = await until(msg, 'not sent');
    expect(text(closed)).toContain('not sent — Slack could not tell the bot in time whether the right to make it here still holds; nothing was sent');
    expect(text(closed)).toContain(`to check that <@${ERIN.id}> may still make this change here. Ask again if it should still be done.`);
    expect(buttons(closed)).toEqual([]);
    expect(seen(msg)).not.toContain('withdrawn');
    expect(seen(msg)).not.toContain('no bot was running');
    expect(await recordOf(msg.ts)).toMatchObject({ status: 'cancelled', errorCode: 'RIGHTS_UNCHECKED' });
    const entries = await entriesOf(record.id);
    const cancelled = entries.find((e) => e.outcome === 'cancelled');
    expect(cancelled).toMatchObject({ errorCode: 'RIGHTS_UNCHECKED', confirmedBy: ERIN.id });
    expect(cancelled!.detail).toContain(`Slack did not let the bot read user group ${ADMINS_GROUP.id} to check that ${ERIN.id} may still make this change here`);
    expect(entries.some((e) => e.outcome === 'expired')).toBe(false);

    // Slack back, later passes: still nothing sent.
    rig.slack.clearFaults(GROUPS);
    await advance(UNDO_TICK_MS);
    expect(deletes(from)).toEqual([]);
  });

  it('a group Slack says no longer exists is an answer: the right is withdrawn, at once, not waited on', async () => {
    const from = rig.sandbox.requests.length;
    const { msg, record } = await confirmedByErin();

    // The admins' group was deleted during the undo window (every try answers no_such_subteam).
    rig.slack.failNext(GROUPS, 'no_such_subteam', 100);
    await advance(UNDO_TICK_MS);
    const closed = await until(msg, 'not sent');
    expect(text(closed)).toContain('not sent — the right to make it here was withdrawn during its undo window; nothing was sent');
    expect(text(closed)).toContain(`<@${ERIN.id}> may no longer make this change here.`);
    expect(seen(msg)).not.toContain('waiting to check');
    expect(await recordOf(msg.ts)).toMatchObject({ status: 'cancelled', errorCode: 'RIGHTS_WITHDRAWN' });
    expect((await entriesOf(record.id)).find((e) => e.outcome === 'cancelled')).toMatchObject({ errorCode: 'RIGHTS_WITHDRAWN', confirmedBy: ERIN.id });
    await advance(UNDO_TICK_MS);
    expect(deletes(from)).toEqual([]);
  });

  it('a command refused only because the group could not be read says so, not that the role is missing', async () => {
    slackDown();
    const r = await rig.command('ssh-key delete 11', { userId: ERIN.id });
    expect(r.cloudRequests.filter((q) => q.method !== 'GET')).toEqual([]);
    const said = visibleText(r.final);
    expect(said).toContain(`Slack did not let the bot read user group \`${ADMINS_GROUP.id}\`, which may give it to you`);
    expect(said).not.toContain('Your role here is');
  });

  it('an approver whose admin role may come from the unread group is told the bot cannot tell, and the request waits', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('sg deploy 7', { userId: ALICE.id });
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await until(msg, 'awaiting approval by a second admin');

    slackDown();
    // Bob is an operator by CLOUD_OPERATORS: he may deploy, but approving needs an admin, which only the group could make him.
    await rig.click(msg, 'op_confirm', BOB.id);
    await waitFor(() => ephemeralTo(BOB.id).some((t) => t.includes(`Only an admin can approve this (two-person approval needs a second admin). Slack did not let the bot read user group \`${ADMINS_GROUP.id}\`, which may make you one`)), { timeoutMs: 5000 });
    expect(deletes(from)).toEqual([]);
    expect((await recordOf(msg.ts)).status).toBe('pending');

    // Read again, the group does not name him: the plain refusal.
    rig.slack.clearFaults(GROUPS);
    await rig.click(msg, 'op_confirm', BOB.id);
    await waitFor(() => ephemeralTo(BOB.id).some((t) => t.startsWith('Only an admin can approve this') && !t.includes('Slack did not answer')), { timeoutMs: 5000 });
    expect((await recordOf(msg.ts)).status).toBe('pending');
  });
});
