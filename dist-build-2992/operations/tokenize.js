/**
 * Splits the text of a slash command into words. Slack sends the text HTML-escaped
 * (`&amp;`, `&lt;`, `&gt;`: https://api.slack.com/reference/surfaces/formatting#escaping),
 * and its clients turn straight quotes into curly ones and `--` into a dash, so all of
 * those are read back as the person meant them.
 */
/**
 * The longest command text the bot reads: Slack's own limit on a slash command's text (4,000
 * characters), which an alias's expansion may not exceed either. Longer is refused unread.
 */
export const COMMAND_TEXT_MAX = 4000;
const QUOTES = { '"': '"', "'": "'", '“': '”', '‘': '’', '”': '”' };
export function unescapeSlack(text) {
    return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}
export class TokenizeError extends Error {
    opening;
    constructor(
    /** The words where the unclosed quote opens (the person's own text). */
    opening) {
        super(`A quote opened at “${opening}” is never closed.`);
        this.opening = opening;
    }
}
export function tokenize(input) {
    const text = unescapeSlack(input).replace(/\u00a0/g, ' ');
    const words = [];
    let i = 0;
    while (i < text.length) {
        while (i < text.length && /\s/.test(text[i]))
            i++;
        if (i >= text.length)
            break;
        let word = '';
        let quoted = false;
        while (i < text.length && !/\s/.test(text[i])) {
            const close = QUOTES[text[i]];
            if (close) {
                const end = text.indexOf(close, i + 1);
                if (end < 0)
                    throw new TokenizeError(text.slice(i, i + 12));
                word += text.slice(i + 1, end);
                quoted = true;
                i = end + 1;
            }
            else {
                word += text[i];
                i++;
            }
        }
        // An em or en dash where `--` was typed (autocorrect), but only outside quotes.
        if (!quoted)
            word = word.replace(/^[—–]/, '--');
        words.push({ value: word, quoted });
    }
    return words;
}
//# sourceMappingURL=tokenize.js.map