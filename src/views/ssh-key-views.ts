/** Views of SSH keys. The public key is shortened to its type and tail, enough to recognise it. */
import type { SshKey } from '../cloud-api/schemas.js';
import type { ViewContext } from './types.js';
import type { Reply } from './types.js';
import { header, lineSections, section } from './blocks.js';
import { ago } from './format.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';

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
  return { text: md`${keys.length} SSH keys`, blocks: [header('SSH keys'), ...lineSections(lines, 48)] };
}
