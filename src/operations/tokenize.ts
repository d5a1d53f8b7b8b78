/**
 * Splits the text of a slash command into words. Slack sends the text HTML-escaped
 * (`&amp;`, `&lt;`, `&gt;`: https://api.slack.com/reference/surfaces/formatting#escaping),
 * and its clients turn straight quotes into curly ones and `--` into a dash, so all of
 * those are read back as the person meant them.
 */
import { unescapeEntities } from '../views/mrkdwn.js';

/**
 * The longest command text the bot reads: Slack's own limit on a slash command's text (4,000
 * characters), which an alias's expansion may not exceed either. Longer is refused unread.
 */
export const COMMAND_TEXT_MAX = 4000;

const QUOTES: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’', '”': '”' };

export class TokenizeError extends Error {
  constructor(
    /** The words where the unclosed quote opens (the person's own text). */
    readonly opening: string,
  ) {
    super(`A quote opened at “${opening}” is never closed.`);
  }
}

export interface Token {
  value: string;
  /**
   * A word that opens with a quote is always a value, never a flag (`"--not-a-flag"`). A quote
   * later in the word quotes only its value: `--name="nightly backup"` is the flag `--name`.
   */
  quoted: boolean;
}

export function tokenize(input: string): Token[] {
  // Slack escapes &, < and > in command text.
  const text = unescapeEntities(input).replace(/\u00a0/g, ' ');
  const words: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    if (i >= text.length) break;
    let word = '';
    const quoted = QUOTES[text[i]!] !== undefined;
    while (i < text.length && !/\s/.test(text[i]!)) {
      const close = QUOTES[text[i]!];
      if (close) {
        const end = text.indexOf(close, i + 1);
        if (end < 0) throw new TokenizeError(text.slice(i, i + 12));
        word += text.slice(i + 1, end);
        i = end + 1;
      } else {
        word += text[i];
        i++;
      }
    }
    // An em or en dash where `--` was typed (autocorrect), but only outside quotes.
    if (!quoted) word = word.replace(/^[—–]/, '--');
    words.push({ value: word, quoted });
  }
  return words;
}
