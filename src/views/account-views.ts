/** Views of the account: usage against limits, invoices. */
import type { AccountUsage, Invoice, Page } from '../cloud/schemas.js';
import type { Block, Reply, ViewContext } from '../operations/types.js';
import { code, esc, fields, header, lineSections, section } from './blocks.js';
import { ago, bytes, money } from './format.js';

const GB = 1024 ** 3;

function ratio(used: number | null | undefined, limit: number | null | undefined, show: (n: number) => string = String): string {
  if (used == null) return '—';
  if (limit == null || limit <= 0) return show(used);
  const pct = Math.round((used / limit) * 100);
  const warn = pct >= 90 ? ' :warning:' : '';
  return `${show(used)} of ${show(limit)} (${pct}%)${warn}`;
}

export function buildUsage(u: AccountUsage): Reply {
  return {
    text: `Account usage: ${u.servers ?? '?'} servers, ${u.ip_used ?? '?'} of ${u.ip_limit ?? '?'} IPs`,
    blocks: [
      header('Account usage'),
      fields([
        ['Servers', String(u.servers ?? '—')],
        ['CPU cores', ratio(u.cpu_used, u.cpu_limit)],
        ['Memory', ratio(u.ram_used, u.ram_limit_gb != null ? u.ram_limit_gb * GB : null, bytes)],
        ['Disk used', bytes(u.disk_used)],
        ['IP addresses', ratio(u.ip_used, u.ip_limit)],
      ]),
    ],
  };
}

export function invoiceLine(i: Invoice, now: number): string {
  const due = i.amount_due != null && i.amount_due > 0 ? ` · :warning: ${money(i.amount_due)} due` : '';
  return `• ${code(`#${i.id}`)} ${ago(i.created_at, now)} · total ${money(i.total)} · ${esc(i.status ?? 'unknown')}${i.type ? ` (${esc(i.type)})` : ''}${due}`;
}

export function buildInvoices(page: Page<Invoice>, view: ViewContext, pager: Block[]): Reply {
  if (page.data.length === 0) return { text: 'No invoices.', blocks: [header('Invoices'), section('No invoices on this page.'), ...pager] };
  return {
    text: `Invoices: ${page.meta.total ?? page.data.length}`,
    blocks: [header('Invoices'), ...lineSections(page.data.map((i) => invoiceLine(i, view.now)), 45), ...pager],
  };
}
