/**
 * A click on a change's card that access refuses is audited as refused, as a typed command's
 * refusal is, and as the other buttons' are (an alert's, Keep watching, a page, an unfurl's):
 * who clicked, where, on what, and the rule. Checks made again by the bot itself (an undo
 * window's end) are not clicks and are audited as their own outcome (undo-window-revoked).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

const FRANK: FakeUser = { id: 'UFRANK0006', name: 'frank', realName: 'Frank Operator' };

let rig: BotRig;
const { ephemeralTo } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig({
    access: { admins: [ALICE.id], operators: [BOB.id, FRANK.id], viewers: [CAROL.id] },
    policy: { version: 1, default_channel: 'deny', channels: { [OPS_CHANNEL.id]: { ceiling: ['read', 'change', 'billing', 'destroy', 'secret'], approval: ['change'], admins: [], operators: [], viewers: [] } } },
    extraUsers: [FRANK],
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const refusalsOf = async (user: string) => (await rig.store.audit.list({ limit: 50 })).filter((e) => e.userId === user && e.outcome === 'refused');

describe('refused clicks on a change card are audited', () => {
  it('a viewer’s Confirm and Cancel on an admin’s destroy', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('ssh-key delete 12', { userId: ALICE.id });
    const msg = await rig.postedSince(from);
    await rig.click(msg, 'op_confirm', CAROL.id);
    await waitFor(() => ephemeralTo(CAROL.id).some((t) => t.includes('needs the *admin* role')), { timeoutMs: 5000 });
    await rig.click(msg, 'op_cancel', CAROL.id);
    const entries = await waitFor(async () => ((await refusalsOf(CAROL.id)).length >= 2 ? await refusalsOf(CAROL.id) : undefined), { timeoutMs: 5000 });
    for (const e of entries) expect(e).toMatchObject({ opId: 'ssh-key.delete', channelId: OPS_CHANNEL.id, errorCode: 'ACCESS_DENIED', args: { id: 12 } });
    expect(entries.map((e) => e.detail).sort()).toEqual(['cancel click refused: needs admin; has viewer (CLOUD_VIEWERS)', 'confirm click refused: needs admin; has viewer (CLOUD_VIEWERS)']);
    expect((await rig.store.operations.listRecent({ limit: 1 }))[0]).toMatchObject({ status: 'pending', requestedBy: ALICE.id });
    await rig.click(msg, 'op_cancel', ALICE.id);
  });

  it('an operator’s Approve of another operator’s change that wants a second admin', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('sg deploy 7', { userId: BOB.id });
    const msg = await rig.postedSince(from);
    await rig.click(msg, 'op_confirm', FRANK.id);
    await waitFor(() => ephemeralTo(FRANK.id).some((t) => t.includes('Only an admin can approve this')), { timeoutMs: 5000 });
    const [entry] = await waitFor(async () => ((await refusalsOf(FRANK.id)).length ? await refusalsOf(FRANK.id) : undefined), { timeoutMs: 5000 });
    expect(entry).toMatchObject({ opId: 'sg.deploy', channelId: OPS_CHANNEL.id, errorCode: 'ACCESS_DENIED' });
    expect(entry!.detail).toBe('approve click refused: an approval needs the admin role; has operator');
    await rig.click(msg, 'op_cancel', BOB.id);
  });
});
