/**
 * The App Home tab over the rig (issue 14): a signed `app_home_opened` event in, a
 * `views.publish` out — to the person who opened it, within Block Kit's limits for a Home tab
 * (the fake Slack checks), showing what their role may see — and its buttons answered in the
 * person's DM with the app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { appHomeOpenedEnvelope, blockActionsPayload } from '../rig/payloads.js';
import { checkPayload } from '../rig/mrkdwn-abuse-checker.js';
import { HOSTILE_MARKER } from '../rig/hostile-strings.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, CAROL, OPS_CHANNEL } from '../rig/workspace.js';
import type { JsonObject } from '../rig/json.js';
import { startBotRig, visibleText, type BotRig } from './bot-rig.js';

let rig: BotRig;
const HOSTILE = `${HOSTILE_MARKER}<!channel> *Approved* <https://evil.example|click>`;

beforeAll(async () => {
  // Destroy-tier changes wait for a second admin's approval (CLOUD_APPROVAL=destroy). Alice and
  // Bob are admins; Carol, on no list, a viewer.
  rig = await startBotRig({ access: { admins: [ALICE.id, BOB.id], operators: [], approval: 'destroy' } });
  const now = rig.clock.now();
  // Alice's reinstall waits for another admin; Bob's rename waits for his own Confirm.
  await rig.store.operations.create({ opId: 'server.reinstall', args: { server: '101', template: HOSTILE }, requestedBy: ALICE.id, channelId: OPS_CHANNEL.id, expiresAt: now + 600_000 });
  await rig.store.operations.create({ opId: 'server.rename', args: { server: '101', name: HOSTILE }, requestedBy: BOB.id, channelId: OPS_CHANNEL.id, expiresAt: now + 600_000 });
  await rig.store.watches.create({ kind: 'server', resource: HOSTILE, channelId: OPS_CHANNEL.id, requestedBy: BOB.id, intervalMs: 60_000, startedAt: now, deadlineAt: now + 3_600_000, nextPollAt: now + 3_600_000 });
  await rig.store.subscriptions.add({ channelId: OPS_CHANNEL.id, account: null, kind: 'server', resource: HOSTILE, createdBy: BOB.id, createdAt: now });
  // Something of Carol's in the audit trail.
  await rig.command('account usage', { userId: CAROL.id });
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

/** Opens the Home tab as `userId` and returns the view published to them by this opening. */
async function openHome(userId: string): Promise<JsonObject> {
  const before = rig.slack.callsTo('views.publish').length;
  const ack = await rig.send.event(appHomeOpenedEnvelope({ userId }));
  expect(ack.status).toBe(200);
  const call = await waitFor(() => rig.slack.callsTo('views.publish').slice(before).find((c) => c.response.ok === true), { timeoutMs: 10_000 });
  expect(call.params.user_id).toBe(userId);
  return rig.slack.views.home(userId)!;
}
const shown = (view: JsonObject) => visibleText({ blocks: view.blocks });

describe('App Home', () => {
  it('the manifest subscribes to app_home_opened and enables the Home tab, asking for no new scope', () => {
    const m = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as JsonObject & { features: JsonObject; settings: JsonObject };
    expect((m.settings.event_subscriptions as JsonObject).bot_events).toContain('app_home_opened');
    expect((m.features.app_home as JsonObject).home_tab_enabled).toBe(true);
  });

  it('an admin: usage, their own request, approvals waiting from others, watches, subscriptions, everyone’s activity', async () => {
    const before = rig.clock.now();
    const view = await openHome(BOB.id);
    const after = rig.clock.now();
    expect(view.type).toBe('home');
    // When it was read, as a Slack date with a UTC fallback: true however late it is seen.
    const read = /Read <!date\^(\d+)\^\{date_short_pretty\} \{time\}\|([^>]+)>/.exec(JSON.stringify(view.blocks));
    expect(read).not.toBeNull();
    const at = Number(read![1]) * 1000;
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(after);
    expect(read![2]).toBe(`${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect((view.blocks as unknown[]).length).toBeLessThanOrEqual(100);
    const text = shown(view);
    expect(text).toMatch(/here you are an admin/);
    expect(text).toMatch(/Account usage[\s\S]*servers \d+ · CPU/);
    expect(text).toMatch(/Approvals you may give[\s\S]*\/cloud server reinstall.* by <@UALICE0001>.*waits for approval/);
    expect(text).toMatch(/Active watches[\s\S]*server `HOSTILEq7/);
    expect(text).toMatch(/Subscriptions[\s\S]*<#COPS000001>: server `HOSTILEq7/);
    expect(text).toMatch(/Recent activity[\s\S]*<@UCAROL0003> `\/cloud account usage` — succeeded/);
    // Bob's rename is his own, waiting for his Confirm: not an approval.
    expect(text).toMatch(/Your requests waiting[\s\S]*\/cloud server rename[\s\S]*Approvals you may give/);
    expect(text.split('Approvals you may give')[1]).not.toMatch(/server rename/);
  });

  it('the requester sees their request waiting, not as an approval of their own', async () => {
    const text = shown(await openHome(ALICE.id));
    expect(text).toMatch(/Your requests waiting[\s\S]*\/cloud server reinstall[^\n]*waits for approval/);
    expect(text).not.toMatch(/Approvals you may give[\s\S]*server reinstall/);
  });

  it('a viewer sees no approvals and only their own activity; the audit button is an admin’s only', async () => {
    const view = await openHome(CAROL.id);
    const text = shown(view);
    expect(text).toMatch(/here you are a viewer/);
    expect(text).not.toMatch(/Approvals you may give|server reinstall/);
    expect(text).toMatch(/Nothing of yours waits/);
    const activity = text.split('Your recent activity')[1] ?? '';
    expect(activity).toMatch(/`\/cloud account usage` — succeeded/);
    expect(activity).not.toMatch(/<@/);
    expect(text).not.toMatch(/\nRecent activity|Audit trail/);
    expect(text).toMatch(/Account usage\n/);
  });

  it('hostile values stay inert: no live mention, link or formatting from them', async () => {
    for (const user of [ALICE.id, BOB.id, CAROL.id]) {
      const view = await openHome(user);
      const findings = checkPayload({ blocks: view.blocks }, { users: [ALICE.id, BOB.id, CAROL.id], channels: [OPS_CHANNEL.id], url: () => false, marker: HOSTILE_MARKER }, `home ${user}`);
      expect(findings).toEqual([]);
      expect(JSON.stringify(view)).not.toContain('<!channel>');
    }
  });

  it('the Messages tab gets no view', async () => {
    const before = rig.slack.callsTo('views.publish').length;
    const ack = await rig.send.event(appHomeOpenedEnvelope({ userId: ALICE.id, tab: 'messages' }));
    expect(ack.status).toBe(200);
    await rig.command('help', { userId: ALICE.id }); // a later request, so the event was handled by then
    expect(rig.slack.callsTo('views.publish').length).toBe(before);
  });

  it('a button runs the read as the clicker and answers in their DM with the app', async () => {
    const view = await openHome(CAROL.id);
    const dm = `D${CAROL.id.slice(1)}`.slice(0, 11);
    const before = rig.slack.messages.inChannel(dm).length;
    const ack = await rig.send.interaction(blockActionsPayload({ view: { id: String(view.id), type: 'home', blocks: view.blocks as unknown[] }, actionId: 'home_run:0', userId: CAROL.id }));
    expect(ack.status).toBe(200);
    const answer = await waitFor(() => rig.slack.messages.inChannel(dm).slice(before).at(-1), { timeoutMs: 10_000 });
    expect(visibleText({ text: answer.text, blocks: answer.blocks })).toMatch(/Account usage[\s\S]*CPU cores/);
    const entries = await waitFor(async () => {
      const list = await rig.store.audit.list({ userId: CAROL.id, limit: 5 });
      return list.length >= 2 ? list : undefined;
    });
    expect(entries[0]).toMatchObject({ opId: 'account.usage', outcome: 'succeeded', channelId: null });
  });

  it('a forged button naming a change does nothing', async () => {
    const view = await openHome(BOB.id);
    const blocks = structuredClone(view.blocks) as JsonObject[];
    const actionsBlock = blocks.find((b) => b.type === 'actions')! as { elements: JsonObject[] };
    actionsBlock.elements[0]!.value = JSON.stringify({ op: 'server.rename', args: { server: '101', name: 'forged' } });
    const before = rig.mutations().length;
    await rig.send.interaction(blockActionsPayload({ view: { id: String(view.id), type: 'home', blocks }, actionId: 'home_run:0', userId: BOB.id }));
    const dm = `D${BOB.id.slice(1)}`.slice(0, 11);
    await waitFor(() => rig.slack.messages.inChannel(dm).find((m) => /could not be read/.test(m.text)), { timeoutMs: 10_000 });
    expect(rig.mutations().length).toBe(before);
  });
});
