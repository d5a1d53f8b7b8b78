/**
 * Recovery after a crash, once stale: a record left running becomes INTERRUPTED (outcome
 * unknown), one left confirmed is closed unsent (STOPPED_BEFORE_SEND).
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { STALE_RUNNING_MS } from '../../src/confirm/upkeep.js';
import {
  ALICE, PASSWORD, shown, buttons, rig, stores, dbPath, store, slack, makeFlow, request, sent, posted, get, audits, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

describe('recoverInterrupted', () => {
  it('a record left running is failed as INTERRUPTED, one left confirmed is closed unsent; messages edited; others untouched', async () => {
    const running = await posted(request('server.reinstall', { server: '101', template: 'debian-12', password: PASSWORD }));
    const confirmed = await posted(request('ssh-key.delete', { id: '12' }));
    const waiting = await posted(request('ssh-key.delete', { id: '13' }));
    const now = rig.clock.now();
    // The bot stopped between claiming and finishing: the store says so, nothing was sent.
    await store.operations.transition(running.id, { from: ['pending'], to: 'confirmed', now, patch: { confirmedBy: ALICE, confirmedAt: now } });
    await store.operations.transition(running.id, { from: ['confirmed'], to: 'running', now });
    await store.operations.transition(confirmed.id, { from: ['pending'], to: 'confirmed', now, patch: { confirmedBy: ALICE, confirmedAt: now } });

    await rig.clock.advance(30_000);
    const restarted = makeFlow();
    // Another replica could still be running them: left alone until they are stale.
    expect(await restarted.recoverInterrupted()).toBe(0);
    expect((await get(running.id)).status).toBe('running');
    await rig.clock.advance(STALE_RUNNING_MS - 30_000);
    expect(await restarted.recoverInterrupted()).toBe(2);
    // Running: its request may have reached the cloud, so its outcome is unknown.
    expect(await get(running.id)).toMatchObject({ status: 'failed', errorCode: 'INTERRUPTED', sealedSecrets: null, finishedAt: rig.clock.now() });
    // Confirmed but never running: the executor claims running before any request, so nothing was sent.
    expect(await get(confirmed.id)).toMatchObject({ status: 'cancelled', errorCode: 'STOPPED_BEFORE_SEND', finishedAt: rig.clock.now() });
    expect((await get(waiting.id)).status).toBe('pending');

    const edits = slack.updates();
    expect(edits.map((u) => u.ts)).toEqual([running.messageTs, confirmed.messageTs]);
    const [runningEdit, confirmedEdit] = edits;
    expect(runningEdit!.text).toMatch(/: failed$/);
    expect(shown(runningEdit!)).toContain('The bot stopped while this was running, so whether the cloud acted is unknown.');
    expect(shown(runningEdit!)).toContain('(code `INTERRUPTED`)');
    expect(shown(confirmedEdit!)).toContain('closed — the bot stopped after the Confirm, before sending it; nothing was sent');
    expect(shown(confirmedEdit!)).not.toContain('unknown');
    for (const e of edits) expect(buttons(e)).toEqual([]);
    expect((await audits()).filter((a) => a.outcome === 'failed' || a.outcome === 'cancelled').map((a) => [a.operationId, a.outcome, a.errorCode])).toEqual([
      [running.id, 'failed', 'INTERRUPTED'],
      [confirmed.id, 'cancelled', 'STOPPED_BEFORE_SEND'],
    ]);
    expect(sent()).toEqual([]);

    expect(await restarted.recoverInterrupted()).toBe(0);
    // Its outcome is unknown: the click says so, as its message does, not "it failed, run it again".
    expect(await restarted.confirm(running.id, ALICE)).toEqual({
      kind: 'tell',
      text: 'Already tried after you confirmed it: The bot stopped while this was running, so whether the cloud acted is unknown. Check the current state (a `status` or `list` command) before trying again.',
    });
    // Nothing was sent: the click says that too, and sends nothing late.
    expect(await restarted.confirm(confirmed.id, ALICE)).toEqual({
      kind: 'tell',
      text: 'The bot stopped after the Confirm and before sending this, so the request was closed; nothing was sent. Run the command again if it is still wanted.',
    });
    expect(sent()).toEqual([]);
  });

  it('a request still pending across the restart is confirmed afterwards, once', async () => {
    const record = await posted(request('ssh-key.delete', { id: '13' }));
    const restarted = makeFlow({}, stores.open(dbPath, rig.clock));
    expect(await restarted.recoverInterrupted()).toBe(0);
    expect(await restarted.confirm(record.id, ALICE)).toEqual({ kind: 'done' });
    expect(sent()).toEqual([{ method: 'DELETE', path: '/v2/ssh-keys/13', body: undefined }]);
  });
});
