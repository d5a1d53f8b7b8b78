/**
 * A form over a big account: 300 SSH keys are more than a Slack menu lists (100), so the
 * reinstall form asks for them typed, through the fake Slack that enforces Slack's limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

let rig: BotRig;
beforeAll(async () => {
  rig = await startBotRig();
  for (let id = 100; id < 397; id++) {
    rig.sandbox.state.sshKeys.push({ id, name: `😀<!here>*_&é${'𝕏'.repeat(20)}`, public_key: `ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${id} k`, created_at: new Date().toISOString() });
  }
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

describe('reinstall form with 300 SSH keys', () => {
  it('asks for the keys typed, says why, and sends the ids typed', async () => {
    const from = rig.sandbox.requests.length;
    await rig.sendCommand('server reinstall 101');
    const view = await waitFor(() => {
      const v = rig.slack.views.latest();
      return v && rig.slack.views.isOpen(v.id) && JSON.stringify(v.view).includes('"block_id":"ssh-keys"') ? v : undefined;
    }, { timeoutMs: 5000 });
    const input = (view.view.blocks as { block_id?: string; element: { type: string }; hint?: { text: string } }[]).find((b) => b.block_id === 'ssh-keys')!;
    expect(input.element.type).toBe('plain_text_input');
    expect(input.hint!.text).toContain('300 choices, more than a Slack menu lists (100)');
    const submit = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...view.view, id: view.id }, values: { template: 'debian-12', password: 'Corr3ct-Horse-Battery', 'ssh-keys': '11, 250' }, userId: ALICE.id }),
    );
    expect(submit.status).toBe(200);
    expect(submit.text).toBe('');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, 0);
    expect(JSON.stringify(msg)).toContain('awaiting confirmation');
    expect(rig.mutations(from)).toEqual([]);

    // Confirmed: the ids typed are what the cloud receives.
    const { confirmByTyping } = rigHelpers(() => rig);
    await confirmByTyping(msg, 'web-1.example.net');
    await waitFor(() => (rig.mutations(from).length ? true : undefined), { timeoutMs: 5000 });
    const sent = rig.mutations(from).map((q) => ({ method: q.method, path: q.rawPath, keys: (q.body as { ssh_key_ids?: unknown }).ssh_key_ids }));
    expect(sent).toEqual([{ method: 'POST', path: '/v2/servers/101/reinstall', keys: [11, 250] }]);
  });
});
