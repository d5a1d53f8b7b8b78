/**
 * Previous/Next buttons for paginated lists. The button carries the operation and its
 * arguments with the page changed; the click handler validates them again like typed input.
 */
import type { PageMeta } from '../cloud-api/schemas.js';
import type { Block } from './types.js';
import { actions, button, context } from './blocks.js';
import { md } from './mrkdwn.js';
import { words } from './words.js';

export const PAGE_ACTION_PREV = 'cloud_page_prev';
export const PAGE_ACTION_NEXT = 'cloud_page_next';

export interface PageButtonValue {
  op: string;
  args: Record<string, unknown>;
  /** The account the list came from: the next page is read from the same one. */
  account?: string;
}

/** `noun` is the bot's own word for the items ("backups"). */
export function buildPager(opId: string, args: Record<string, unknown>, pageArg: string, meta: PageMeta, noun: string, account?: string): Block[] {
  const { current_page: page, last_page: last } = meta;
  const total = meta.total != null ? md` · ${meta.total} ${words(noun)}` : md``;
  const blocks: Block[] = [context(md`Page ${page} of ${Math.max(last, 1)}${total}`)];
  const buttons = [];
  const value = (p: number) => JSON.stringify({ op: opId, args: { ...args, [pageArg]: p }, ...(account ? { account } : {}) } satisfies PageButtonValue);
  if (page > 1) buttons.push(button({ text: '← Previous', actionId: PAGE_ACTION_PREV, value: value(Math.min(page - 1, last)) }));
  if (page < last) buttons.push(button({ text: 'Next →', actionId: PAGE_ACTION_NEXT, value: value(page + 1) }));
  if (buttons.length) blocks.push(actions('cloud_pager', buttons));
  return blocks;
}
