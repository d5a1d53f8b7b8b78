/**
 * Driving the issue-23 surfaces over signed HTTP, for the e2e and hostile-output tests: use
 * the "Act on this" shortcut on a message, press a button of its modal, share links (a person
 * posts them; Slack sends link_shared), press a button of an unfurl card.
 */
import { expect } from 'vitest';
import { SEED_WORKER_UUID } from '../../src/sandbox/seed.js';
import { ACT_CALLBACK } from '../../src/views/act-on-this-views.js';
import { tsAt } from '../rig/ids.js';
import type { JsonObject } from '../rig/json.js';
import { blockActionsPayload } from '../rig/payloads.js';
import { linkSharedEnvelope, messageShortcutPayload } from '../rig/surface-payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, BOB, OPS_CHANNEL } from '../rig/workspace.js';
import { visibleText, type BotRig } from './bot-rig.js';

export const PANEL = 'https://panel.example.com';

/** Teaches the bot names the way a team would: answers that show them (server ips, sg show, worker status). */
export async function teachNames(r: BotRig, channelId = OPS_CHANNEL.id): Promise<void> {
  await r.command('server ips 101', { channelId });
  await r.command('sg show 7', { channelId });
  await r.command(`worker status ${SEED_WORKER_UUID}`, { channelId });
  await waitFor(async () => ((await r.store.known.list('default', 'worker', 5)).length && (await r.store.known.list('default', 'sg', 5)).length) || undefined, { timeoutMs: 15_000 });
}

export interface OpenedModal {
  view: JsonObject;
  id: string;
  said: string;
  cloud: string[];
}

/** Uses the shortcut on a message; resolves with the modal it opened (as Slack stores it). */
export async function shortcut(r: BotRig, message: string, userId = ALICE.id, channelId = OPS_CHANNEL.id): Promise<OpenedModal> {
  const opened = r.slack.callsTo('views.open').length;
  const before = r.sandbox.requests.length;
  const ack = await r.send.interaction(messageShortcutPayload({ callbackId: ACT_CALLBACK, message: { text: message, user: BOB.id }, userId, channelId }));
  expect(ack.status).toBe(200);
  const call = await waitFor(() => r.slack.callsTo('views.open')[opened], { timeoutMs: 15_000 });
  expect(call.response.ok).toBe(true);
  const stored = (call.response as unknown as { view: JsonObject }).view;
  return { view: stored, id: String(stored.id), said: visibleText({ blocks: stored.blocks as unknown[] }), cloud: r.sandbox.requests.slice(before).map((q) => `${q.method} ${q.rawPath}`) };
}

const elements = (blocks: JsonObject[]) => blocks.flatMap((b) => (b.type === 'actions' ? (b.elements as JsonObject[]) : []));

/** The labels of the buttons in a modal or card. */
export const buttonsOf = (view: { blocks?: unknown }): string[] => elements(view.blocks as JsonObject[]).map((e) => String((e.text as JsonObject).text));

/** Presses a modal button by action id; resolves with the text of the modal's next version. */
export async function pressInModal(r: BotRig, modal: { view: JsonObject; id: string }, actionId: string, userId = ALICE.id): Promise<string> {
  const versions = r.slack.views.get(modal.id)!.versions.length;
  await r.send.interaction(blockActionsPayload({ actionId, view: { ...modal.view, id: modal.id }, userId }));
  const next = await waitFor(() => r.slack.views.get(modal.id)!.versions[versions], { timeoutMs: 15_000 });
  return visibleText({ blocks: next.blocks as unknown[] });
}

/** Presses the button `label` under the resource whose line shows `id`. */
export async function press(r: BotRig, modal: { view: JsonObject; id: string }, id: string, label: string, userId = ALICE.id): Promise<string> {
  const blocks = modal.view.blocks as JsonObject[];
  const line = blocks.findIndex((b) => b.type === 'section' && String((b.text as JsonObject).text).endsWith(`· \`${id}\``));
  const row = blocks[line + 1];
  const element = row?.type === 'actions' ? (row.elements as JsonObject[]).find((e) => (e.text as JsonObject).text === label) : undefined;
  if (!element) throw new Error(`no button ${label} under ${id}`);
  return pressInModal(r, modal, String(element.action_id), userId);
}

let seq = 0;

/** A person posts `urls` in a channel; Slack sends link_shared. Resolves once the bot's work is done. */
export async function share(r: BotRig, urls: string[], opts: { userId?: string; channelId?: string; source?: 'composer'; botIsMember?: boolean | null } = {}) {
  const channelId = opts.channelId ?? OPS_CHANNEL.id;
  const ts = tsAt(Date.now(), ++seq);
  r.slack.shareLinks(channelId, ts, urls);
  const calls = r.slack.callsTo('chat.unfurl').length;
  const before = r.sandbox.requests.length;
  const ack = await r.send.event(linkSharedEnvelope({ urls, messageTs: ts, channelId, ...(opts.userId ? { userId: opts.userId } : {}), ...(opts.source ? { source: opts.source } : {}), ...(opts.botIsMember !== undefined ? { botIsMember: opts.botIsMember } : {}) }));
  expect(ack.status).toBe(200);
  await r.bot.settled();
  return { ts, channelId, calls: r.slack.callsTo('chat.unfurl').slice(calls), cloud: r.sandbox.requests.slice(before).map((q) => `${q.method} ${q.rawPath}`) };
}

export const cardOf = (r: BotRig, channel: string, ts: string, url: string) => r.slack.unfurls(channel, ts)?.[url];

/** Presses the button `label` on an unfurl card as `userId`; resolves with the private answer. */
export async function pressOnCard(r: BotRig, shared: { channelId: string; ts: string }, url: string, label: string, userId = ALICE.id) {
  const card = cardOf(r, shared.channelId, shared.ts, url)!;
  const button = elements(card.blocks as JsonObject[]).find((e) => (e.text as JsonObject).text === label);
  if (!button) throw new Error(`no button ${label} on the card of ${url}`);
  const responseUrl = r.responses.next();
  await r.send.interaction(
    blockActionsPayload({ actionId: String(button.action_id), message: { channel: shared.channelId, ts: shared.ts, text: '', blocks: card.blocks as unknown[] }, userId, channelId: shared.channelId, responseUrl }),
  );
  return waitFor(() => r.responses.postsTo(responseUrl)[0], { timeoutMs: 15_000 });
}
