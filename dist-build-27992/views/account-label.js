import { context, LIMITS } from './blocks.js';
import { cutMrkdwn, md, trusted, val } from './mrkdwn.js';
/** Account names are at most 30 characters; anything longer is cut, not trusted. */
const NAME_MAX = 60;
export const accountValue = (account) => val(account, NAME_MAX);
/** A context line: "Account: `prod`". */
export function buildAccountNote(account) {
    return context(md `Account: ${accountValue(account)}`);
}
/**
 * The reply with its account named: a note block at the end, and " (account `prod`)" after the
 * text. Unchanged when there is no label to show (one account only).
 */
export function withAccount(reply, account) {
    if (account === undefined)
        return reply;
    const suffix = md ` (account ${accountValue(account)})`;
    const text = md `${cutMrkdwn(reply.text, LIMITS.messageText - suffix.length)}${suffix}`;
    return { text, blocks: withNote(reply.blocks, account) };
}
/** The note appended; at Slack's 50 blocks, the last block makes room (the text still names it). */
function withNote(blocks, account) {
    const note = buildAccountNote(account);
    if (blocks.length < LIMITS.blocksPerMessage)
        return [...blocks, note];
    // A full reply ending in a context line takes the note as one more element of it.
    const last = blocks[blocks.length - 1];
    if (last.type === 'context' && last.elements.length < LIMITS.contextElements) {
        // Its elements were made by `context` (mrkdwn this layer wrote), so they are re-branded as such.
        const texts = last.elements.flatMap((e) => (e.type === 'mrkdwn' ? [trusted(e.text)] : []));
        if (texts.length === last.elements.length)
            return [...blocks.slice(0, -1), context(...texts, md `Account: ${accountValue(account)}`)];
    }
    // Else it keeps its last block (buttons, a pager) and gives up the one before it.
    const keep = blocks.slice(0, LIMITS.blocksPerMessage - 2);
    return [...keep, note, blocks[blocks.length - 1]];
}
//# sourceMappingURL=account-label.js.map