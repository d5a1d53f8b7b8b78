/**
 * The servers, groups and workers a piece of free text names (issue 23, "Act on this"): an
 * alert, a colleague's "web-1 is slow". Only resources the bot knows on the channel's account
 * are found — by full uuid, a server's short uuid, any of its names (a hostname also by its
 * first label, a worker by its fqdn once an answer showed it), one of a server's IP addresses
 * once `server ips` showed them (compared as addresses: domain/ip-address.ts), or a numeric id
 * written next to what it is ("server 101", "sg 7", "#101"). Text is only matched, never sent anywhere:
 * what comes back are ids from the store, validated again before any request.
 */
import { escapeRegExp } from '../regexp.js';
import { isServerId, isUuid } from '../cloud/ids.js';
import type { KnownKind, KnownResource, KnownResourceStore } from '../store/known-types.js';
import { KNOWN_KINDS } from '../store/known-types.js';
import { addressesIn } from '../domain/ip-address.js';

export interface FoundResource {
  kind: KnownKind;
  /** The id commands take (a server's numeric id when one was seen, else its uuid). */
  id: string;
  /** Its first name, for the person (outside text: escape it). */
  name: string | null;
}

/** Longer messages are read only this far: enough for any alert, bounded work per shortcut. */
export const TEXT_READ_MAX = 12_000;
/** At most this many resources are offered (a modal has 100 blocks). */
export const FOUND_MAX = 10;
/** Resources looked at per kind (the store's own cap). */
const LIST_LIMIT = 500;

/** Words that say a number is an id of that kind. */
const ID_WORDS: Record<KnownKind, string> = { server: 'server|srv|vm|host', sg: 'sg|security[ -]group|firewall|group', worker: 'worker' };

/** A handle as a whole word: not part of a longer name, host or id. */
function wordRe(handle: string): RegExp {
  return new RegExp(`(?<![A-Za-z0-9_.-])${escapeRegExp(handle)}(?![A-Za-z0-9_-]|\\.[A-Za-z0-9])`, 'i');
}

/** The strings the text may name a resource by. */
function handles(r: KnownResource): string[] {
  const out = new Set<string>();
  if (r.uuid && isUuid(r.uuid)) {
    out.add(r.uuid);
    if (r.kind === 'server') out.add(r.uuid.slice(0, 8));
  }
  if (isUuid(r.id)) out.add(r.id);
  for (const n of r.names) {
    if (n.field === 'ip') continue; // compared as addresses, never as text
    const name = n.name.trim();
    if (name.length < 2) continue;
    out.add(name);
    const label = name.split('.')[0]!;
    // `web-1` for `web-1.example.net`; a label too short or all digits says nothing.
    if (name.includes('.') && label.length >= 3 && !/^\d+$/.test(label)) out.add(label);
  }
  return [...out];
}

/** "server 101", "sg #7", "#101" (a bare `#` number is taken as a server id). */
function namesNumericId(text: string, kind: KnownKind, id: string): boolean {
  if (!/^\d+$/.test(id)) return false;
  const re = new RegExp(`(?:\\b(?:${ID_WORDS[kind]})\\s*#?\\s*${id}|${kind === 'server' ? `(?<![A-Za-z0-9_])#${id}` : '(?!)'})(?![0-9])`, 'i');
  return re.test(text);
}

/** The id commands take for a resource: numeric when seen, else its uuid (resolve-names' bestId). */
function commandId(r: KnownResource): string | undefined {
  if (r.kind === 'server') return isServerId(r.id) ? r.id : r.uuid && isServerId(r.uuid) ? r.uuid : undefined;
  if (r.kind === 'sg') return /^[1-9][0-9]{0,9}$/.test(r.id) ? r.id : undefined;
  return isUuid(r.id) ? r.id.toLowerCase() : undefined;
}

/** Every known resource the text names, in the order of kinds, most recently seen first; one entry per resource. */
export async function findResources(known: Pick<KnownResourceStore, 'list'> | undefined, account: string | null, rawText: string): Promise<FoundResource[]> {
  if (!known) return [];
  const text = rawText.slice(0, TEXT_READ_MAX);
  const addresses = addressesIn(text);
  const named = (r: KnownResource) => r.names.some((n) => n.field === 'ip' && addresses.has(n.name));
  const found: FoundResource[] = [];
  const seen = new Set<string>();
  for (const kind of KNOWN_KINDS) {
    const rows = await known.list(account, kind, LIST_LIMIT);
    for (const r of rows) {
      const id = commandId(r);
      if (!id) continue;
      // A server seen by id and by uuid is one server (resolve-names' sameResources).
      const keys = [`${kind}:${id.toLowerCase()}`, ...(r.uuid ? [`${kind}:${r.uuid.toLowerCase()}`] : [])];
      if (keys.some((k) => seen.has(k))) continue;
      if (!namesNumericId(text, kind, id) && !named(r) && !handles(r).some((h) => wordRe(h).test(text))) continue;
      keys.forEach((k) => seen.add(k));
      found.push({ kind, id, name: r.name });
      if (found.length >= FOUND_MAX) return found;
    }
  }
  return found;
}
