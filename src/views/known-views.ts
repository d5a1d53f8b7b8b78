/**
 * `/cloud server known` (sg, worker): what the bot has seen on this channel's account. Names
 * come from the cloud's answers, so each is shown as an inert value.
 */
import type { KnownKind, KnownResource } from '../store/known-types.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections } from './blocks.js';
import { agoFromAge } from './format.js';
import { md, val, type Mrkdwn } from './mrkdwn.js';

const TITLE: Record<KnownKind, Mrkdwn> = { server: md`Servers seen`, sg: md`Security groups seen`, worker: md`Workers seen` };
const NOUN: Record<KnownKind, Mrkdwn> = { server: md`server`, sg: md`security group`, worker: md`worker` };
const SEEN_BY: Record<KnownKind, Mrkdwn> = {
  server: md`\`/cloud server status\`, \`ips\`, \`rename\`, \`/cloud sg show\``,
  sg: md`\`/cloud sg show\``,
  worker: md`\`/cloud worker status\`, \`/cloud worker deploy\``,
};

function line(r: KnownResource, now: number): Mrkdwn {
  const name = r.name ? md`*${val(r.name, 80)}*` : md`_(no name seen)_`;
  const uuid = r.uuid && r.uuid !== r.id ? md` · uuid ${val(r.uuid)}` : md``;
  const first = agoFromAge(Math.max(0, now - r.firstSeen));
  const last = agoFromAge(Math.max(0, now - r.lastSeen));
  return md`• ${name} — id ${val(r.id)}${uuid} · first seen ${first}, last seen ${last}`;
}

/** `limit` is how many were asked for: a full page says there may be more. */
export function buildKnownList(kind: KnownKind, rows: readonly KnownResource[], now: number, limit: number): Reply {
  if (rows.length === 0) {
    const text = md`The bot has not seen any ${NOUN[kind]} on this account yet. It remembers what ${SEEN_BY[kind]} show.`;
    return { text, blocks: [context(text)] };
  }
  const blocks: Block[] = [header(TITLE[kind]), ...lineSections(rows.map((r) => line(r, now)), 45)];
  const more = rows.length >= limit ? md` Showing the ${limit} seen most recently.` : md``;
  blocks.push(context(md`A name works wherever the id goes, e.g. ${val(`/cloud ${kind === 'sg' ? 'sg show' : `${kind} status`} ${rows.find((r) => r.name)?.name ?? rows[0]!.id}`)}.${more}`));
  return { text: md`${TITLE[kind]}: ${rows.length}`, blocks };
}
