/**
 * The hostile-output tour of the issue-23 surfaces (hostile-output.test.ts and its unescaped
 * twin): with hostile names and fields in the cloud, the bot learns the names, a message full
 * of hostile text and those names gets "Act on this" (the modal, then each read pressed), and
 * panel links to a server, a worker and a group are shared (the unfurl cards, then a card's
 * read pressed). Every Slack call and response_url post is then checked by the caller.
 */
import { SEED_WORKER_UUID } from '../../src/sandbox/seed.js';
import { ALICE, CAROL } from '../rig/workspace.js';
import type { BotRig } from './bot-rig.js';
import { buttonsOf, PANEL, pressInModal, pressOnCard, share, shortcut, teachNames } from './surface-rig.js';
import type { JsonObject } from '../rig/json.js';

export interface SurfacesOutcome {
  /** Resources the modal listed, buttons pressed in it, and unfurl cards attached. */
  listed: number;
  pressed: number;
  cards: number;
}

export async function surfacesTour(rig: BotRig, values: readonly string[]): Promise<SurfacesOutcome> {
  await teachNames(rig);
  await rig.bot.settled();
  const known = (await Promise.all((['server', 'sg', 'worker'] as const).map((k) => rig.store.known.list('default', k, 20)))).flat();
  const names = known.flatMap((r) => r.names.map((n) => n.name));
  // An alert-like message: ids in context, the hostile names the bot learnt, hostile text. The
  // ids come first: the shortcut reads only the first 12,000 characters, and values may be long.
  const message = ['sg 7', 'server 101', SEED_WORKER_UUID, ...names, ...values].join(' · ');
  const modal = await shortcut(rig, message, ALICE.id);
  const reads = new Set(['status', 'ips', 'show', 'backup list']);
  const ids = (modal.view.blocks as JsonObject[]).flatMap((b) => (b.type === 'actions' ? (b.elements as JsonObject[]) : [])).filter((e) => reads.has(String((e.text as JsonObject).text))).map((e) => String(e.action_id));
  for (const id of ids.slice(0, 6)) await pressInModal(rig, modal, id);
  // A viewer's modal too (fewer buttons, the same names).
  await shortcut(rig, message, CAROL.id);

  const urls = [`${PANEL}/servers/101`, `${PANEL}/workers/${SEED_WORKER_UUID}`, `${PANEL}/security-groups/7`];
  const shared = await share(rig, urls);
  const cards = Object.keys(rig.slack.unfurls(shared.channelId, shared.ts) ?? {}).length;
  if (cards) await pressOnCard(rig, shared, urls[0]!, 'ips', CAROL.id);
  return { listed: buttonsOf(modal.view).length ? (modal.view.blocks as JsonObject[]).filter((b) => b.type === 'actions').length : 0, pressed: Math.min(ids.length, 6), cards };
}
