/** Views of SSH keys. The public key is shortened to its type and tail, enough to recognise it. */
import type { SshKey } from '../cloud/schemas.js';
import type { Reply, ViewContext } from '../operations/types.js';
import { code, esc, header, lineSections, section } from './blocks.js';
import { ago } from './format.js';

export function shortKey(publicKey: string | null | undefined): string {
  if (!publicKey) return '';
  const [type, body] = publicKey.trim().split(/\s+/);
  return body ? `${type} …${body.slice(-12)}` : publicKey.slice(0, 24);
}

export function buildSshKeys(keys: SshKey[], view: ViewContext): Reply {
  if (keys.length === 0) return { text: 'No SSH keys.', blocks: [section('The account has no SSH keys.')] };
  const lines = keys.map((k) => {
    const parts = [`• ${code(k.id)} *${esc(k.name ?? 'unnamed')}*`];
    if (k.public_key) parts.push(code(shortKey(k.public_key)));
    if (k.created_at) parts.push(`added ${ago(k.created_at, view.now)}`);
    return parts.join(' · ');
  });
  return { text: `${keys.length} SSH keys`, blocks: [header('SSH keys'), ...lineSections(lines, 48)] };
}
