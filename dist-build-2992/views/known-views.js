import { context, header, lineSections } from './blocks.js';
import { agoFromAge } from './format.js';
import { channelRef, join, md, val } from './mrkdwn.js';
const TITLE = { server: md `Servers known`, sg: md `Security groups known`, worker: md `Workers known` };
const NOUN = { server: md `server`, sg: md `security group`, worker: md `worker` };
const SEEN_BY = {
    server: md `\`/cloud server status\`, \`ips\`, \`rename\`, \`/cloud sg show\``,
    sg: md `\`/cloud sg show\``,
    worker: md `\`/cloud worker status\`, \`/cloud worker deploy\``,
};
const FIELD = { name: md ``, hostname: md `hostname, `, rdns: md `reverse DNS, `, seed: md ``, inventory: md `` };
/** Where one name came from: `policy file inventory, home #prod-ops`, `reverse DNS, seen in an answer of /cloud server ips`. */
export function nameOrigin(n) {
    if (n.field === 'inventory')
        return md `policy file inventory${n.home ? md `, home ${channelRef(n.home)}` : md ``}`;
    if (n.field === 'seed')
        return md `sandbox seed`;
    return md `${FIELD[n.field]}seen in an answer${n.via ? md ` of ${val(`/cloud ${n.via}`)}` : md ``}`;
}
function line(r, now) {
    const name = r.name ? md `*${val(r.name, 80)}*` : md `_(no name seen)_`;
    const uuid = r.uuid && r.uuid !== r.id ? md ` · uuid ${val(r.uuid)}` : md ``;
    const names = join(r.names.map((n) => md `${val(n.name, 80)} (${nameOrigin(n)})`), '; ');
    const seen = r.firstSeen === null || r.lastSeen === null
        ? md `not seen in an answer yet`
        : md `first seen ${agoFromAge(Math.max(0, now - r.firstSeen))}, last seen ${agoFromAge(Math.max(0, now - r.lastSeen))}`;
    return md `• ${name} — id ${val(r.id)}${uuid} · ${r.names.length ? md `names: ${names} · ` : md ``}${seen}`;
}
/** `limit` is how many were asked for: a full page says there may be more. */
export function buildKnownList(kind, rows, now, limit) {
    if (rows.length === 0) {
        const text = md `The bot has not seen any ${NOUN[kind]} on this account yet. It remembers what ${SEEN_BY[kind]} show, and the policy file's inventory may name them.`;
        return { text, blocks: [context(text)] };
    }
    const blocks = [header(TITLE[kind]), ...lineSections(rows.map((r) => line(r, now)), 45)];
    const more = rows.length >= limit ? md ` Showing the ${limit} seen most recently.` : md ``;
    blocks.push(context(md `A name works wherever the id goes, e.g. ${val(`/cloud ${kind === 'sg' ? 'sg show' : `${kind} status`} ${rows.find((r) => r.name)?.name ?? rows[0].id}`)}.${more}`));
    return { text: md `${TITLE[kind]}: ${rows.length}`, blocks };
}
//# sourceMappingURL=known-views.js.map