/**
 * The message shortcut "Act on this" end to end (issue 23): a signed `message_action` as Slack
 * sends it opens a modal (views.open with its trigger_id) listing the resources the message
 * names that the bot knows, each with what this person may run in that channel; a button runs
 * the command as `/cloud` would (the read's answer in the modal; a change's card in the
 * channel). A viewer sees only reads; a channel ceiling and `default_channel: deny` refuse as
 * `/cloud` does, before the cloud hears anything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_WORKER_UUID } from '../../src/sandbox/seed.js';
import { waitFor } from '../rig/wait-for.js';
import { blockActionsPayload } from '../rig/payloads.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL, type FakeChannel } from '../rig/workspace.js';
import { rigHelpers, startBotRig, type BotRig } from './bot-rig.js';
import { buttonsOf, press, shortcut, teachNames } from './surface-rig.js';

const NO_ROLES = { admins: [], operators: [], viewers: [] };
let rig: BotRig;
const { text } = rigHelpers(() => rig);

describe('Act on this', () => {
  beforeAll(async () => {
    rig = await startBotRig();
    await teachNames(rig);
  });
  afterAll(async () => {
    await rig.close();
    expect(rig.slack.violations).toEqual([]);
  });

  it('lists what a colleague’s message names, with the reads and changes an admin may run; the shortcut itself asks the cloud nothing', async () => {
    const modal = await shortcut(rig, `web-1 is slow again, and the docs-site worker too — sg 7 maybe? (${SEED_WORKER_UUID.slice(0, 4)} is not an id)`);
    expect(modal.cloud).toEqual([]);
    // web-1 twice: by its id (server ips) and by its uuid (sg show); the API never says they are one.
    expect(modal.said).toContain('names 4 resources');
    expect(modal.said).toMatch(/\*Server\* `web-1[^`]*` · `101`/);
    expect(modal.said).toMatch(/\*Security group\* `web-default` · `7`/);
    expect(modal.said).toContain(`*Worker* \`docs-site\` · \`${SEED_WORKER_UUID}\``);
    expect(buttonsOf(modal.view)).toEqual(expect.arrayContaining(['status', 'ips', 'backup list', 'subscribe server', 'show', 'deploy', 'subscribe worker']));
  });

  it('a read chosen runs as /cloud server status 101 would, and its answer replaces the list', async () => {
    const modal = await shortcut(rig, 'is web-1 down?');
    const before = rig.sandbox.requests.length;
    const shown = await press(rig, modal, '101', 'status');
    expect(rig.sandbox.requests.slice(before).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['GET /v2/servers/101/status']);
    expect(shown).toContain('Ran `/cloud server status 101`');
    expect(shown).toContain('running');
    const entry = (await rig.store.audit.list({ limit: 5 })).find((e) => e.opId === 'server.status');
    expect(entry).toMatchObject({ userId: ALICE.id, outcome: 'succeeded' });
  });

  it('a change chosen runs through the change flow as /cloud sg deploy 7 would: its status message in the channel, one request', async () => {
    const modal = await shortcut(rig, 'redeploy the firewall of sg 7 please', BOB.id);
    const before = rig.sandbox.requests.length;
    const posted = rig.slack.messages.inChannel(OPS_CHANNEL.id).length;
    const shown = await press(rig, modal, '7', 'deploy', BOB.id);
    expect(shown).toContain('Its status message is in');
    expect(shown).not.toMatch(/confirm or cancel it/i); // it needs no Confirm: it is being sent
    // sg deploy asks no confirmation from /cloud either: the status message says what was sent, once.
    const card = await waitFor(() => rig.slack.messages.inChannel(OPS_CHANNEL.id)[posted], { timeoutMs: 5000 });
    expect(text(card)).toContain('Requested by <@UBOB000002>');
    await waitFor(() => rig.mutations(before).length > 0 || undefined, { timeoutMs: 5000 });
    expect(rig.mutations(before).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/security-groups/7/deploy']);
  });

  it('a double click on a change’s button starts it once', async () => {
    const modal = await shortcut(rig, 'sg 7 again', BOB.id);
    const before = rig.sandbox.requests.length;
    const blocks = modal.view.blocks as { type: string; elements?: { text: { text: string }; action_id: string }[] }[];
    const deploy = blocks.flatMap((b) => b.elements ?? []).find((e) => e.text.text === 'deploy')!;
    const click = () => rig.send.interaction(blockActionsPayload({ actionId: deploy.action_id, view: { ...modal.view, id: modal.id }, userId: BOB.id }));
    await Promise.all([click(), click()]);
    await rig.bot.settled();
    expect(rig.mutations(before).map((q) => `${q.method} ${q.rawPath}`)).toEqual(['POST /v2/security-groups/7/deploy']);
  });

  it('a viewer is offered only reads', async () => {
    const modal = await shortcut(rig, 'sg 7 and web-1', CAROL.id);
    const labels = buttonsOf(modal.view);
    expect(labels).toContain('status');
    expect(labels).not.toContain('deploy');
    expect(labels).not.toContain('subscribe server'); // a change
  });

  it('finds a server by an address `server ips` showed (an alert’s "185.10.20.11 is down"), in any written form of it', async () => {
    for (const message of ['185.10.20.11 is down', 'PING 2A0C:08C0:0001:0000::0011: 100% packet loss', 'reserved 185.10.20.50:443 refuses connections.']) {
      const modal = await shortcut(rig, message);
      expect(modal.cloud).toEqual([]);
      expect(modal.said).toContain('names one resource');
      expect(modal.said).toMatch(/\*Server\* `web-1[^`]*` · `101`/);
    }
  });

  it('an address the bot never saw, or text only shaped like a known one, names nothing', async () => {
    const modal = await shortcut(rig, '10.0.0.5 is down; 185.10.20.110 and 1185.10.20.11 and 185.10.20.1 too, v185.10.20.11b, 2a0c:8c0:1::111, 185.10.20.11.5, 185.10.20.011');
    expect(modal.said).toContain('names no server, security group or worker the bot knows');
    expect(buttonsOf(modal.view)).toEqual([]);
  });

  it('says truthfully when the message names nothing the bot knows, and never shows the message', async () => {
    const modal = await shortcut(rig, 'lunch at 12? <!channel> ask server 999');
    expect(modal.said).toContain('names no server, security group or worker the bot knows');
    expect(modal.said).not.toContain('lunch');
    expect(buttonsOf(modal.view)).toEqual([]);
  });
});

describe('Act on this under a policy', () => {
  const READONLY: FakeChannel = { id: 'CREAD00023', name: 'read-only', botIsMember: true };
  const DENIED: FakeChannel = { id: 'CDENY00023', name: 'elsewhere', botIsMember: true };
  let policed: BotRig;
  beforeAll(async () => {
    policed = await startBotRig({
      extraChannels: [READONLY, DENIED],
      policy: { default_channel: 'deny', channels: { [OPS_CHANNEL.id]: NO_ROLES, [READONLY.id]: { ...NO_ROLES, ceiling: ['read'] } } },
    });
    await teachNames(policed);
  });
  afterAll(async () => {
    await policed.close();
    expect(policed.slack.violations).toEqual([]);
  });

  it('a channel ceiling of read leaves an admin only reads', async () => {
    const modal = await shortcut(policed, 'sg 7 is wrong', ALICE.id, READONLY.id);
    expect(buttonsOf(modal.view)).toContain('show');
    expect(buttonsOf(modal.view)).not.toContain('deploy');
  });

  it('default_channel: deny refuses the shortcut in an unlisted channel with /cloud’s words, audited, the cloud untouched', async () => {
    const before = policed.sandbox.requests.length;
    const modal = await shortcut(policed, 'web-1 and sg 7', ALICE.id, DENIED.id);
    expect(modal.said).toContain('default_channel');
    expect(buttonsOf(modal.view)).toEqual([]);
    expect(policed.sandbox.requests.length).toBe(before);
    const refused = (await policed.store.audit.list({ limit: 5 })).find((e) => e.outcome === 'refused');
    expect(refused).toMatchObject({ userId: ALICE.id, channelId: DENIED.id });
  });
});
