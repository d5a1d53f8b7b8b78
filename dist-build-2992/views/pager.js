import { actions, button, context } from './blocks.js';
import { md } from './mrkdwn.js';
import { words } from './words.js';
export const PAGE_ACTION_PREV = 'cloud_page_prev';
export const PAGE_ACTION_NEXT = 'cloud_page_next';
/** `noun` is the bot's own word for the items ("backups"). */
export function buildPager(opId, args, pageArg, meta, noun, account) {
    const { current_page: page, last_page: last } = meta;
    const total = meta.total != null ? md ` · ${meta.total} ${words(noun)}` : md ``;
    const blocks = [context(md `Page ${page} of ${Math.max(last, 1)}${total}`)];
    const buttons = [];
    const value = (p) => JSON.stringify({ op: opId, args: { ...args, [pageArg]: p }, ...(account ? { account } : {}) });
    if (page > 1)
        buttons.push(button({ text: '← Previous', actionId: PAGE_ACTION_PREV, value: value(Math.min(page - 1, last)) }));
    if (page < last)
        buttons.push(button({ text: 'Next →', actionId: PAGE_ACTION_NEXT, value: value(page + 1) }));
    if (buttons.length)
        blocks.push(actions('cloud_pager', buttons));
    return blocks;
}
//# sourceMappingURL=pager.js.map