/**
 * `/cloud server known` (sg, worker): what the bot knows on this channel's account, and where
 * each name came from (an answer, the policy file's inventory, the sandbox seed). Names come
 * from the cloud's answers and the file, so each is shown as an inert value.
 */
import type { KnownKind, KnownName, KnownResource } from '../store/known-types.js';
import type { Block, Reply } from './types.js';
import { context, header } from './blocks.js';
import { pagedLines, type ListPaging } from './pager.js';
import { agoFromAge } from './format.js';
import { channelRef, join, md, val, type Mrkdwn } from './mrkdwn.js';

const TITLE: Record<KnownKind, Mrkdwn> = { server: md`Servers known`, sg: md`Security groups known`, worker: md`Workers known` };
const NOUN: Record<KnownKind, Mrkdwn> = { server: md`server`, sg: md`security group`, worker: md`worker` };
const PLURAL: Record<KnownKind, Mrkdwn> = { server: md`servers`, sg: md`security groups`, worker: md`workers` };
const SEEN_BY: Record<KnownKind, Mrkdwn> = {
  server: md`\`/cloud server status\`, \`ips\`, \`rename\`, \`/cloud sg show\``,
  sg: md`\`/cloud sg show\``,
  worker: md`\`/cloud worker status\`, \`/cloud worker deploy\``,
};
const FIELD: Record<KnownName['field'], Mrkdwn> = { name: md``, hostname: md`hostname, `, rdns: md`reverse DNS, `, ip: md`address, `, seed: md``, inventory: md`` };

/** Where one name came from: `policy file inventory, home #prod-ops`, `reverse DNS, seen in an answer of /cloud server ips`. */
export function nameOrigin(n: KnownName): Mrkdwn {
  if (n.field === 'inventory') return md`policy file inventory${n.home ? md`, home ${channelRef(n.home)}` : md``}`;
  if (n.field === 'seed') return md`sandbox seed`;
  return md`${FIELD[n.field]}seen in an answer${n.via ? md` of ${val(`/cloud ${n.via}`)}` : md``}`;
}

function line(r: KnownResource, now: number): Mrkdwn {
  const name = r.name ? md`*${val(r.name, 80)}*` : md`_(no name seen)_`;
  const uuid = r.uuid && r.uuid !== r.id ? md` · uuid ${val(r.uuid)}` : md``;
  // Addresses find a server in a message (Act on this); they are not names a command takes.
  const proper = r.names.filter((n) => n.field !== 'ip');
  const addresses = r.names.filter((n) => n.field === 'ip');
  const names = join(proper.map((n) => md`${val(n.name, 80)} (${nameOrigin(n)})`), '; ');
  const at = addresses.length ? md`addresses: ${join(addresses.map((n) => val(n.name, 45)), ', ')} (seen in an answer of ${val('/cloud server ips')}) · ` : md``;
  const seen =
    r.firstSeen === null || r.lastSeen === null
      ? md`not seen in an answer yet`
      : md`first seen ${agoFromAge(Math.max(0, now - r.firstSeen))}, last seen ${agoFromAge(Math.max(0, now - r.lastSeen))}`;
  return md`• ${name} — id ${val(r.id)}${uuid} · ${proper.length ? md`names: ${names} · ` : md``}${at}${seen}`;
}

/** `limit` is how many were asked for: a full list says there may be more. `paging`: which page of them. */
export function buildKnownList(kind: KnownKind, rows: readonly KnownResource[], now: number, limit: number, paging?: ListPaging): Reply {
  if (rows.length === 0) {
    const text = md`The bot has not seen any ${NOUN[kind]} on this account yet. It remembers what ${SEEN_BY[kind]} show, and the policy file's inventory may name them.`;
    return { text, blocks: [context(text)] };
  }
  const blocks: Block[] = [header(TITLE[kind]), ...pagedLines(rows.map((r) => line(r, now)), paging, PLURAL[kind])];
  const more = rows.length >= limit ? md` Showing the ${limit} seen most recently.` : md``;
  blocks.push(context(md`A name works wherever the id goes, e.g. ${val(`/cloud ${kind === 'sg' ? 'sg show' : `${kind} status`} ${rows.find((r) => r.name)?.name ?? rows[0]!.id}`)}.${more}`));
  return { text: md`${TITLE[kind]}: ${rows.length}`, blocks };
}
