/**
 * The undo window (issue 25 item 4), end to end with `ssh-key delete` (a destroy) in a channel
 * whose policy sets `undo_delay: 30s`: after Confirm the status message counts down with an
 * Undo button and the cloud receives nothing until the delay ends — on the bot's injected
 * clock, which only the test moves. Undo sends nothing and names who took it back; the delay
 * ending sends exactly one request; a double Confirm starts one countdown; a restart in the
 * middle resumes the countdown from the SQLite file and sends once, on time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';
import { createUndoClock } from './undo-clock.js';

let rig: BotRig;
const { manual, clock, parkedLoop, advance, delayRunsOut } = createUndoClock();
const { text, latest, until, ephemeralTo, buttons } = rigHelpers(() => rig);

beforeAll(async () => {
  rig = await startBotRig({ clock, watch: { intervalMs: 3_600_000 }, policy: { version: 1, undo_delay: 30_000, channels: {} } });
  await parkedLoop();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const deletes = (from: number) => rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`);

/** Asks for `ssh-key delete <id>` and returns its status message. */
async function ask(id: number) {
  const before = Date.now();
  await rig.sendCommand(`ssh-key delete ${id}`);
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  await until(msg, 'awaiting confirmation');
  return msg;
}

describe('a destroy in a channel with an undo delay', () => {
  it('/cloud policy names the delay', async () => {
    expect(visibleText((await rig.command('policy')).final)).toContain('A confirmed destroy waits 30 seconds for an Undo before it is sent (`undo_delay`)');
  });

  it('counts down after Confirm, sends nothing early, and sends once when the delay ends', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask(11);
    await rig.click(msg, 'op_confirm', ALICE.id);
    const waiting = await until(msg, 'sending in 30 seconds');
    expect(text(waiting)).toContain('nothing has been sent yet');
    expect(text(waiting)).toContain('will send `DELETE /ssh-keys/11`');
    expect(buttons(waiting)).toEqual(['"action_id":"op_undo"']);

    await advance(10_000);
    await until(msg, 'sending in 20 seconds');
    await advance(10_000);
    await until(msg, 'sending in 10 seconds');
    expect(deletes(from)).toEqual([]);

    await advance(10_000);
    const done = await until(msg, '— done');
    expect(deletes(from)).toEqual(['DELETE /v2/ssh-keys/11']);
    expect(text(done)).toContain('sent `DELETE /ssh-keys/11`');
    expect(buttons(done)).toEqual([]);
    // Later passes find nothing left to send.
    await advance(10_000);
    expect(deletes(from)).toEqual(['DELETE /v2/ssh-keys/11']);
  });

  it('Undo sends nothing and says who took it back; an operator may not undo an admin\'s destroy', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask(12);
    await rig.click(msg, 'op_confirm', ALICE.id);
    const waiting = await until(msg, 'sending in 30 seconds');

    await rig.click(waiting, 'op_undo', BOB.id);
    await waitFor(() => ephemeralTo(BOB.id).some((t) => t.includes('it needs the *admin* role')), { timeoutMs: 5000 });
    await rig.click(waiting, 'op_undo', ALICE.id);
    const undone = await until(msg, 'taken back');
    expect(text(undone)).toContain('nothing was sent');
    expect(text(undone)).toContain(`taken back by <@${ALICE.id}>`);
    expect(buttons(undone)).toEqual([]);

    await advance(10_000);
    await advance(10_000);
    await advance(10_000);
    await advance(10_000);
    expect(deletes(from)).toEqual([]);
    // A late click on Undo as the message looked before, and a late Confirm: both told, nothing sent.
    const withUndo = msg.versions.find((v) => JSON.stringify(v.blocks).includes('op_undo'))!;
    await rig.click({ ...msg, blocks: withUndo.blocks }, 'op_undo', ALICE.id);
    await rig.click({ ...msg, blocks: msg.versions[0]!.blocks }, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).filter((t) => t.includes('Taken back by you; nothing was sent')).length >= 2, { timeoutMs: 5000 });
    expect(deletes(from)).toEqual([]);
    const audit = await rig.store.audit.list({ limit: 20 });
    expect(audit.some((e) => e.outcome === 'cancelled' && (e.detail ?? '').includes(`taken back by ${ALICE.id}`))).toBe(true);
  });

  it('a double Confirm starts one countdown and sends one request', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask(13);
    await Promise.all([rig.click(msg, 'op_confirm', ALICE.id), rig.click(msg, 'op_confirm', ALICE.id)]);
    await until(msg, 'sending in 30 seconds');
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('Already confirmed by you; nothing has been sent yet')), { timeoutMs: 5000 });
    const record = (await rig.store.operations.listRecent({ limit: 5 })).find((r) => r.messageTs === msg.ts)!;
    expect(record.sendAt).toBe(manual.now() + 30_000);
    expect(await delayRunsOut(() => deletes(from), () => until(msg, '— done'))).toEqual(['DELETE /v2/ssh-keys/13']);
  });

  it('a restart mid-countdown keeps it: the new bot sends once, when the delay ends, not before', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask(12); // taken back above, so still there
    await rig.click(msg, 'op_confirm', ALICE.id);
    await until(msg, 'sending in 30 seconds');
    await advance(10_000);
    await until(msg, 'sending in 20 seconds');

    await rig.restartBot();
    // The new instance edits the countdown from the store at once, and parks its loop.
    await parkedLoop('the new undo loop to park');
    await advance(10_000);
    await until(msg, 'sending in 10 seconds');
    expect(deletes(from)).toEqual([]);
    await advance(9_000);
    expect(deletes(from)).toEqual([]);
    await advance(1_000);
    await until(msg, '— done');
    await advance(10_000);
    expect(deletes(from)).toEqual(['DELETE /v2/ssh-keys/12']);
    expect(text(latest(msg))).toContain(`confirmed by <@${ALICE.id}>`);
  });
});
