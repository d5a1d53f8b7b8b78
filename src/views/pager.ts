/**
 * Previous/Next buttons for paginated lists. The button carries the operation and its
 * arguments with the page changed; the click handler validates them again like typed input.
 */
import type { PageMeta } from '../cloud-api/schemas.js';
import type { Block, ListPaging } from './types.js';
import { actions, button, context, lineSections, section } from './blocks.js';
import { md, val, type Mrkdwn } from './mrkdwn.js';
import { words } from './words.js';

export type { ListPaging } from './types.js';

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

/** How many items a page of a list the cloud gives whole shows (`--page N` of `sg show`, `ssh-key list`…). */
export const LIST_PAGE_SIZE = 40;

/**
 * One page of a list the cloud gives whole, LIST_PAGE_SIZE lines, within `maxBlocks` blocks
 * (at least LIST_PAGE_SIZE + 2: every line alone in a section, the note, the buttons). A list
 * that fits on one page is shown as `lineSections` shows it. A longer one ends in a note — which
 * lines these are of how many, and the command that shows the next (or the previous) — and
 * Previous/Next buttons; a page past the last says so and offers the last. Without `paging`
 * (a caller that cannot page) the note only counts. `noun` is the plural ("rules").
 */
export function pagedLines(lines: Mrkdwn[], paging: ListPaging | undefined, noun: Mrkdwn, maxBlocks = LIST_PAGE_SIZE + 2): Block[] {
  const page = paging?.page ?? 1;
  const total = lines.length;
  if (page === 1 && total <= LIST_PAGE_SIZE) return lineSections(lines, maxBlocks);
  const last = Math.max(1, Math.ceil(total / LIST_PAGE_SIZE));
  const how = (p: number, what: Mrkdwn) => (paging ? md`; ${val(paging.command(p))} shows ${what}` : md``);
  const buttons = (prev: number | undefined, next: number | undefined): Block[] => {
    if (!paging) return [];
    const b = [];
    if (prev !== undefined) b.push(button({ text: '← Previous', actionId: PAGE_ACTION_PREV, value: paging.buttonValue(prev) }));
    if (next !== undefined) b.push(button({ text: 'Next →', actionId: PAGE_ACTION_NEXT, value: paging.buttonValue(next) }));
    return b.length ? [actions('cloud_pager', b)] : [];
  };
  if (page > last) {
    const where = paging ? md` ${val(paging.command(last))} shows the last.` : md``;
    return [section(md`There is no page ${page}: the ${total} ${noun} fill ${last === 1 ? md`1 page` : md`${last} pages`}.${where}`), ...buttons(last, undefined)];
  }
  const from = (page - 1) * LIST_PAGE_SIZE;
  const shown = lines.slice(from, from + LIST_PAGE_SIZE);
  const to = from + shown.length;
  const note = page < last ? md`Showing ${from + 1}–${to} of ${total} ${noun}${how(page + 1, md`the next`)}.` : md`Showing ${from + 1}–${to} of ${total} ${noun}, the last page${how(page - 1, md`the previous`)}.`;
  // The note is one more line: with a page of LIST_PAGE_SIZE lines it is never cut away.
  return [...lineSections([...shown, md`_${note}_`], maxBlocks - 1), ...buttons(page > 1 ? page - 1 : undefined, page < last ? page + 1 : undefined)];
}
