/**
 * Starting a change: posted straight away or awaiting confirmation, dry runs, prechecks,
 * duplicate deliveries, Slack refusing the status message, and field errors from the cloud.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALICE, OPS, TTL, shown, buttons, rig, store, slack, flow, request, sent, reads, posted, get, audits, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

describe('start', () => {
  it('without confirmation: posts "starting", sends the request once, edits to running then done', async () => {
    const record = await posted(request('sg.deploy', { id: '7' }));
    expect(record.status).toBe('succeeded');
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/security-groups/7/deploy', body: undefined }]);

    expect(slack.calls.map((c) => c.method)).toEqual(['postMessage', 'update', 'update']);
    const [first] = slack.posts();
    expect(first!.channel).toBe(OPS);
    expect(first!.text).toBe('Deploy security group 7: starting');
    expect(buttons(first!)).toEqual([]);
    const [running, done] = slack.updates();
    expect(running!.ts).toBe(record.messageTs);
    expect(running!.text).toBe('Deploy security group 7: running');
    expect(done!.text).toBe('Deploy security group 7: done');
    expect(shown(done!)).toContain('Security group `7` is deployed: its saved rules apply on every node of its servers.');
    expect(shown(done!)).toContain('sent `POST /security-groups/7/deploy`');
    // No Confirm was asked, so nobody is named as confirming it.
    expect(shown(done!)).not.toContain('confirmed by');

    const stored = await get(record.id);
    expect(stored).toMatchObject({ status: 'succeeded', confirmedBy: ALICE, messageTs: record.messageTs, finishedAt: rig.clock.now() });
    expect((await audits()).map((a) => [a.outcome, a.detail])).toEqual([['succeeded', 'POST /security-groups/7/deploy']]);
  });

  it('with confirmation: looks first, posts "awaiting confirmation" with Confirm and Cancel, sends nothing', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(record.status).toBe('pending');
    expect(reads()).toEqual(['/v2/ssh-keys']);
    expect(sent()).toEqual([]);

    expect(slack.calls.map((c) => c.method)).toEqual(['postMessage']);
    const msg = slack.posts()[0]!;
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): awaiting confirmation');
    expect(shown(msg)).toContain(':warning: *Delete SSH key `11` (`alice@laptop`)* — awaiting confirmation');
    expect(shown(msg)).toContain('• Servers already set up with it keep it; it can no longer be chosen for new installs.');
    // The moment itself, not "in 10 minutes": nobody edits the card until it expires.
    const expires = rig.clock.now() + TTL;
    expect(shown(msg)).toContain(`Requested by <@${ALICE}> · expires <!date^${expires / 1000}^{date_short_pretty} {time}|${new Date(expires).toISOString().slice(0, 16).replace('T', ' ')} UTC>`);
    expect(buttons(msg)).toEqual(['op_confirm', 'op_cancel']);

    expect(await get(record.id)).toMatchObject({ status: 'pending', expiresAt: rig.clock.now() + TTL, facts: { name: 'alice@laptop' }, messageTs: '1795000000.000001' });
    expect((await audits()).map((a) => [a.outcome, a.userId, a.operationId])).toEqual([['requested', ALICE, record.id]]);
  });

  it('a dry run tells the exact request and touches nothing', async () => {
    const out = await flow.start(request('ssh-key.delete', { id: '11' }, ALICE, { dryRun: true }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') expect(shown(out.reply)).toContain('*Dry run — nothing was sent.* Delete SSH key `11` would send:\n`DELETE /ssh-keys/11`');
    expect(rig.sandbox.requests).toEqual([]);
    expect(slack.calls).toEqual([]);
    expect(await store.operations.listRecent({ limit: 10 })).toEqual([]);
  });

  it('a precheck refusal is told privately and audited; no record, no message', async () => {
    const out = await flow.start(request('ssh-key.delete', { id: '99' }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') expect(shown(out.reply)).toContain('The account has no SSH key `99`.');
    expect(sent()).toEqual([]);
    expect(slack.calls).toEqual([]);
    expect(await store.operations.listRecent({ limit: 10 })).toEqual([]);
    expect((await audits()).map((a) => [a.outcome, a.errorCode])).toEqual([['failed', 'REFUSED_BEFORE_ASKING']]);
  });

  it('a retried delivery (same dedupe key) is a duplicate: one record, one message', async () => {
    const first = await flow.start(request('ssh-key.delete', { id: '11' }, ALICE, { dedupeKey: 'cmd:trigger-1' }));
    const again = await flow.start(request('ssh-key.delete', { id: '11' }, ALICE, { dedupeKey: 'cmd:trigger-1' }));
    expect(first.kind).toBe('posted');
    // The first delivery's record comes back with it (a workflow step resumed after a crash follows it).
    expect(again).toEqual({ kind: 'duplicate', record: expect.objectContaining({ id: first.kind === 'posted' ? first.record.id : '' }) });
    expect(slack.posts()).toHaveLength(1);
    expect(await store.operations.listRecent({ limit: 10 })).toHaveLength(1);
  });

  it('not_in_channel: nothing reaches the cloud, the record is cancelled, the requester is told to invite the bot', async () => {
    slack.refuse('postMessage', 'not_in_channel');
    const out = await flow.start(request('sg.deploy', { id: '7' }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') {
      expect(out.reply.text).toBe('I cannot post in this channel, so nothing was done.');
      expect(shown(out.reply)).toContain('Invite me with `/invite @cloudbot`');
      expect(shown(out.reply)).toContain('Slack said `not_in_channel`.');
    }
    expect(rig.sandbox.requests).toEqual([]);
    const [r] = await store.operations.listRecent({ limit: 10 });
    expect(r).toMatchObject({ status: 'cancelled', errorCode: 'NOT_IN_CHANNEL', messageTs: null });
  });

  it('another Slack failure while posting: nothing is sent, the record is cancelled with the reason, the requester is told why', async () => {
    slack.refuse('postMessage', 'invalid_blocks');
    const out = await flow.start(request('sg.deploy', { id: '7' }));
    expect(out.kind).toBe('tell');
    if (out.kind === 'tell') {
      expect(out.reply.text).toBe('I could not post the status message, so nothing was sent to the cloud.');
      expect(shown(out.reply)).toContain('Slack did not accept it (`invalid_blocks`)');
    }
    expect(rig.sandbox.requests).toEqual([]);
    const [r] = await store.operations.listRecent({ limit: 10 });
    expect(r).toMatchObject({ status: 'cancelled', errorCode: 'STATUS_NOT_POSTED', errorMessage: 'Slack refused chat.postMessage: invalid_blocks', messageTs: null });
  });

  it('a VALIDATION_ERROR before anything changed comes back as field errors for the form', async () => {
    rig.sandbox.addFault({ method: 'PATCH', path: '/servers/101/rename', code: 'VALIDATION_ERROR', status: 422, details: { name: ['The name has a character that is not allowed.'] } });
    const out = await flow.start(request('server.rename', { server: '101', name: 'web one' }));
    expect(out).toEqual({ kind: 'invalid', fieldErrors: { name: 'The name has a character that is not allowed.' } });
    expect(sent()).toEqual([{ method: 'PATCH', path: '/v2/servers/101/rename', body: { name: 'web one' } }]);
    expect((await store.operations.listRecent({ limit: 10 }))[0]).toMatchObject({ status: 'failed', errorCode: 'VALIDATION_ERROR' });
  });
});
