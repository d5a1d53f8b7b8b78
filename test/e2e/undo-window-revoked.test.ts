/**
 * The undo window re-checks a change when its delay ends, as a schedule's run is checked
 * under the rules in force then: a destroy whose confirmer (or approver) may no longer make it
 * in this channel — a policy reload lowered the ceiling or took their role away while it
 * waited — is not sent. The channel's message says so and why, and the audit records it.
 * The same holds when the channel's rules now want an approval this change never had.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/access/policy-file.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL, type FakeUser } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';
import { createUndoClock } from './undo-clock.js';

/** An admin of the ops channel by its policy rule only (Alice is one by CLOUD_ADMINS). */
const DAVE: FakeUser = { id: 'UDAVE00004', name: 'dave', realName: 'Dave Channel-Admin' };

type Rule = PolicyFile['channels'][string];
const policyWith = (rule: Partial<Rule> = {}): PolicyFile => ({
  version: 1,
  undo_delay: 30_000,
  channels: { [OPS_CHANNEL.id]: { admins: [DAVE.id], operators: [], viewers: [], ...rule } },
});

let rig: BotRig;
let current: PolicyFile = policyWith();
const { clock, parkedLoop, advance, delayRunsOut } = createUndoClock();
const { text, until, ephemeralTo, buttons } = rigHelpers(() => rig);

beforeAll(async () => {
  rig = await startBotRig({ clock, watch: { intervalMs: 3_600_000 }, extraUsers: [DAVE], policy: current, reloadPolicy: () => current });
  await parkedLoop();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});
// Each case starts under the first policy.
beforeEach(async () => reload(policyWith()));

async function reload(next: PolicyFile): Promise<void> {
  current = next;
  const outcome = await rig.bot.reloadPolicy('signal');
  expect(outcome.kind).not.toBe('refused');
}

const deletes = (from: number) => rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`);

/** A key of its own for each case (the cloud keeps it unless a case sends its delete). */
let nextKey = 21;
function freshKey(): number {
  const id = nextKey++;
  rig.sandbox.state.sshKeys.push({ ...rig.sandbox.state.sshKeys.find((k) => k.id === 11)!, id, name: `revoked-${id}` });
  return id;
}

async function ask(id = freshKey()) {
  const before = Date.now();
  await rig.sendCommand(`ssh-key delete ${id}`);
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  await until(msg, 'awaiting');
  return msg;
}

/** The 30 s undo delay passes, in the undo loop's 10 s ticks. */
async function waitOutDelay(): Promise<void> {
  for (let i = 0; i < 3; i++) await advance(10_000);
}

const entriesOf = async (recordId: string) => (await rig.store.audit.list({ limit: 50 })).filter((e) => e.operationId === recordId);
const recordOf = async (ts: string) => (await rig.store.operations.listRecent({ limit: 20 })).find((r) => r.messageTs === ts)!;

describe('a destroy waiting out its undo delay is checked again when the delay ends', () => {
  it('a ceiling lowered meanwhile: nothing is sent, the channel is told why, and it is audited', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask();
    await rig.click(msg, 'op_confirm', ALICE.id);
    await until(msg, 'sending in 30 seconds');

    await reload(policyWith({ ceiling: ['read', 'change'] }));
    await waitOutDelay();
    expect(deletes(from)).toEqual([]);
    const closed = await until(msg, 'not sent');
    expect(text(closed)).toContain('not sent — the right to make it here was withdrawn during its undo window; nothing was sent');
    expect(text(closed)).toContain(`<@${ALICE.id}> may no longer make this change here. Checked again when its undo delay ended`);
    expect(text(closed)).toContain('nothing was sent');
    expect(text(closed)).not.toContain('cancelled by');
    expect(buttons(closed)).toEqual([]);

    const record = await recordOf(msg.ts);
    expect(record).toMatchObject({ status: 'cancelled', errorCode: 'RIGHTS_WITHDRAWN' });
    const cancelled = (await entriesOf(record.id)).find((e) => e.outcome === 'cancelled');
    expect(cancelled).toMatchObject({ errorCode: 'RIGHTS_WITHDRAWN', confirmedBy: ALICE.id });
    expect(cancelled!.detail).toContain(`not sent: ${ALICE.id} may no longer make this change here`);
    expect(cancelled!.detail).toContain('allows');

    // Later passes send nothing; an Undo on the message as it looked while waiting is told why.
    await advance(10_000);
    expect(deletes(from)).toEqual([]);
    const withUndo = msg.versions.find((v) => JSON.stringify(v.blocks).includes('op_undo'))!;
    await rig.click({ ...msg, blocks: withUndo.blocks }, 'op_undo', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('Not sent: you may no longer make this change here')), { timeoutMs: 5000 });
  });

  it('the confirmer’s role taken away meanwhile: nothing is sent, and the message names them', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask();
    await rig.click(msg, 'op_confirm', DAVE.id);
    await until(msg, 'sending in 30 seconds');

    await reload(policyWith({ admins: [], operators: [DAVE.id] }));
    await waitOutDelay();
    expect(deletes(from)).toEqual([]);
    const closed = await until(msg, 'not sent');
    expect(text(closed)).toContain(`<@${DAVE.id}> may no longer make this change here.`);
    expect(text(closed)).toContain(`confirmed by <@${DAVE.id}>`);
    const record = await recordOf(msg.ts);
    const cancelled = (await entriesOf(record.id)).find((e) => e.outcome === 'cancelled');
    expect(cancelled!.detail).toContain(`not sent: ${DAVE.id} may no longer make this change here`);
    expect(cancelled!.detail).toContain('admin');
  });

  it('an approver no longer an admin: nothing is sent', async () => {
    await reload(policyWith({ approval: ['destroy'] }));
    const from = rig.sandbox.requests.length;
    const msg = await ask();
    await rig.click(msg, 'op_confirm', DAVE.id);
    await until(msg, 'sending in 30 seconds');
    expect(text(await until(msg, 'approved by'))).toContain(`approved by <@${DAVE.id}>`);

    await reload(policyWith({ approval: ['destroy'], admins: [], operators: [DAVE.id] }));
    await waitOutDelay();
    expect(deletes(from)).toEqual([]);
    const closed = await until(msg, 'not sent');
    expect(text(closed)).toContain(`<@${DAVE.id}> may no longer make this change here.`);
    expect((await recordOf(msg.ts)).status).toBe('cancelled');
  });

  it('an approval required meanwhile, which the change never had: nothing is sent', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask();
    await rig.click(msg, 'op_confirm', ALICE.id);
    await until(msg, 'sending in 30 seconds');

    await reload(policyWith({ approval: ['destroy'] }));
    await waitOutDelay();
    expect(deletes(from)).toEqual([]);
    const closed = await until(msg, 'not sent');
    expect(text(closed)).toContain('not sent — the channel’s rules now want a second admin’s approval');
    const record = await recordOf(msg.ts);
    expect(record).toMatchObject({ status: 'cancelled', errorCode: 'APPROVAL_NOW_REQUIRED' });
    expect((await entriesOf(record.id)).some((e) => e.outcome === 'cancelled' && (e.detail ?? '').includes('approval'))).toBe(true);
  });

  it('rights unchanged (a reload that leaves them): sent once, when the delay ends', async () => {
    const from = rig.sandbox.requests.length;
    const msg = await ask();
    await rig.click(msg, 'op_confirm', DAVE.id);
    await until(msg, 'sending in 30 seconds');
    const record = await recordOf(msg.ts);
    await reload(policyWith({ name: 'cloud-ops' }));
    expect(await delayRunsOut(() => deletes(from), () => until(msg, '— done'))).toEqual([`DELETE /v2/ssh-keys/${record.args.id}`]);
  });
});
