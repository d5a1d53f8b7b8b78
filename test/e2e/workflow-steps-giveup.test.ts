/**
 * A workflow step that gives up (issue 23: still waiting after two hours) leaves no live Confirm
 * behind: a change nobody confirmed is closed first — its card edited to say the workflow stopped
 * waiting, without buttons — so a later click sends nothing and the step's "nothing was sent"
 * stays true. A close that loses to a Confirm, and a change already made, never claim that.
 * The Confirm here would still work at the give-up time (its lifetime set past the bound), so
 * the close is what stops it.
 */
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionExecutedEnvelope, newExecutionId } from '../rig/function-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import type { OperationStore } from '../../src/store/types.js';
import { createJumpClock, rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

let rig: BotRig;
const clock = createJumpClock();
const { text, until, buttons, latest, ephemeralTo, confirmByTyping } = rigHelpers(() => rig);
const GIVE_UP_MS = 2 * 3_600_000;

beforeAll(async () => {
  // A destroy (a reinstall) waits 30 s for an Undo before it is sent.
  rig = await startBotRig({ clock, sandbox: { clock }, watch: { intervalMs: 150 }, confirmTtlMs: 3 * 3_600_000, policy: { version: 1, undo_delay: 30_000, channels: {} } });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const COMPLETIONS = ['functions.completeSuccess', 'functions.completeError'];
const completionCalls = (id: string) => rig.slack.calls.filter((c) => COMPLETIONS.includes(c.method) && c.params.function_execution_id === id);
const updatesOf = (ts: string) => rig.slack.calls.filter((c) => c.method === 'chat.update' && c.params.ts === ts);
const where = { channel: OPS_CHANNEL.id, requester: ALICE.id };

/** Starts a step; returns its execution id and its card in the channel. */
async function startStep(callbackId: string, inputs: Record<string, unknown>) {
  const before = Date.now();
  const executionId = newExecutionId();
  rig.slack.executions.start(executionId, callbackId);
  expect((await rig.send.event(functionExecutedEnvelope({ callbackId, inputs: { ...where, ...inputs }, executionId }))).status).toBe(200);
  await rig.bot.settled();
  const card = await rig.statusMessage(OPS_CHANNEL.id, before);
  return { executionId, card };
}

/** The step driver's pass once the step is past its give-up time. */
async function pastGiveUp() {
  clock.jump(GIVE_UP_MS + 1);
  await rig.bot.steps.tick();
  await rig.bot.settled();
}

describe('a step that gives up while nobody has confirmed', () => {
  it('closes the request first: its card says the workflow stopped waiting, no buttons; a later Confirm sends nothing and is told it is over', async () => {
    const from = rig.sandbox.requests.length;
    const { executionId, card } = await startStep('backup_create', { server: '101', name: 'wf-given-up' });
    expect(buttons(card)).toEqual(['"action_id":"op_confirm"', '"action_id":"op_cancel"']);
    const asPosted = structuredClone(card);
    const record = (await rig.store.operations.byDedupeKey(`step:${executionId}`))!;
    expect(record.status).toBe('pending');
    const edits = updatesOf(card.ts).length;

    await pastGiveUp();

    expect(completionCalls(executionId).map((c) => [c.method, c.response.ok])).toEqual([['functions.completeError', true]]);
    expect(completionCalls(executionId)[0]!.params.error).toBe(
      'Nobody confirmed the change before the bot stopped waiting for this step, so the bot closed the request; nothing was sent.',
    );
    expect(await rig.store.operations.get(record.id)).toMatchObject({ status: 'cancelled', errorCode: 'STEP_GAVE_UP', confirmedAt: null, sealedSecrets: null });
    // The card was edited (chat.update) to say so, and offers nothing to click.
    expect(updatesOf(card.ts).length).toBe(edits + 1);
    const closed = latest(card);
    expect(text(closed)).toContain('— closed — the workflow stopped waiting for a Confirm; nothing was sent');
    expect(text(closed)).not.toContain('cancelled by');
    expect(buttons(closed)).toEqual([]);
    const entry = (await rig.store.audit.list({ limit: 10 })).find((e) => e.operationId === record.id && e.outcome === 'cancelled');
    expect(entry?.detail).toContain('closed: the workflow step stopped waiting for a Confirm');

    // Someone clicks the Confirm they still see (a client showing the card as it was).
    await rig.click(asPosted, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('The workflow that asked for this stopped waiting, so the request was closed; nothing was sent.')), {
      timeoutMs: 5000,
    });
    await rig.bot.settled();
    expect(rig.mutations(from)).toEqual([]);
    expect((await rig.store.operations.get(record.id))?.status).toBe('cancelled');
    expect(completionCalls(executionId)).toHaveLength(1);
    await rig.bot.steps.tick();
    expect(completionCalls(executionId)).toHaveLength(1);
  });
});

describe('a step whose change was never noted on it', () => {
  it('a replica stopped after posting the card but before noting the change: the give-up finds the card by its key and closes it too', async () => {
    const from = rig.sandbox.requests.length;
    const { executionId, card } = await startStep('backup_create', { server: '101', name: 'wf-orphan' });
    const db = new Database(rig.databasePath);
    try {
      db.prepare('UPDATE steps SET operation_id = NULL WHERE execution_id = ?').run(executionId);
    } finally {
      db.close();
    }
    const asPosted = structuredClone(card);
    await pastGiveUp();
    expect(completionCalls(executionId)[0]!.params.error).toBe(
      'Nobody confirmed the change before the bot stopped waiting for this step, so the bot closed the request; nothing was sent.',
    );
    expect(buttons(latest(card))).toEqual([]);
    await rig.click(asPosted, 'op_confirm', ALICE.id);
    await rig.bot.settled();
    expect((await rig.store.operations.byDedupeKey(`step:${executionId}`))?.status).toBe('cancelled');
    expect(rig.mutations(from)).toEqual([]);
  });
});

describe('a give-up a stopped replica never completed', () => {
  it('the request it closed is told as closed by the give-up, not as "Cancelled in the channel"', async () => {
    const { executionId } = await startStep('backup_create', { server: '101', name: 'wf-closed-then-stopped' });
    const record = (await rig.store.operations.byDedupeKey(`step:${executionId}`))!;
    // What the give-up stores before it claims the completion; the replica stops there.
    const closed = await rig.store.operations.transition(record.id, { from: ['pending'], to: 'cancelled', now: clock.now(), patch: { errorCode: 'STEP_GAVE_UP' } });
    expect(closed.ok).toBe(true);
    clock.jump(10_001);
    await rig.bot.steps.tick();
    expect(completionCalls(executionId).map((c) => c.params.error)).toEqual([
      'Nobody confirmed the change before the bot stopped waiting for this step, so the bot closed the request; nothing was sent.',
    ]);
  });
});

describe('a step whose close loses the race', () => {
  it('a Confirm typed in the same instant wins: the step says the change was confirmed and may be under way, never "nothing was sent"; the card is not closed', async () => {
    const from = rig.sandbox.requests.length;
    const { executionId, card } = await startStep('server_reinstall', { server: '104', template: 'debian-12' });
    // The Confirm lands between the driver's look (pending) and its close.
    const ops = rig.store.operations as OperationStore;
    const transition = ops.transition;
    let raced = false;
    ops.transition = async (id, t) => {
      if (t.patch?.errorCode === 'STEP_GAVE_UP' && !raced) {
        raced = true;
        await confirmByTyping(card, 'staging-1.example.net');
        await until(card, 'sending in');
      }
      return transition.call(ops, id, t);
    };
    try {
      await pastGiveUp();
    } finally {
      ops.transition = transition;
    }
    expect(raced).toBe(true);
    expect(completionCalls(executionId).map((c) => [c.method, c.response.ok])).toEqual([['functions.completeError', true]]);
    const error = completionCalls(executionId)[0]!.params.error as string;
    expect(error).toBe('The change was confirmed, but the bot stopped waiting for its outcome after too long; it may still be under way — check the change in the channel.');
    expect(error).not.toContain('nothing was sent');
    expect((await rig.store.operations.byDedupeKey(`step:${executionId}`))).toMatchObject({ status: 'confirmed', errorCode: null, confirmedBy: ALICE.id });
    expect(text(latest(card))).toContain('sending in');
    expect(text(latest(card))).not.toContain('closed');
    expect(rig.mutations(from)).toEqual([]); // still in its undo window: the confirmed change goes on as the card says
  });
});

describe('a step past its bound whose change was made', () => {
  it('a backup still being taken: the step says the change was made and the bot stopped waiting for it to finish', async () => {
    const { executionId, card } = await startStep('backup_create', { server: '101', name: 'wf-slow' });
    await rig.click(latest(card), 'op_confirm', ALICE.id);
    await until(card, '— done');
    await rig.bot.settled();
    const backup = rig.sandbox.state.backups[101]!.find((b) => b.name === 'wf-slow')!;
    backup.completesAt = clock.now() + 10 * GIVE_UP_MS; // still being taken when the step gives up
    await pastGiveUp();
    expect(completionCalls(executionId).map((c) => [c.method, c.params.error])).toEqual([
      ['functions.completeError', 'The change was made, but the bot stopped waiting for the work it started to finish; check the change in the channel.'],
    ]);
    expect(text(latest(card))).toContain('— done');
  });
});
