/** Views of plans: sizes in GB/TB, prices, availability when filtered by location. */
import type { Page, Plan } from '../cloud-api/schemas.js';
import type { Block, Reply } from './types.js';
import { header, lineSections, section } from './blocks.js';
import { bytes, money, plural } from './format.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';

export function planLine(p: Plan): Mrkdwn {
  const availability = p.available == null ? md`` : p.available ? md` · :white_check_mark: available` : md` · :no_entry: out of stock`;
  const specs = [
    p.cpu != null ? md`${p.cpu} vCPU` : null,
    p.memory != null ? md`${bytes(p.memory)} RAM` : null,
    p.disk != null ? md`${bytes(p.disk)} disk` : null,
    p.bandwidth_limit != null ? md`${bytes(p.bandwidth_limit)} traffic` : null,
  ].filter((s): s is Mrkdwn => s !== null);
  const price = md`${money(p.monthly_price)}/month (${money(p.hourly_price)}/h)`;
  const backups = p.backup_limit != null ? md` · ${plural(p.backup_limit, md`backup`, md`backups`)}${p.backup_price != null ? md` at ${money(p.backup_price)}` : md``}` : md``;
  const scope = p.location_id == null ? md`global` : md`location ${p.location_id}`;
  return md`• ${val(p.name)} · id ${val(p.id)} · ${join(specs, ' · ')} · ${price}${backups} · ${scope}${availability}`;
}

export function buildPlans(page: Page<Plan>, location: number | undefined, pager: Block[]): Reply {
  const title = location ? `Plans for location ${location}` : 'Plans';
  const titleText = location ? md`Plans for location ${location}` : md`Plans`;
  if (page.data.length === 0) {
    const why = location ? md`No plans: location ${val(location)} is not open for ordering (or has none).` : md`No plans on this page.`;
    return { text: titleText, blocks: [header(title), section(why), ...pager] };
  }
  return { text: md`${titleText}: ${page.meta.total ?? page.data.length}`, blocks: [header(title), ...lineSections(page.data.map(planLine), 45), ...pager] };
}
