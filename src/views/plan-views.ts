/** Views of plans: sizes in GB/TB, prices, availability when filtered by location. */
import type { Page, Plan } from '../cloud/schemas.js';
import type { Block, Reply } from '../operations/types.js';
import { code, esc, header, lineSections, section } from './blocks.js';
import { bytes, money } from './format.js';

export function planLine(p: Plan): string {
  const availability = p.available == null ? '' : p.available ? ' · :white_check_mark: available' : ' · :no_entry: out of stock';
  const specs = [
    p.cpu != null ? `${p.cpu} vCPU` : null,
    p.memory != null ? `${bytes(p.memory)} RAM` : null,
    p.disk != null ? `${bytes(p.disk)} disk` : null,
    p.bandwidth_limit != null ? `${bytes(p.bandwidth_limit)} traffic` : null,
  ].filter(Boolean);
  const price = `${money(p.monthly_price)}/month (${money(p.hourly_price)}/h)`;
  const backups = p.backup_limit != null ? ` · ${p.backup_limit} backups${p.backup_price != null ? ` at ${money(p.backup_price)}` : ''}` : '';
  const scope = p.location_id == null ? 'global' : `location ${p.location_id}`;
  return `• *${esc(p.name)}* ${code(p.id)} · ${specs.join(' · ')} · ${price}${backups} · ${scope}${availability}`;
}

export function buildPlans(page: Page<Plan>, location: number | undefined, pager: Block[]): Reply {
  const title = location ? `Plans for location ${location}` : 'Plans';
  if (page.data.length === 0) {
    const why = location ? `No plans: location ${code(location)} is not open for ordering (or has none).` : 'No plans on this page.';
    return { text: title, blocks: [header(title), section(why), ...pager] };
  }
  return { text: `${title}: ${page.meta.total ?? page.data.length}`, blocks: [header(title), ...lineSections(page.data.map(planLine), 45), ...pager] };
}
