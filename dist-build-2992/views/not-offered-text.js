import { join, md, val } from './mrkdwn.js';
import { words } from './words.js';
/** The answer to `/cloud ssh-key create`: not "has no", but that the API cannot, and where it is done. */
export function notOfferedText(n) {
    return md `The provider’s API cannot ${words(n.what)}, so the bot cannot either. ${words(n.instead)}`;
}
/** The line `/cloud help <resource>` ends with: each verb the API does not offer. */
export function notOfferedHelpLine(list) {
    if (!list.length)
        return undefined;
    const parts = list.map((n) => md `${val(n.verbs[0])} (it cannot ${words(n.what)}: ${words(n.instead)})`);
    return md `Not offered by the provider’s API: ${join(parts, '; ')}`;
}
//# sourceMappingURL=not-offered-text.js.map