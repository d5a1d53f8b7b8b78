/**
 * Secrets shown to one person only (posted ephemerally by the caller): the root password a
 * reinstall returns, or the one the watch reads once the install is over. One builder for
 * both, so the wording and the escaping cannot drift apart.
 */
import { context, section } from './blocks.js';
import { md, val } from './mrkdwn.js';
import type { Reply } from './types.js';

/**
 * The password is a value like any other (escaped, one line): `&`, `<` and `>` show as
 * themselves; a backtick, which cannot appear inside inline code, shows as a look-alike.
 */
export function buildRootPasswordReply(server: string, password: string): Reply {
  return {
    text: md`New root password of server ${val(server)} (only you can see this)`,
    blocks: [
      section(md`:key: New root password of server ${val(server)}: ${val(password)}`),
      context(md`Only you can see this, and it will not be shown again. The bot keeps no copy.`),
    ],
  };
}
