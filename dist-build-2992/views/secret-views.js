/**
 * Secrets shown to one person only (posted ephemerally by the caller): the root password a
 * reinstall returns, or the one the watch reads once the install is over. One builder for
 * both, so the wording and the escaping cannot drift apart.
 */
import { context, plainSection, section } from './blocks.js';
import { md, oneLine, val } from './mrkdwn.js';
/** Whether inline code (`val`) shows this text exactly: no backtick, one line, not cut, not blank. */
export const showsExactlyAsCode = (s) => !s.includes('`') && oneLine(s) === s && s.trim() !== '';
/**
 * The password must be shown exactly: a wrong character locks the person out. Inline code
 * shows `&`, `<` and `>` as themselves but cannot hold a backtick (`val` would swap in a
 * look-alike), so such a password goes on its own plain-text line, which Slack does not parse.
 */
export function buildRootPasswordReply(server, password) {
    const intro = md `:key: New root password of server ${val(server)}`;
    return {
        text: md `New root password of server ${val(server)} (only you can see this)`,
        blocks: [
            ...(showsExactlyAsCode(password) ? [section(md `${intro}: ${val(password)}`)] : [section(md `${intro}:`), plainSection(password)]),
            context(md `Only you can see this, and it will not be shown again. The bot keeps no copy.`),
        ],
    };
}
//# sourceMappingURL=secret-views.js.map