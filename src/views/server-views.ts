/** Views of servers: live status, credentials (requester only), addresses. */
import { maintenanceMark, windowOver } from './maintenance-views.js';
import type { ServerCredentials, ServerIp, ServerStatus } from '../cloud-api/schemas.js';
import type { ViewContext } from './types.js';
import type { Block, Reply } from './types.js';
import { context, fields, header, plainSection, section } from './blocks.js';
import { showsExactlyAsCode } from './secret-views.js';
import { ago } from './format.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';
import { pagedLines, type ListPaging } from './pager.js';
import { isServerBusy, POWER_STATES, SERVER_APP_STATUSES } from '../cloud/server-status.js';
import { statusWord as word } from './words.js';

function powerText(state: string | null | undefined): Mrkdwn {
  if (state === 'running') return md`:large_green_circle: running`;
  if (state === 'stopped') return md`:red_circle: stopped`;
  return val(state);
}

export function buildServerStatus(server: string, s: ServerStatus, view: ViewContext): Reply {
  const app = s.server_status ?? null;
  const task = s.power_task;
  const pairs: [Mrkdwn, Mrkdwn][] = [
    [md`Power`, powerText(s.state)],
    [md`Application status`, app ? (isServerBusy(app) ? md`:hourglass_flowing_sand: ${word(app, SERVER_APP_STATUSES)}` : word(app, SERVER_APP_STATUSES)) : md`normal`],
  ];
  if (task && (task.action || task.status)) {
    const what = join(
      [task.action, task.status ?? task.state].filter((v) => v != null && v !== '').map((v) => val(String(v))),
      ' · ',
    );
    pairs.push([md`Power task`, md`${what}${task.updated_at ? md` (${ago(task.updated_at, view.now)})` : md``}`]);
    if (task.message) pairs.push([md`Task message`, val(task.message)]);
  }
  const blocks: Block[] = [header(`Server ${server}`), fields(pairs)];
  if (isServerBusy(app)) blocks.push(context(md`The server is busy: reinstall and backups wait until it is done. Credentials are ready once it finishes.`));
  const window = windowOver(view.maintenance, 'server', server);
  if (window) blocks.push(context(maintenanceMark(window, view.now)));
  return { text: md`Server ${val(server)}: ${s.state ? word(s.state, POWER_STATES) : md`unknown`}${app ? md`, ${word(app, SERVER_APP_STATUSES)}` : md``}`, blocks };
}

/** Secret: the caller sends this to the requester only, ephemerally, and never logs it. */
export function buildCredentials(server: string, c: ServerCredentials): Reply {
  if (c.password_status !== 'ready' || !c.root_password) {
    return {
      text: md`The root password of server ${val(server)} is still being generated.`,
      blocks: [
        section(
          md`:hourglass_flowing_sand: The root password of server ${val(server)} is still being generated (status ${val(c.password_status)}): the server is installing. Ask again once ${val(`/cloud server status ${server}`)} shows it is done.`,
        ),
      ],
    };
  }
  return {
    text: md`Credentials of server ${val(server)} (only you can see this)`,
    blocks: [
      header(`Credentials of server ${server}`),
      // A password inline code cannot show exactly (a backtick) gets its own plain-text line.
      ...(showsExactlyAsCode(c.root_password)
        ? [fields([[md`Username`, val(c.username)], [md`Root password`, val(c.root_password)], [md`IPv4`, val(c.ipv4)], [md`IPv6`, val(c.ipv6)]])]
        : [fields([[md`Username`, val(c.username)], [md`IPv4`, val(c.ipv4)], [md`IPv6`, val(c.ipv6)]]), section(md`*Root password*`), plainSection(c.root_password)]),
      context(md`:lock: Only you can see this message, and the bot keeps no copy. Store the password in your password manager.`),
    ],
  };
}

export function buildServerIps(server: string, ips: ServerIp[], paging?: ListPaging): Reply {
  if (ips.length === 0) return { text: md`Server ${val(server)} has no addresses.`, blocks: [section(md`Server ${val(server)} has no addresses.`)] };
  const lines = ips.map((ip) => {
    const parts: Mrkdwn[] = [md`${val(`${ip.address}${ip.cidr != null ? `/${ip.cidr}` : ''}`)} ${ip.type === 'ipv6' ? md`IPv6` : md`IPv4`}`];
    if (ip.gateway) parts.push(md`gateway ${val(ip.gateway)}`);
    if (ip.rdns) parts.push(md`rDNS ${val(ip.rdns)}`);
    if (ip.reserved) parts.push(md`:pushpin: reserved`);
    return md`• ${join(parts, ' · ')}`;
  });
  return {
    text: md`Server ${val(server)} has ${ips.length} address${ips.length === 1 ? md`` : md`es`}`,
    blocks: [header(`Addresses of server ${server}`), ...pagedLines(lines, paging, md`addresses`)],
  };
}
