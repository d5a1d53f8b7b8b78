/**
 * What the rendering layer hands out. `Block` is branded like `Mrkdwn`: only the builders in
 * `blocks.ts` make one, so no code outside `src/views/` can put hand-written Block Kit (and
 * with it unescaped outside text) into a message.
 */
import type { MaintenanceWindow } from '../store/maintenance-store.js';
import type { types } from '@slack/bolt';
import type { Mrkdwn } from './mrkdwn.js';

declare const blockBrand: unique symbol;
export type Block = types.KnownBlock & { readonly [blockBrand]: true };

/** A rendered answer: `text` is the notification/fallback text (Slack parses it as mrkdwn too), `blocks` the body. */
export interface Reply {
  text: Mrkdwn;
  blocks: Block[];
}

/** What a renderer gets besides the result: the moment to measure "3 hours ago" from. */
export interface ViewContext {
  now: number;
  /** The account the result came from (page buttons read the next page from it). */
  account?: string;
  /** The default account's name when messages name accounts (lists of watches show theirs). */
  namedDefaultAccount?: string;
  /** Maintenance windows in force on this account (status answers mark what they cover). */
  maintenance?: MaintenanceWindow[];
  /** For entries with a `pageArg`: the page asked for, and how to ask for another (pager.ts `pagedLines`). */
  pages?: ListPaging;
}

/**
 * The page of a whole list asked for, and how to ask for another: run-operation builds it for
 * every entry with a `pageArg` (operations/command-text.ts), so the view stays data → blocks.
 */
export interface ListPaging {
  /** The page asked for, 1 when none was. */
  page: number;
  /** The command that shows page `p`, as a person types it: `/cloud sg show 7 --page 3`. */
  command(page: number): string;
  /** A Previous/Next button's value for page `p` (`PageButtonValue`, as `buildPager` writes it). */
  buttonValue(page: number): string;
}
