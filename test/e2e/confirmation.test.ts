/**
 * The guard around destructive and spending changes, end to end with `ssh-key delete`: one
 * status message in the channel, a one-time Confirm, and never a second request — whatever
 * the clicks, retries, expiry or channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL, RANDOM_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
const { text, latest, ephemeralTo, buttons } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig({ confirmTtlMs: 1500 });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});


describe('a confirmed change', () => {
  it('asks in the channel, sends nothing until Confirm, then sends once and edits the message', async () => {
    const from = rig.sandbox.requests.length;
    const ack = await rig.sendCommand('ssh-key delete 11');
    expect(ack.status).toBe(200);
    const msg = await rig.statusMessage();
    expect(text(msg)).toMatch(/Delete SSH key `11` \(.+\)\* — awaiting confirmation/);
    expect(text(msg)).toContain(`Requested by <@${ALICE.id}>`);
    expect(buttons(msg)).toEqual(['"action_id":"op_confirm"', '"action_id":"op_cancel"']);
    expect(rig.mutations(from)).toEqual([]); // only the precheck's GET /ssh-keys so far

    await rig.click(msg, 'op_confirm', ALICE.id);
    const done = await waitFor(() => (text(latest(msg)).includes('— done') ? latest(msg) : undefined), { timeoutMs: 5000 });
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['DELETE /v2/ssh-keys/11']);
    expect(text(done)).toContain(`confirmed by <@${ALICE.id}>`);
    expect(text(done)).toContain('sent `DELETE /ssh-keys/11`');
    expect(buttons(done)).toEqual([]);
    expect(rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.ts === msg.ts)).toHaveLength(1);
  });

  it('two Confirm clicks at once send one request; the second is told who acted', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 12');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await Promise.all([rig.click(msg, 'op_confirm', ALICE.id), rig.click(msg, 'op_confirm', ALICE.id)]);
    await waitFor(() => text(latest(msg)).includes('— done'), { timeoutMs: 5000 });
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => /Already (confirmed|done)/.test(t)), { timeoutMs: 5000 });
    expect(rig.mutations(from).map((r) => r.rawPath)).toEqual(['/v2/ssh-keys/12']);
  });

  it('someone else cannot confirm; Cancel sends nothing', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 13');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(msg, 'op_confirm', BOB.id);
    // Bob is an operator in the rig: a destroy needs an admin.
    await waitFor(() => ephemeralTo(BOB.id).some((t) => t.includes('it needs the *admin* role. Your role here is *operator*')), { timeoutMs: 5000 });
    await rig.click(msg, 'op_cancel', ALICE.id);
    const cancelled = await waitFor(() => (text(latest(msg)).includes('— cancelled') ? latest(msg) : undefined), { timeoutMs: 5000 });
    expect(text(cancelled)).toContain(`cancelled by <@${ALICE.id}>`);
    expect(buttons(cancelled)).toEqual([]);
    // A late click on the message as it looked before (a client that had not refreshed yet).
    await rig.click({ ...msg, blocks: msg.versions[0]!.blocks }, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('Cancelled by you; nothing was done')), { timeoutMs: 5000 });
    expect(rig.mutations(from)).toEqual([]);
  });

  it('a click after expiry sends nothing and says so', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 13');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    rig.clock.jump!(1700); // the rig's confirmations live 1.5 s: the bot's clock moves past that at once
    await rig.click(msg, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('This request has expired; nothing was done')), { timeoutMs: 5000 });
    const expired = await waitFor(() => (text(latest(msg)).includes('expired') ? latest(msg) : undefined), { timeoutMs: 5000 });
    expect(buttons(expired)).toEqual([]);
    expect(rig.mutations(from)).toEqual([]);
  });

  it('a retried slash command creates one pending operation and one message', async () => {
    const before = Date.now();
    const triggerId = `${Math.floor(Date.now() / 1000)}.1234.retriedtrigger`;
    await rig.sendCommand('ssh-key delete 13', { triggerId });
    await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.sendCommand('ssh-key delete 13', { triggerId }, { headers: { 'x-slack-retry-num': '1', 'x-slack-retry-reason': 'http_timeout' } });
    await new Promise((r) => setTimeout(r, 300));
    const mine = rig.slack.messages.inChannel(OPS_CHANNEL.id).filter((m) => m.postedAt > before);
    expect(mine).toHaveLength(1);
    const pending = (await rig.store.operations.listRecent({ limit: 50 })).filter((r) => r.dedupeKey === `cmd:${triggerId}`);
    expect(pending).toHaveLength(1);
  });
});

describe('before anything is asked', () => {
  it('--dry-run shows the exact request and sends nothing', async () => {
    const r = await rig.command('ssh-key delete 13 --dry-run');
    expect(rig.mutations(rig.sandbox.requests.length - r.cloudRequests.length)).toEqual([]);
    expect(r.cloudRequests).toEqual([]);
    expect(visibleText(r.final)).toContain('Dry run — nothing was sent.');
    expect(visibleText(r.final)).toContain('`DELETE /ssh-keys/13`');
  });

  it('a channel the bot is not in: told how to invite it, nothing sent to the cloud', async () => {
    const from = rig.sandbox.requests.length;
    const r = await rig.command('ssh-key delete 13', { channelId: RANDOM_CHANNEL.id });
    expect(visibleText(r.final)).toContain('/invite @cloudbot');
    expect(visibleText(r.final)).toContain('nothing was sent to the cloud');
    expect(rig.mutations(from)).toEqual([]);
    expect(rig.slack.messages.inChannel(RANDOM_CHANNEL.id)).toEqual([]);
  });

  it('a key that does not exist is refused before asking', async () => {
    const r = await rig.command('ssh-key delete 99');
    expect(visibleText(r.final)).toContain('The account has no SSH key `99`');
    expect(r.cloudRequests.map((q) => q.method)).toEqual(['GET']);
  });
});

// Last: it deletes key 13, which the tests above still use.
describe('across a restart', () => {
  it('a request asked before a restart is confirmed after it, once', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('ssh-key delete 13');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.restartBot();
    await rig.click(msg, 'op_confirm', ALICE.id);
    await waitFor(() => text(latest(msg)).includes('— done'), { timeoutMs: 5000 });
    expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['DELETE /v2/ssh-keys/13']);
  });
});
