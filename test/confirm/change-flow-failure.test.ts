/**
 * Failed changes: cloud refusals, an uneditable status message, and Retry sync after
 * HYPERVISOR_SYNC_FAILED.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALICE, BOB, PASSWORD, shown, buttons, rig, slack, logLines, flow, watches, request, sent, posted, get, audits, lastUpdate, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

// ── failure ─────────────────────────────────────────────────────────────────────────────────

describe('failure', () => {
  it('the cloud refuses: failed with its code and message recorded, in words on the message, no retry button', async () => {
    rig.sandbox.addFault({ method: 'DELETE', path: '/ssh-keys/11', status: 404, code: 'NOT_FOUND', message: 'The SSH key was not found.' });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);

    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'NOT_FOUND', errorMessage: 'The SSH key was not found.' });
    const msg = lastUpdate();
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): failed');
    expect(shown(msg)).toContain('SSH key `11` was not found in this account.');
    expect(shown(msg)).toContain('(code `NOT_FOUND`)');
    expect(buttons(msg)).toEqual([]);
    expect((await audits()).at(-1)).toMatchObject({ outcome: 'failed', errorCode: 'NOT_FOUND', confirmedBy: ALICE });

    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Already tried after you confirmed it; it failed. Run the command again to retry.' });
    expect(await flow.retrySync(record.id, ALICE)).toEqual({ kind: 'tell', text: 'There is nothing to sync for this request.' });
    expect(sent()).toHaveLength(1);
  });

  it('a refusal by the sandbox itself (unknown template): failed, and the sealed password is erased', async () => {
    const record = await posted(request('server.reinstall', { server: '101', template: 'no-such-os', password: PASSWORD }));
    await flow.confirm(record.id, ALICE, 'web-1.example.net');
    expect(sent()).toEqual([{ method: 'POST', path: '/v2/servers/101/reinstall', body: { template_slug: 'no-such-os', password: PASSWORD } }]);
    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'TEMPLATE_NOT_FOUND', sealedSecrets: null });
    expect(shown(lastUpdate())).toContain('The cloud has no OS template `no-such-os`.');
    expect(watches).toEqual([]);
    expect(slack.calls.filter((c) => c.method === 'postEphemeral')).toEqual([]);
  });

  it('a status message that cannot be edited does not stop the change, and the clicker is shown the outcome instead', async () => {
    slack.refuse('update', 'message_not_found');
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const out = await flow.confirm(record.id, ALICE);
    expect(out.kind).toBe('show');
    if (out.kind === 'show') {
      expect(out.reply.text).toBe('I could not update the status message in the channel, so here is the outcome: Delete SSH key `11` (`alice@laptop`): done');
      expect(shown(out.reply)).toContain('I could not update the status message in the channel: Slack did not accept it (`message_not_found`). Here is the outcome.');
    }
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect((await get(record.id)).status).toBe('succeeded');
    expect(slack.updates()).toHaveLength(2);
    expect(logLines.filter((l) => l.includes('could not update a status message'))).toHaveLength(2);
  });
});

// ── Retry sync ──────────────────────────────────────────────────────────────────────────────

describe('Retry sync after HYPERVISOR_SYNC_FAILED', () => {
  it('the change is failed with a Retry sync button; a double click sends one deploy and repairs the message', async () => {
    rig.sandbox.failNextSyncs(1);
    const record = await posted(request('sg.delete-rule', { id: '8', rule: '81' }));
    await flow.confirm(record.id, ALICE);
    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'HYPERVISOR_SYNC_FAILED' });
    const failed = lastUpdate();
    expect(shown(failed)).toContain('The firewall change is saved, but it is not applied on every node yet.');
    expect(buttons(failed)).toEqual(['op_retry_sync']);

    const [a, b] = await Promise.all([flow.retrySync(record.id, ALICE), flow.retrySync(record.id, ALICE)]);
    expect(a).toEqual({ kind: 'tell', text: ':white_check_mark: Security group 8 is synced to every node now.' });
    expect(b).toEqual({ kind: 'tell', text: 'Someone else is retrying this already.' });
    // Never the DELETE again: only the deploy.
    expect(sent()).toEqual([
      { method: 'DELETE', path: '/v2/security-groups/8/rules/81', body: undefined },
      { method: 'POST', path: '/v2/security-groups/8/deploy', body: undefined },
    ]);

    const repaired = lastUpdate();
    expect(repaired.text).toBe('Delete rule #81 from security group 8 (`db-internal`): done');
    expect(shown(repaired)).toContain(`Saved, and synced to every node after a retry by <@${ALICE}>.`);
    // The request line names what was actually sent, the retry's deploy included (issue 14).
    expect(shown(repaired)).toContain('sent `DELETE /security-groups/8/rules/81` then `POST /security-groups/8/deploy`');
    expect(buttons(repaired)).toEqual([]);
    expect(slack.updates().map((u) => u.text.split(': ').at(-1))).toEqual(['running', 'failed', 'running', 'done']);
    expect(await get(record.id)).toMatchObject({ status: 'succeeded', errorCode: null, errorMessage: null });
    expect((await audits()).map((e) => [e.outcome, e.errorCode, e.detail])).toEqual([
      ['requested', null, 'DELETE /security-groups/8/rules/81'],
      ['failed', 'HYPERVISOR_SYNC_FAILED', 'DELETE /security-groups/8/rules/81'],
      ['succeeded', null, `retry sync by ${ALICE}: POST /security-groups/8/deploy`],
    ]);
    expect(await flow.retrySync(record.id, ALICE)).toEqual({ kind: 'tell', text: 'There is nothing to sync for this request.' });
    expect(sent()).toHaveLength(2);
  });

  it('a retry that fails again leaves it failed with the button; the next retry succeeds', async () => {
    rig.sandbox.failNextSyncs(2);
    const record = await posted(request('sg.deploy', { id: '7' }));
    expect((await get(record.id)).errorCode).toBe('HYPERVISOR_SYNC_FAILED');
    const again = await flow.retrySync(record.id, ALICE);
    expect(again).toMatchObject({ kind: 'tell' });
    if (again.kind === 'tell') expect(again.text).toMatch(/^The sync failed again: The firewall change is saved, but it is not applied on every node yet\./);
    expect(await get(record.id)).toMatchObject({ status: 'failed', errorCode: 'HYPERVISOR_SYNC_FAILED' });
    expect(buttons(lastUpdate())).toEqual(['op_retry_sync']);

    expect(await flow.retrySync(record.id, ALICE)).toEqual({ kind: 'tell', text: ':white_check_mark: Security group 7 is synced to every node now.' });
    expect(sent().map((r) => `${r.method} ${r.path}`)).toEqual(Array(3).fill('POST /v2/security-groups/7/deploy'));
  });

  it('only the requester may retry by default; nothing is sent for anyone else', async () => {
    rig.sandbox.failNextSyncs(1);
    const record = await posted(request('sg.deploy', { id: '7' }));
    expect(await flow.retrySync(record.id, BOB)).toEqual({ kind: 'tell', text: `Only <@${ALICE}> can retry this request.` });
    expect(sent()).toHaveLength(1);
    expect((await get(record.id)).status).toBe('failed');
  });
});
