/**
 * Confirm and Cancel on a pending change: who may click, double and concurrent clicks
 * (one request between replicas), and a store that fails after the cloud acted.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/store/errors.js';
import type { Store } from '../../src/store/index.js';
import {
  ALICE, BOB, OPS, shown, buttons, rig, stores, dbPath, store, slack, logLines, flow, makeFlow, request, sent, posted, get, audits, lastUpdate, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

// ── confirm ─────────────────────────────────────────────────────────────────────────────────

describe('confirm', () => {
  it('the cloud did it but the store cannot record it: the message still says done and the audit keeps "succeeded"', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const operations = store.operations;
    // The store is held by something else exactly when the outcome is written.
    const failing: Store = {
      ...store,
      operations: {
        ...operations,
        transition: (id, t) => (t.to === 'succeeded' ? Promise.reject(new StoreUnavailableError('locked', 'sqlite', 'the database is locked')) : operations.transition(id, t)),
      },
    };
    const flaky = makeFlow({}, failing);
    expect(await flaky.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect(lastUpdate().text).toBe('Delete SSH key `11` (`alice@laptop`): done');
    expect((await audits()).map((a) => a.outcome)).toEqual(['requested', 'succeeded']);
    expect(logLines.some((l) => l.includes('the change succeeded but its record could not be updated'))).toBe(true);
  });

  it('the requester confirms: one DELETE, then the message reads running, then done', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await rig.clock.advance(4000);
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);

    const [running, done] = slack.updates();
    expect(running!.text).toBe('Delete SSH key `11` (`alice@laptop`): running');
    expect(shown(running!)).toContain(`confirmed by <@${ALICE}>`);
    expect(buttons(running!)).toEqual([]);
    expect(done!.text).toBe('Delete SSH key `11` (`alice@laptop`): done');
    expect(shown(done!)).toContain('SSH key `11` is deleted.');
    expect(shown(done!)).toContain(`Requested by <@${ALICE}> · confirmed by <@${ALICE}> · took 0 seconds · sent \`DELETE /ssh-keys/11\``);
    expect(buttons(done!)).toEqual([]);
    expect(slack.updates().every((u) => u.ts === record.messageTs && u.channel === OPS)).toBe(true);

    expect(await get(record.id)).toMatchObject({ status: 'succeeded', confirmedBy: ALICE, confirmedAt: record.createdAt + 4000, result: { text: 'SSH key `11` is deleted.' } });
    expect((await audits()).map((a) => [a.outcome, a.confirmedBy, a.detail])).toEqual([
      ['requested', null, 'DELETE /ssh-keys/11'],
      ['succeeded', ALICE, 'DELETE /ssh-keys/11'],
    ]);
  });

  it('a second click after it is done sends nothing and says who acted', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await flow.confirm(record.id, ALICE);
    const updates = slack.updates().length;
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Already done: confirmed by you.' });
    expect(sent()).toHaveLength(1);
    expect(slack.updates()).toHaveLength(updates);
  });

  it('two Confirms at once: one request; the other clicker is told who acted', async () => {
    const anyone = makeFlow({ authorize: async () => undefined });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    const [a, b] = await Promise.all([anyone.confirm(record.id, ALICE), anyone.confirm(record.id, BOB)]);
    expect(a).toEqual({ kind: 'done' });
    expect(b).toEqual({ kind: 'tell', text: `Already confirmed by <@${ALICE}>; it is running.` });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/11', body: undefined }]);
    expect((await get(record.id)).confirmedBy).toBe(ALICE);
  });

  it('two replicas on the same database file: one request between them', async () => {
    const other = stores.open(dbPath, rig.clock);
    const replica = makeFlow({}, other);
    const record = await posted(request('ssh-key.delete', { id: '12' }));
    const outcomes = await Promise.all([flow.confirm(record.id, ALICE), replica.confirm(record.id, ALICE)]);
    expect(outcomes.filter((o) => o.kind === 'done')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'tell')).toHaveLength(1);
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/12', body: undefined }]);
  });

  it('someone else may not confirm (by default only the requester): nothing sent, message untouched', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: `Only <@${ALICE}> can confirm this request.` });
    expect(sent()).toEqual([]);
    expect(slack.updates()).toEqual([]);
    expect((await get(record.id)).status).toBe('pending');
  });

  it('an unknown record id is answered, not thrown', async () => {
    expect(await flow.confirm('op_AAAAAAAAAAAAAAAA', ALICE)).toEqual({ kind: 'tell', text: 'This request is no longer known to the bot.' });
    expect(await flow.cancel('op_AAAAAAAAAAAAAAAA', ALICE)).toEqual({ kind: 'tell', text: 'This request is no longer known to the bot.' });
  });
});

// ── cancel ──────────────────────────────────────────────────────────────────────────────────

describe('cancel', () => {
  it('the requester cancels: message edited to cancelled without buttons, audited, nothing sent', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'done' });
    const msg = lastUpdate();
    expect(msg.text).toBe('Delete SSH key `11` (`alice@laptop`): cancelled');
    expect(shown(msg)).toContain(`Requested by <@${ALICE}> · cancelled by <@${ALICE}>`);
    expect(shown(msg)).toContain('• Servers already set up with it keep it');
    expect(buttons(msg)).toEqual([]);
    expect(await get(record.id)).toMatchObject({ status: 'cancelled', result: { cancelledBy: ALICE }, finishedAt: rig.clock.now() });
    expect((await audits()).map((a) => [a.outcome, a.detail])).toEqual([
      ['requested', 'DELETE /ssh-keys/11'],
      ['cancelled', `cancelled by ${ALICE}`],
    ]);
    expect(sent()).toEqual([]);
  });

  it('someone else may not cancel by default', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    expect(await flow.cancel(record.id, BOB)).toEqual({ kind: 'tell', text: `Only <@${ALICE}> can cancel this request.` });
    expect((await get(record.id)).status).toBe('pending');
  });

  it('Confirm after Cancel sends nothing and says who cancelled', async () => {
    const anyone = makeFlow({ authorize: async () => undefined });
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await flow.cancel(record.id, ALICE);
    const updates = slack.updates().length;
    expect(await flow.confirm(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Cancelled by you; nothing was done.' });
    expect(await anyone.confirm(record.id, BOB)).toEqual({ kind: 'tell', text: `Cancelled by <@${ALICE}>; nothing was done.` });
    expect(sent()).toEqual([]);
    expect(slack.updates()).toHaveLength(updates);
  });

  it('Cancel after it is done changes nothing', async () => {
    const record = await posted(request('ssh-key.delete', { id: '11' }));
    await flow.confirm(record.id, ALICE);
    expect(await flow.cancel(record.id, ALICE)).toEqual({ kind: 'tell', text: 'Already done: confirmed by you.' });
    expect((await get(record.id)).status).toBe('succeeded');
  });
});
