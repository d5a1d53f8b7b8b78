/** Views of servers: live status, credentials (requester only), addresses. */
import type { ServerCredentials, ServerIp, ServerStatus } from '../cloud/schemas.js';
import type { Block, Reply, ViewContext } from '../operations/types.js';
import { code, context, esc, fields, header, lineSections, section } from './blocks.js';
import { ago, orDash } from './format.js';

const BUSY = new Set(['installing', 'reinstalling', 'restoring']);

function powerIcon(state: string | null | undefined): string {
  if (state === 'running') return ':large_green_circle: running';
  if (state === 'stopped') return ':red_circle: stopped';
  return orDash(state && esc(state));
}

export function buildServerStatus(server: string, s: ServerStatus, view: ViewContext): Reply {
  const app = s.server_status ?? null;
  const task = s.power_task;
  const pairs: [string, string][] = [
    ['Power', powerIcon(s.state)],
    ['Application status', app ? (BUSY.has(app) ? `:hourglass_flowing_sand: ${esc(app)}` : esc(app)) : 'normal'],
  ];
  if (task && (task.action || task.status)) {
    const what = [task.action, task.status ?? task.state].filter(Boolean).map((v) => esc(String(v))).join(' · ');
    pairs.push(['Power task', `${what}${task.updated_at ? ` (${ago(task.updated_at, view.now)})` : ''}`]);
    if (task.message) pairs.push(['Task message', esc(task.message)]);
  }
  const blocks: Block[] = [header(`Server ${server}`), fields(pairs)];
  if (app && BUSY.has(app)) blocks.push(context('The server is busy: reinstall and backups wait until it is done. Credentials are ready once it finishes.'));
  return { text: `Server ${server}: ${s.state ?? 'unknown'}${app ? `, ${app}` : ''}`, blocks };
}

/** Secret: the caller sends this to the requester only, ephemerally, and never logs it. */
export function buildCredentials(server: string, c: ServerCredentials): Reply {
  if (c.password_status !== 'ready' || !c.root_password) {
    return {
      text: `The root password of server ${server} is still being generated.`,
      blocks: [
        section(
          `:hourglass_flowing_sand: The root password of server ${code(server)} is still being generated (status ${code(c.password_status)}): the server is installing. Ask again once \`/cloud server status ${esc(server)}\` shows it is done.`,
        ),
      ],
    };
  }
  return {
    text: `Credentials of server ${server} (only you can see this)`,
    blocks: [
      header(`Credentials of server ${server}`),
      fields([
        ['Username', code(orDash(c.username))],
        ['Root password', code(c.root_password)],
        ['IPv4', c.ipv4 ? code(c.ipv4) : '—'],
        ['IPv6', c.ipv6 ? code(c.ipv6) : '—'],
      ]),
      context(':lock: Only you can see this message, and the bot keeps no copy. Store the password in your password manager.'),
    ],
  };
}

export function buildServerIps(server: string, ips: ServerIp[]): Reply {
  if (ips.length === 0) return { text: `Server ${server} has no addresses.`, blocks: [section(`Server ${code(server)} has no addresses.`)] };
  const lines = ips.map((ip) => {
    const parts = [`${code(`${ip.address}${ip.cidr != null ? `/${ip.cidr}` : ''}`)} ${ip.type === 'ipv6' ? 'IPv6' : 'IPv4'}`];
    if (ip.gateway) parts.push(`gateway ${esc(ip.gateway)}`);
    if (ip.rdns) parts.push(`rDNS ${esc(ip.rdns)}`);
    if (ip.reserved) parts.push(':pushpin: reserved');
    return '• ' + parts.join(' · ');
  });
  return {
    text: `Server ${server} has ${ips.length} address${ips.length === 1 ? '' : 'es'}`,
    blocks: [header(`Addresses of server ${server}`), ...lineSections(lines, 48)],
  };
}
