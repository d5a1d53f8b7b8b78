/**
 * The daily digest (issue 13): one message per channel and day with usage against limits,
 * unpaid invoices, what changed in the last 24 hours (from the alerts) and active watches.
 * Every section says "none" when empty, and long lists end in "+N more" so the message fits
 * Slack's limits whatever the day held; the alert sections and the summary count every alert of
 * the day (`totals`), not just those the store listed. Posted to the channel: it mentions nobody.
 */
import type { AccountUsage, Invoice } from '../cloud-api/schemas.js';
import type { AlertRecord, SubscriptionKind } from '../store/monitor-types.js';
import type { WatchRecord } from '../store/watch-store.js';
import type { Block, Reply } from './types.js';
import { context, fields, header, lineSections, section } from './blocks.js';
import { md, val, type Mrkdwn } from './mrkdwn.js';
import { bytes, elapsed, moment, plural } from './format.js';
import { accountValue } from './account-label.js';
import { invoiceLine } from './account-views.js';
import { conditionWords } from './alert-words.js';
import { words } from './words.js';

export type DigestAlert = AlertRecord & { kind: SubscriptionKind; resource: string };

export interface DigestInput {
  /** The local day, YYYY-MM-DD. */
  day: string;
  tz: string;
  now: number;
  /** The account's label, shown when set. */
  account?: string;
  usage: AccountUsage | { error: string } | undefined;
  /** Unpaid or overdue ones; 'not-allowed' where the channel may not read invoices. */
  invoices: Invoice[] | { error: string } | 'not-allowed' | undefined;
  /**
   * How many pages of GET /account/invoices (most recent first) `invoices` was read from, from
   * page 1, and how many there are: when it stopped short, older unpaid invoices were not read,
   * and the digest says so.
   */
  invoicePages?: { read: number; last: number };
  /** Alerts of the last 24 hours (the newest, as many as the store listed); 'unreadable' when the bot's store could not list them (never shown as none). */
  alerts: DigestAlert[] | 'unreadable';
  /**
   * How many server changes and failed builds the last 24 hours held, when `alerts` may not
   * hold them all (the store lists the newest only): those not listed are counted, never left out.
   */
  totals?: { servers: number; builds: number };
  /** Active watches; 'unreadable' when the bot's store could not list them (never shown as none). */
  watches: WatchRecord[] | 'unreadable';
}

/** Lines per list before "+N more". */
export const DIGEST_LIST_MAX = 15;
/** Sections per list (each holds up to 3000 characters). */
const LIST_BLOCKS = 3;
const GB = 1024 ** 3;
const FLAG_PERCENT = 90;

const isError = (v: unknown): v is { error: string } => typeof v === 'object' && v !== null && 'error' in v && !Array.isArray(v);

/**
 * A title line and its list, at most DIGEST_LIST_MAX lines, cut to LIST_BLOCKS sections. `total`
 * (at least the lines given) is how many there were: those not shown are counted after "+".
 */
function list(title: Mrkdwn, lines: Mrkdwn[], empty: Mrkdwn, total = lines.length, more: Mrkdwn = md``): Block[] {
  const all = Math.max(total, lines.length);
  if (all === 0) return [section(md`*${title}*\n_${empty}_`)];
  if (lines.length === 0) return [section(md`*${title}*\n_${all}${more}, not listed here_`)];
  const shown = lines.slice(0, DIGEST_LIST_MAX);
  const hidden = all - shown.length;
  if (hidden > 0) shown.push(md`_+${hidden} more${more}_`);
  // When sections run out the "+N more" line is among those cut: count it out.
  return lineSections([md`*${title}*`, ...shown], LIST_BLOCKS, (n) => md`+${hidden > 0 ? n - 1 + hidden : n} more${more}`);
}

function ratio(used: number | null | undefined, limit: number | null | undefined, show: (n: number) => Mrkdwn): Mrkdwn {
  if (used == null) return md`—`;
  if (limit == null || limit <= 0) return show(used);
  const pct = Math.round((used / limit) * 100);
  return md`${show(used)} of ${show(limit)} (${pct}%)${pct >= FLAG_PERCENT ? md` :warning:` : md``}`;
}

function usageBlocks(u: DigestInput['usage']): Block[] {
  const title = md`*Usage against limits*`;
  if (u === undefined) return [section(md`${title}\n_none_`)];
  if (isError(u)) return [section(md`${title}\n:grey_question: Could not read usage: ${val(u.error)}`)];
  const count = (n: number) => md`${n}`;
  const pairs: [Mrkdwn, Mrkdwn][] = [];
  if (u.servers != null) pairs.push([md`Servers`, count(u.servers)]);
  if (u.cpu_used != null) pairs.push([md`CPU cores`, ratio(u.cpu_used, u.cpu_limit, count)]);
  if (u.ram_used != null) pairs.push([md`Memory`, ratio(u.ram_used, u.ram_limit_gb != null ? u.ram_limit_gb * GB : null, bytes)]);
  if (u.ip_used != null) pairs.push([md`IP addresses`, ratio(u.ip_used, u.ip_limit, count)]);
  if (pairs.length === 0) return [section(md`${title}\n_none_`)];
  return [section(title), fields(pairs)];
}

const pagesRead = (p: { read: number; last: number }): Mrkdwn => (p.read === 1 ? md`page 1 of ${p.last}` : md`pages 1–${p.read} of ${p.last}`);

/** More pages of invoices than were read: older unpaid ones may be on those. */
const partialPages = (p: DigestInput['invoicePages']): p is { read: number; last: number } => p !== undefined && p.last > p.read;

function invoiceBlocks(invoices: DigestInput['invoices'], now: number, pages: DigestInput['invoicePages']): Block[] {
  const title = md`Unpaid or overdue invoices`;
  if (invoices === 'not-allowed') return [section(md`*${title}*\n_Not shown here: this channel may not read invoices on this account (see ${val('/cloud policy')})._`)];
  if (isError(invoices)) return [section(md`*${title}*\n:grey_question: Could not read invoices: ${val(invoices.error)}`)];
  if (!partialPages(pages)) return list(title, (invoices ?? []).map((i) => invoiceLine(i, now)), md`none`);
  const where = pagesRead(pages);
  return [
    ...list(title, (invoices ?? []).map((i) => invoiceLine(i, now)), md`none on ${where}`),
    context(md`Read from ${where} of the invoices (the most recent); older ones are not checked here: ${val(`/cloud account invoices --page ${pages.read + 1}`)} lists them.`),
  ];
}

function alertLine(a: DigestAlert, now: number): Mrkdwn {
  const w = conditionWords(a, now);
  // Closed because the watching ended (unsubscribed, policy): it was still firing then.
  const unwatched = a.status === 'resolved' && a.detail?.unwatched !== undefined;
  const when = unwatched
    ? md`no longer watched after ${words(elapsed(a.startedAt, a.resolvedAt ?? now))}, still firing when last seen`
    : a.status === 'resolved' && a.resolvedAt != null
      ? md`resolved after ${words(elapsed(a.startedAt, a.resolvedAt))}`
      : md`since ${moment(a.startedAt)}, still firing`;
  return md`• ${a.status === 'resolved' && !unwatched ? md`:white_check_mark:` : w.icon} ${w.short} — ${when}`;
}

function watchLine(w: WatchRecord, now: number): Mrkdwn {
  return md`• ${val(w.id)} ${words(w.kind)} ${val(w.resource)} · for ${words(elapsed(w.startedAt, now))} · ${plural(w.polls, md`poll`, md`polls`)}`;
}

/** The daily summary of one channel (and account). */
export function buildDigest(d: DigestInput): Reply {
  const day = /^\d{4}-\d{2}-\d{2}$/.test(d.day) ? words(d.day) : val(d.day);
  const unread = d.alerts === 'unreadable';
  const alerts = d.alerts === 'unreadable' ? [] : d.alerts;
  const servers = alerts.filter((a) => a.kind === 'server');
  const builds = alerts.filter((a) => a.kind === 'worker' && a.condition === 'failed');
  // What the day held, of which the lists show the newest.
  const serverCount = Math.max(servers.length, d.totals?.servers ?? 0);
  const buildCount = Math.max(builds.length, d.totals?.builds ?? 0);
  const day24 = md` in the last 24 hours`;
  const notRead = (title: Mrkdwn) => [section(md`*${title}*\n_could not be read from the bot's database right now_`)];
  const unpaid = Array.isArray(d.invoices) ? d.invoices.length : 0;
  const on = d.account !== undefined ? md` (account ${accountValue(d.account)})` : md``;
  const blocks: Block[] = [
    header(/^\d{4}-\d{2}-\d{2}$/.test(d.day) ? `Daily digest — ${d.day}` : 'Daily digest'),
    context(md`${day} · ${val(d.tz)} · the last 24 hours${d.account !== undefined ? md` · account ${accountValue(d.account)}` : md``}`),
    ...usageBlocks(d.usage),
    ...invoiceBlocks(d.invoices, d.now, d.invoicePages),
    ...(unread ? notRead(md`Servers that changed state`) : list(md`Servers that changed state`, servers.map((a) => alertLine(a, d.now)), md`none`, serverCount, day24)),
    ...(unread ? notRead(md`Failed builds`) : list(md`Failed builds`, builds.map((a) => alertLine(a, d.now)), md`none`, buildCount, day24)),
    ...(d.watches === 'unreadable'
      ? [section(md`*Active watches*\n_could not be read from the bot's database right now_`)]
      : list(md`Active watches`, d.watches.map((w) => watchLine(w, d.now)), md`none`)),
  ];
  const watchCount = d.watches === 'unreadable' ? md`active watches unknown` : plural(d.watches.length, md`active watch`, md`active watches`);
  const changes = unread ? md`changes unknown` : md`${plural(serverCount, md`server change`, md`server changes`)}, ${plural(buildCount, md`failed build`, md`failed builds`)}`;
  const summary = md`${changes}, ${Array.isArray(d.invoices) ? md`${plural(unpaid, md`unpaid invoice`, md`unpaid invoices`)}${partialPages(d.invoicePages) ? md` on ${pagesRead(d.invoicePages)}` : md``}, ` : md``}${watchCount}`;
  return { text: md`Daily digest ${day}${on}: ${summary}`, blocks };
}
