/** Views of SSH keys. The public key is shortened to its type and tail, enough to recognise it. */
import type { SshKey } from '../cloud-api/schemas.js';
import type { ViewContext } from './types.js';
import type { Reply } from './types.js';
import { header, lineSections, section } from './blocks.js';
import { ago } from './format.js';
import { codeBlock, join, md, val, type Mrkdwn } from './mrkdwn.js';
import { pagedLines } from './pager.js';

/** Plain text: the caller shows it as a value. */
export function shortKey(publicKey: string | null | undefined): string {
  if (!publicKey) return '';
  const [type, body] = publicKey.trim().split(/\s+/);
  return body ? `${type} …${body.slice(-12)}` : publicKey.slice(0, 24);
}

export function buildSshKeys(keys: SshKey[], view: ViewContext): Reply {
  if (keys.length === 0) return { text: md`No SSH keys.`, blocks: [section(md`The account has no SSH keys.`)] };
  const lines = keys.map((k) => {
    const parts: Mrkdwn[] = [md`• ${val(k.id)} ${k.name ? val(k.name) : md`_unnamed_`}`];
    if (k.public_key) parts.push(val(shortKey(k.public_key)));
    if (k.created_at) parts.push(md`added ${ago(k.created_at, view.now)}`);
    return join(parts, ' · ');
  });
  return { text: md`${keys.length} SSH keys`, blocks: [header('SSH keys'), ...pagedLines(lines, view.pages, md`SSH keys`)] };
}

/** One key, found in the account's list (`key` undefined: the account has none with that id). */
export function buildSshKey(id: number, key: SshKey | undefined, view: ViewContext): Reply {
  if (!key) return { text: md`No SSH key ${val(id)}.`, blocks: [section(md`The account has no SSH key ${val(id)}. \`/cloud ssh-key list\` shows them.`)] };
  const lines: Mrkdwn[] = [md`*Name* ${key.name ? val(key.name) : md`_unnamed_`}`];
  if (key.created_at) lines.push(md`*Added* ${ago(key.created_at, view.now)}`);
  // Whole, in a code block, so it can be copied (a key is up to a few hundred characters).
  const pub = key.public_key ? [section(md`*Public key*\n${codeBlock(key.public_key)}`)] : [];
  return { text: md`SSH key ${val(id)}`, blocks: [header(`SSH key ${id}`), ...lineSections(lines, 48), ...pub] };
}
