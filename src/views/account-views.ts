/** Views of the account: usage against limits, invoices. */
import type { AccountUsage, Invoice, Page } from '../cloud-api/schemas.js';
import type { ViewContext } from './types.js';
import type { Block, Reply } from './types.js';
import { fields, header, lineSections, section } from './blocks.js';
import { ago, bytes, money, plural } from './format.js';
import { md, val, type Mrkdwn } from './mrkdwn.js';

const GB = 1024 ** 3;
const count = (n: number): Mrkdwn => md`${n}`;

function ratio(used: number | null | undefined, limit: number | null | undefined, show: (n: number) => Mrkdwn = count): Mrkdwn {
  if (used == null) return md`—`;
  if (limit == null || limit <= 0) return show(used);
  const pct = Math.round((used / limit) * 100);
  const warn = pct >= 90 ? md` :warning:` : md``;
  return md`${show(used)} of ${show(limit)} (${pct}%)${warn}`;
}

const orUnknown = (n: number | null | undefined): Mrkdwn => (n == null ? md`?` : count(n));

export function buildUsage(u: AccountUsage): Reply {
  return {
    text: md`Account usage: ${u.servers == null ? md`? servers` : plural(u.servers, md`server`, md`servers`)}, ${orUnknown(u.ip_used)} of ${orUnknown(u.ip_limit)} IPs`,
    blocks: [
      header('Account usage'),
      fields([
        [md`Servers`, u.servers == null ? md`—` : count(u.servers)],
        [md`CPU cores`, ratio(u.cpu_used, u.cpu_limit)],
        [md`Memory`, ratio(u.ram_used, u.ram_limit_gb != null ? u.ram_limit_gb * GB : null, bytes)],
        [md`Disk used`, bytes(u.disk_used)],
        [md`IP addresses`, ratio(u.ip_used, u.ip_limit)],
      ]),
    ],
  };
}

export function invoiceLine(i: Invoice, now: number): Mrkdwn {
  const due = i.amount_due != null && i.amount_due > 0 ? md` · :warning: ${money(i.amount_due)} due` : md``;
  return md`• ${val(`#${i.id}`)} ${ago(i.created_at, now)} · total ${money(i.total)} · ${val(i.status ?? 'unknown')}${i.type ? md` (${val(i.type)})` : md``}${due}`;
}

export function buildInvoices(page: Page<Invoice>, view: ViewContext, pager: Block[]): Reply {
  if (page.data.length === 0) return { text: md`No invoices.`, blocks: [header('Invoices'), section(md`No invoices on this page.`), ...pager] };
  return {
    text: md`Invoices: ${page.meta.total ?? page.data.length}`,
    blocks: [header('Invoices'), ...lineSections(page.data.map((i) => invoiceLine(i, view.now)), 45), ...pager],
  };
}
