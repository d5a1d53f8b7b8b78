/**
 * Recovery after a crash: records left confirmed or running become INTERRUPTED once stale.
 * Rig and helpers: change-flow-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { STALE_RUNNING_MS } from '../../src/confirm/upkeep.js';
import {
  ALICE, PASSWORD, shown, buttons, rig, stores, dbPath, store, slack, makeFlow, request, sent, posted, get, audits, useChangeFlowRig,
} from './change-flow-helpers.js';

useChangeFlowRig();

describe('recoverInterrupted', () => {
  it('records left confirmed or running are failed as INTERRUPTED, messages edited; others untouched', async () => {
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
    for (const id of [running.id, confirmed.id]) {
      expect(await get(id)).toMatchObject({ status: 'failed', errorCode: 'INTERRUPTED', sealedSecrets: null, finishedAt: rig.clock.now() });
    }
    expect((await get(waiting.id)).status).toBe('pending');

    const edits = slack.updates();
    expect(edits.map((u) => u.ts)).toEqual([running.messageTs, confirmed.messageTs]);
    for (const e of edits) {
      expect(e.text).toMatch(/: failed$/);
      expect(shown(e)).toContain('The bot stopped while this was running, so whether the cloud acted is unknown.');
      expect(shown(e)).toContain('(code `INTERRUPTED`)');
      expect(buttons(e)).toEqual([]);
    }
    expect((await audits()).filter((a) => a.outcome === 'failed').map((a) => [a.operationId, a.errorCode])).toEqual([
      [running.id, 'INTERRUPTED'],
      [confirmed.id, 'INTERRUPTED'],
    ]);
    expect(sent()).toEqual([]);

    expect(await restarted.recoverInterrupted()).toBe(0);
    // Its outcome is unknown: the click says so, as its message does, not "it failed, run it again".
    expect(await restarted.confirm(confirmed.id, ALICE)).toEqual({
      kind: 'tell',
      text: 'Already tried after you confirmed it: The bot stopped while this was running, so whether the cloud acted is unknown. Check the current state (a `status` or `list` command) before trying again.',
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
