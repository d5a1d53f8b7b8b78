/**
 * What a surface's payload names is never trusted over the rules: a change form's submission
 * whose private_metadata names another channel or account, a Home button or an unfurl card's
 * button naming an account the place may not use, and a Confirm clicked after a reload lowered
 * the channel's ceiling are each decided as a typed command there would be — refused, nothing
 * sent. Two accounts; #cloud-ops drives staging, #readonly may only read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PolicyFile } from '../../src/access/policy-file.js';
import type { Tier } from '../../src/domain/tier.js';
import { blockActionsPayload, viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { NO_ROLES, twoAccountPolicy } from './two-accounts.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

const READONLY: FakeChannel = { id: 'C0READONL1', name: 'readonly', botIsMember: true };

/** #cloud-ops' ceiling: none at first; a reload lowers it. */
let ceiling: Tier[] | undefined;
const policy = (urls: Record<string, string>): PolicyFile =>
  twoAccountPolicy(urls, {
    [OPS_CHANNEL.id]: { account: 'staging', ...NO_ROLES, ...(ceiling ? { ceiling } : {}) },
    [READONLY.id]: { account: 'staging', ceiling: ['read'], ...NO_ROLES },
  });

let rig: BotRig;
const { ephemeralTo } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig({
    accounts: { prod: { token: 'prod-token-forged-aaaaaaaaaa' }, staging: { token: 'staging-token-forged-bbbbbbb' } },
    policy,
    reloadPolicy: policy,
    extraChannels: [READONLY],
  });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const prodRequests = () => rig.accounts.prod!.sandbox.requests.length;
const stagingMutations = () => rig.accounts.staging!.sandbox.requests.filter((q) => q.method !== 'GET').length;

describe('a change form replayed with other private_metadata', () => {
  async function openBackupForm() {
    const before = rig.slack.views.all().length;
    await rig.sendCommand('backup create 101');
    return waitFor(() => {
      const v = rig.slack.views.all().slice(before).at(-1);
      return v && rig.slack.views.isOpen(v.id) && JSON.stringify(v.view).includes('"block_id":"name"') ? v : undefined;
    }, { timeoutMs: 5000 });
  }

  for (const [what, meta, rule] of [
    ['a read-only channel', { channel: READONLY.id, account: 'staging' }, `channels.${READONLY.id}.ceiling`],
    ['an account the channel may not use', { channel: OPS_CHANNEL.id, account: 'prod' }, `channels.${OPS_CHANNEL.id}.accounts`],
  ] as const) {
    it(`naming ${what} is refused and sends nothing`, async () => {
      const form = await openBackupForm();
      const forged = { ...JSON.parse(String(form.view.private_metadata)), ...meta };
      const p0 = prodRequests();
      const s0 = stagingMutations();
      const res = await rig.send.interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id, private_metadata: JSON.stringify(forged) }, values: { name: 'forged' }, userId: ALICE.id }));
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 300));
      expect(res.json).toMatchObject({ response_action: 'update' });
      expect(JSON.stringify(res.json)).toContain(`rule \`${rule}\``);
      expect(prodRequests()).toBe(p0);
      expect(stagingMutations()).toBe(s0);
    });
  }
});

describe('buttons naming an account the place may not use', () => {
  it('a Home button naming prod (default_channel is deny) runs nothing', async () => {
    const p0 = prodRequests();
    const view = { id: 'VHOMEFORGE1', type: 'home', blocks: [{ type: 'actions', block_id: 'home', elements: [{ type: 'button', action_id: 'home_run:0', text: { type: 'plain_text', text: 'Usage' }, value: JSON.stringify({ op: 'account.usage', args: {}, account: 'prod' }) }] }] };
    await rig.send.interaction(blockActionsPayload({ view, actionId: 'home_run:0', userId: ALICE.id }));
    const dm = `D${ALICE.id.slice(1)}`.slice(0, 11);
    const answer = await waitFor(() => rig.slack.messages.inChannel(dm).at(-1), { timeoutMs: 5000 });
    expect(visibleText({ text: answer.text, blocks: answer.blocks })).toContain('rule `default_channel`');
    expect(prodRequests()).toBe(p0);
  });

  it('an unfurl card’s button naming prod in #cloud-ops runs nothing', async () => {
    const p0 = prodRequests();
    const message = { ts: '1700000000.000100', channel: OPS_CHANNEL.id, text: 'link', blocks: [{ type: 'actions', block_id: 'u', elements: [{ type: 'button', action_id: 'unfurl_read:0', text: { type: 'plain_text', text: 'status' }, value: JSON.stringify({ op: 'server.status', args: { server: '101' }, account: 'prod' }) }] }] };
    const responseUrl = rig.responses.next();
    await rig.send.interaction(blockActionsPayload({ message, actionId: 'unfurl_read:0', userId: ALICE.id, responseUrl }));
    const said = await waitFor(() => rig.responses.postsTo(responseUrl).at(-1), { timeoutMs: 5000 });
    expect(visibleText(said.body)).toContain(`rule \`channels.${OPS_CHANNEL.id}.accounts\``);
    expect(prodRequests()).toBe(p0);
  });
});

describe('a Confirm after a reload lowered the channel’s ceiling', () => {
  it('is refused; nothing is sent', async () => {
    const from = rig.slack.calls.length;
    await rig.sendCommand('ssh-key delete 12');
    const msg = await rig.postedSince(from);
    ceiling = ['read', 'change'];
    expect((await rig.bot.reloadPolicy('signal')).kind).toBe('changed');
    const s0 = stagingMutations();
    await rig.click(msg, 'op_confirm', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('ceiling')), { timeoutMs: 5000 });
    expect(stagingMutations()).toBe(s0);
    expect(visibleText({ text: rig.slack.messages.get(msg.channel, msg.ts)!.text })).toContain('awaiting');
  });
});
