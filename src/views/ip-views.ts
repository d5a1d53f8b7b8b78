/** Views of reserved-IP subnets. */
import type { Subnet } from '../cloud/schemas.js';
import type { Reply } from '../operations/types.js';
import { code, context, esc, header, lineSections, section } from './blocks.js';
import { money } from './format.js';

export function subnetLine(s: Subnet): string {
  const where = s.location?.short_code ?? (s.location_id != null ? `location ${s.location_id}` : undefined);
  const parts = [code(s.id)];
  if (s.subnet) parts.push(esc(s.subnet));
  if (s.type) parts.push(s.type === 'ipv6' ? 'IPv6' : 'IPv4');
  if (where) parts.push(`${esc(where)}${s.location_id != null ? ` (location ${s.location_id})` : ''}`);
  if (s.available != null) {
    const free = `${s.available}${s.total != null ? ` of ${s.total}` : ''} free`;
    parts.push(s.available === 0 ? `:no_entry: ${free}` : s.available < 5 ? `:warning: ${free}` : free);
  }
  if (s.hourly_price != null) parts.push(`${money(s.hourly_price)}/h while unused`);
  return '• ' + parts.join(' · ');
}

export function buildSubnets(subnets: Subnet[]): Reply {
  if (subnets.length === 0) return { text: 'No subnets offer reserved IPs.', blocks: [section('No subnets offer reserved IPs right now.')] };
  return {
    text: `${subnets.length} subnets for reserved IPs`,
    blocks: [
      header('Subnets for reserved IPs'),
      ...lineSections(subnets.map(subnetLine), 46),
      context('Reserve with `/cloud ip reserve --location <location id> --subnet <subnet id> --quantity N`. Reserved IPs are billed hourly while no server uses them.'),
    ],
  };
}
