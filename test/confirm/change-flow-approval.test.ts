/**
 * Two-person approval: a second admin approves; the requester may only withdraw.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { md } from '../../src/views/mrkdwn.js';
import { catalog } from '../../src/operations/index.js';
import {
  ALICE, BOB, CAROL, shown, buttons, rig, slack, flow, makeFlow, request, sent, posted, get, audits, lastUpdate, setFlow, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

describe('approval by a second admin', () => {
  const admins = new Set([ALICE, CAROL]);
  const approvalFlow = () =>
    makeFlow({
      needsApproval: (op) => op.tier === 'destroy',
      authorize: async (_r, _op, userId) => (admins.has(userId) ? undefined : md`it needs the *admin* role.`),
    });

  it('the requester cannot approve, a non-admin is refused, a second admin approves once', async () => {
    setFlow(approvalFlow());
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const msg = slack.posts()[0]!;
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): awaiting approval by a second admin');
    expect(shown(msg)).toContain(`Needs a second admin: <@${ALICE}> cannot approve their own request.`);
    expect(shown(msg)).toContain('Approve');
    expect(buttons(msg)).toEqual(['op_confirm', 'op_cancel']);

    expect(await flow.confirm(record.id, ALICE)).toEqual({
      kind: 'tell',
      text: 'You asked for this, so another admin must approve it (two-person approval). Nothing was done.',
    });
    expect(await flow.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: 'it needs the *admin* role.' });
    expect(sent()).toEqual([]);
    expect((await get(record.id)).status).toBe('pending');

    expect(await flow.confirm(record.id, CAROL)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect(await get(record.id)).toMatchObject({ status: 'succeeded', approvedBy: CAROL, confirmedBy: CAROL, approvedAt: rig.clock.now() });
    expect(shown(lastUpdate())).toContain(`Requested by <@${ALICE}> · approved by <@${CAROL}>`);
    expect((await audits()).at(-1)).toMatchObject({ outcome: 'succeeded', userId: ALICE, approvedBy: CAROL, confirmedBy: CAROL });
  });

  it('the requester may always withdraw their own request', async () => {
    setFlow(makeFlow({ needsApproval: () => true, authorize: async () => md`nobody may.` }));
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.cancel(record.id, BOB)).toEqual({ kind: 'tell', text: 'nobody may.' });
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'done' });
    expect((await get(record.id)).status).toBe('cancelled');
  });
});

describe('a schedule’s card is judged as the command it arms, not by its own tier', () => {
  const cardOf = (...judgedAs: string[]) => ({
    ...request('schedule.confirm', { id: 'sch_0123456789', what: '/cloud server rename 101 later', when: 'in 1h (UTC)' }),
    judgedAs: judgedAs.map((id) => catalog.byId(id)!),
  });
  /** A flow whose policy wants these tiers approved; the operations and actions it authorized. */
  const flowApproving = (tiers: string[], seen: string[]) =>
    makeFlow({
      needsApproval: (op) => tiers.includes(op.tier),
      authorize: async (_r, op, userId, action) => (seen.push(`${op.id} ${action}`), userId === BOB ? md`it needs the *admin* role.` : undefined),
    });

  it('`approval: [destroy]`: a change-tier command’s card (itself destroy-tier) is its requester’s to confirm alone', async () => {
    const seen: string[] = [];
    setFlow(flowApproving(['destroy'], seen));
    const record = await posted(cardOf('server.rename'));
    expect(slack.posts()[0]!.text).not.toContain('approval');
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(await get(record.id)).toMatchObject({ status: 'succeeded', confirmedBy: ALICE, approvedBy: null });
    expect(seen).toEqual(['server.rename confirm']);
  });

  it('`approval: [change]`: it needs a second admin, who is checked as for the command', async () => {
    const seen: string[] = [];
    setFlow(flowApproving(['change'], seen));
    const record = await posted(cardOf('server.rename'));
    expect(slack.posts()[0]!.text).toContain('awaiting approval by a second admin');
    expect((await flow.confirm(record.id, ALICE)).kind).toBe('tell');
    expect(await flow.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: 'it needs the *admin* role.' });
    expect(await flow.confirm(record.id, CAROL)).toEqual({ kind: 'done' });
    expect(await get(record.id)).toMatchObject({ status: 'succeeded', approvedBy: CAROL });
    expect(seen).toEqual(['server.rename approve', 'server.rename approve']);
  });

  it('`--keep`: judged as backup create and backup delete — either one’s approval asks for it, both are checked', async () => {
    const seen: string[] = [];
    setFlow(flowApproving(['destroy'], seen));
    const record = await posted(cardOf('backup.create', 'backup.delete'));
    expect(slack.posts()[0]!.text).toContain('awaiting approval by a second admin');
    expect(await flow.confirm(record.id, CAROL)).toEqual({ kind: 'done' });
    expect(seen).toEqual(['backup.create approve', 'backup.delete approve']);
  });
});
