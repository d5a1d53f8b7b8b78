/**
 * A link's unfurl card (issue 23): what the resource's read showed, under a line saying what
 * it is and when it was read, with that resource's reads as buttons. Public: built only from
 * a read's answer (already escaped) and ids; a button is checked for whoever presses it.
 */
import { actions, button, context } from './blocks.js';
import { md, val, type Mrkdwn } from './mrkdwn.js';
import type { Block, Reply } from './types.js';

export const UNFURL_READ = 'unfurl_read';
/** An attachment's blocks: the card stays well inside Slack's 50. */
const CARD_BLOCKS = 40;

const KIND: Record<'server' | 'sg' | 'worker', Mrkdwn> = { server: md`server`, sg: md`security group`, worker: md`worker` };

export interface UnfurlCardInput {
  kind: 'server' | 'sg' | 'worker';
  id: string;
  reply: Reply;
  reads: { label: string; value: string }[];
}

export function buildUnfurlCard(c: UnfurlCardInput): { blocks: Block[] } {
  // Only what reads as the answer: its own buttons (pages, watches) belong to the person who asked.
  const shown = c.reply.blocks.filter((b) => b.type === 'section' || b.type === 'context' || b.type === 'header' || b.type === 'divider');
  const head = context(md`cloudbot · live status of ${KIND[c.kind]} ${val(c.id)}, read when the link was shared`);
  const buttons = c.reads.map((r, i) => button({ text: r.label, actionId: `${UNFURL_READ}:${i}`, value: r.value }));
  const blocks = [head, ...shown.slice(0, CARD_BLOCKS)];
  if (buttons.length) blocks.push(actions('unfurl_reads', buttons), context(md`A button answers only whoever presses it, with what they may read here.`));
  return { blocks };
}
