/**
 * The "Act on this" modal (issue 23): the resources a message names, each with the commands
 * this person may run on it in the channel, as buttons. Names come from the cloud and the
 * message from a person: both only ever appear as values (`val`), never as markup.
 */
import type { ModalView } from './modal-views.js';
import { buildModalFromReply } from './modal-views.js';
import { actions, button, context, section } from './blocks.js';
import { channelRef, md, plain, val, type Mrkdwn } from './mrkdwn.js';
import type { Block, Reply } from './types.js';

export const ACT_CALLBACK = 'act_on_this';
/** Buttons are `act_on_this_run:<resource>:<choice>`: action ids are unique within a view. */
export const ACT_RUN = 'act_on_this_run';
export const ACT_TITLE = 'Act on this';

type KindWord = 'server' | 'sg' | 'worker';
const KIND: Record<KindWord, Mrkdwn> = { server: md`Server`, sg: md`Security group`, worker: md`Worker` };

export interface ActItemView {
  kind: KindWord;
  id: string;
  name: string | null;
  choices: { verb: string; tier: string; text: string; value: string }[];
}

/** What the modal remembers of where it was opened (signed by Slack when it comes back). */
export interface ActMetadata {
  channel: string;
}

function itemBlocks(item: ActItemView, i: number): Block[] {
  const named = item.name && item.name !== item.id ? md` ${val(item.name)}` : md``;
  const head = section(md`*${KIND[item.kind]}*${named} · ${val(item.id)}`);
  if (item.choices.length === 0) return [head, context(md`Nothing you may run on it in this channel.`)];
  const buttons = item.choices.map((c, j) =>
    button({ text: c.verb, actionId: `${ACT_RUN}:${i}:${j}`, value: c.value, ...(c.tier === 'destroy' ? { style: 'danger' as const } : {}) }),
  );
  return [head, actions(`act_${i}`, buttons)];
}

/** The modal listing what the message names (or saying truthfully that it names nothing the bot knows). */
export function buildActOnThisModal(items: readonly ActItemView[], channelId: string): ModalView {
  const where = channelRef(channelId);
  const blocks: Block[] = items.length
    ? [section(md`This message names ${items.length === 1 ? md`one resource` : md`${items.length} resources`} the bot knows. What you may run on each in ${where}:`),
        ...items.flatMap(itemBlocks),
        context(md`Each runs as ${val('/cloud')} would here: a read answers you in this window, a change posts its confirmation card in the channel.`),
      ]
    : [
        section(md`This message names no server, security group or worker the bot knows on this channel’s account.`),
        context(md`The bot knows those it has seen in an answer (see ${val('/cloud server known')}); a name, uuid, short uuid, worker address or ${val('server 101')} in the message is found once it does.`),
      ];
  return {
    type: 'modal',
    callback_id: ACT_CALLBACK,
    title: { type: 'plain_text', text: ACT_TITLE, emoji: true },
    close: { type: 'plain_text', text: 'Close', emoji: true },
    private_metadata: JSON.stringify({ channel: channelId } satisfies ActMetadata),
    blocks: blocks.slice(0, 100),
  };
}

/** What a choice came to, shown in the modal: the read's answer, a refusal, or where the change went. */
export function buildActResult(command: string, reply: Reply | undefined, channelId: string): ModalView {
  const ran = context(md`Ran ${val(`/cloud ${command}`)} in ${channelRef(channelId)}.`);
  // No reply: the change's status message says where it stands (waiting for a Confirm, or
  // already sent when it needs none, or started before by a first click); this must not guess.
  const body = reply ? reply.blocks : [section(md`Its status message is in ${channelRef(channelId)}: it shows where the change stands, and its Confirm when it needs one.`)];
  // A reply made of text alone (no blocks) is still shown.
  const shown = body.length ? body : [section(reply!.text)];
  return buildModalFromReply(plain(ACT_TITLE, 24), [ran, ...shown]);
}

/** The shortcut was refused here (the channel's policy, the person's role): `/cloud`'s own words. */
export function buildActRefused(reply: Reply): ModalView {
  return buildModalFromReply(ACT_TITLE, reply.blocks.length ? reply.blocks : [section(reply.text)]);
}
