/**
 * A second Confirm on a change that was sent and did not end cleanly (a double click, a click
 * from a client that had not redrawn the message): nothing is sent again, and the clicker is
 * told what its status message says — not "it failed, run the command again", which for a
 * firewall change that was saved (HYPERVISOR_SYNC_FAILED) would create it a second time.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';

let rig: BotRig;
const { text, until, ephemeralTo } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

it('a saved rule deletion whose sync failed: a second Confirm sends nothing and points to Retry sync, not to running it again', async () => {
  rig.sandbox.failNextSyncs(1);
  const from = rig.sandbox.requests.length;
  const before = Date.now();
  await rig.sendCommand('sg delete-rule 7 72');
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  const stale = structuredClone(msg); // a client that still shows the Confirm button
  await rig.click(msg, 'op_confirm', ALICE.id);
  const failed = await until(msg, '— failed');
  expect(text(failed)).toContain('`HYPERVISOR_SYNC_FAILED`');

  const told = ephemeralTo(ALICE.id).length;
  await rig.click(stale, 'op_confirm', ALICE.id);
  const [answer] = await waitFor(() => (ephemeralTo(ALICE.id).length > told ? ephemeralTo(ALICE.id).slice(told) : undefined), { timeoutMs: 5000 });
  expect(answer).toContain('after you confirmed it');
  expect(answer).toContain('The firewall change is saved, but it is not applied on every node yet.');
  expect(answer).toContain('Retry the sync');
  expect(answer).not.toContain('Run the command again');
  expect(rig.mutations(from).map((r) => `${r.method} ${r.rawPath}`)).toEqual(['DELETE /v2/security-groups/7/rules/72']);
});
