/** Views of reserved-IP subnets. */
import type { Subnet } from '../cloud-api/schemas.js';
import type { Reply } from './types.js';
import { context, header, section } from './blocks.js';
import { money, plural } from './format.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';
import { pagedLines, type ListPaging } from './pager.js';

export function subnetLine(s: Subnet): Mrkdwn {
  const where = s.location?.short_code ?? (s.location_id != null ? `location ${s.location_id}` : undefined);
  const parts: Mrkdwn[] = [val(s.id)];
  if (s.subnet) parts.push(val(s.subnet));
  if (s.type) parts.push(s.type === 'ipv6' ? md`IPv6` : md`IPv4`);
  if (where) parts.push(md`${val(where)}${s.location_id != null ? md` (location ${s.location_id})` : md``}`);
  if (s.available != null) {
    const free = md`${s.available}${s.total != null ? md` of ${s.total}` : md``} free`;
    parts.push(s.available === 0 ? md`:no_entry: ${free}` : s.available < 5 ? md`:warning: ${free}` : free);
  }
  if (s.hourly_price != null) parts.push(md`${money(s.hourly_price)}/h while unused`);
  return md`• ${join(parts, ' · ')}`;
}

export function buildSubnets(subnets: Subnet[], paging?: ListPaging): Reply {
  if (subnets.length === 0) return { text: md`No subnets offer reserved IPs.`, blocks: [section(md`No subnets offer reserved IPs right now.`)] };
  return {
    text: md`${plural(subnets.length, md`subnet`, md`subnets`)} for reserved IPs`,
    blocks: [
      header('Subnets for reserved IPs'),
      ...pagedLines(subnets.map(subnetLine), paging, md`subnets`),
      context(
        md`Reserve with \`/cloud ip reserve --location &lt;location id&gt; --subnet &lt;subnet id&gt; --quantity N\`. Reserved IPs are billed hourly while no server uses them.`,
      ),
    ],
  };
}
