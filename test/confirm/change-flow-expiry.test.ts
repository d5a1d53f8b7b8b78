/**
 * A pending change expires at its TTL, by the sweep or on a late click; nothing is sent.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ALICE, TTL, shown, buttons, rig, slack, flow, request, sent, posted, get, audits, lastUpdate, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

describe('expiry', () => {
  it('expireDue: nothing before the TTL; past it the record expires, the message says so, a late click does nothing', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(TTL - 1);
    expect(await flow.expireDue()).toBe(0);
    expect(slack.updates()).toEqual([]);

    await rig.clock.advance(1);
    expect(await flow.expireDue()).toBe(1);
    expect(await get(record.id)).toMatchObject({ status: 'expired', finishedAt: rig.clock.now() });
    const msg = lastUpdate();
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): expired — nothing was done');
    expect(shown(msg)).toContain(':alarm_clock: *Delete SSH key `11` (`alice@laptop`)* — expired — nothing was done');
    expect(buttons(msg)).toEqual([]);
    expect((await audits()).map((a) => a.outcome)).toEqual(['requested', 'expired']);

    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'This request has expired; nothing was done. Run the command again.' });
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'tell', text: 'This request has expired; nothing was done. Run the command again.' });
    expect(await flow.expireDue()).toBe(0);
    expect(sent()).toEqual([]);
    expect(slack.updates()).toHaveLength(1);
  });

  it('a click one millisecond before the TTL still works', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(TTL - 1);
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
  });

  it('a click past the TTL before any sweep: expired on the spot, message edited, audited, nothing sent', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(TTL);
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'This request has expired; nothing was done. Run the command again.' });
    expect((await get(record.id)).status).toBe('expired');
    expect(lastUpdate().text).toBe('Delete SSH key `11` (`alice@laptop`): expired — nothing was done');
    // The expiry is in the audit trail whichever way it was noticed (the sweep will not see it again).
    expect((await audits()).map((a) => a.outcome)).toEqual(['requested', 'expired']);
    expect(await flow.expireDue()).toBe(0);
    expect(sent()).toEqual([]);
  });
});
