/**
 * Text the bot computed itself (a duration, a state word, a catalog label, a role name) as
 * mrkdwn: escaped and kept to one line, so even a slip cannot make it a mention or a link.
 * Never for text from the cloud or from a person: that goes through `val`.
 */
import { escapeEntities, oneLine, trusted, val } from './mrkdwn.js';
export function words(text) {
    return trusted(escapeEntities(oneLine(text)));
}
/**
 * A value the spec names (a status such as `active` or `installing`) as our own word, `_` read
 * as a space; anything else the cloud says is shown as a value (`val`).
 */
export function statusWord(value, known) {
    return value != null && known.has(value) ? words(value.replace(/_/g, ' ')) : val(value);
}
//# sourceMappingURL=words.js.map