/**
 * The App Home tab (issue 14): one view per person, published with views.publish when they
 * open it. Pure: app/home-data.ts gathers what this person may see (their role decides it) and
 * this turns it into Block Kit. Every outside value — a command's arguments, a resource id, a
 * subscription's settings — goes through `val` / `mention` / `channelRef`, and each section is
 * capped, so the view stays under Slack's 100 blocks for a Home tab whatever the store holds.
 */
import type { MaintenanceWindow } from '../store/maintenance-store.js';
import type { types } from '@slack/bolt';
import type { AccountUsage } from '../cloud-api/schemas.js';
import type { AuditEntry } from '../domain/audit-entry.js';
import type { SubscriptionRecord } from '../store/monitor-types.js';
import type { WatchRecord } from '../store/watch-store.js';
import type { Block } from './types.js';
import { actions, button, context, divider, header, lineSections, LIMITS } from './blocks.js';
import { channelRef, join, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { bytes, elapsed, moment } from './format.js';
import { accountValue } from './account-label.js';
import { commandOf, OUTCOME_EMOJI, userRef } from './audit-views.js';
import { subscriptionWhat } from './subscription-views.js';
import { words } from './words.js';
import type { ScheduleRecord } from '../store/schedule-types.js';
import { scheduleHomeLine, type ZoneTime } from './schedule-views.js';

export type HomeView = types.HomeView;

/** The action_id of a Home button is this plus `:n` (distinct ids in one actions block). */
export const HOME_RUN = 'home_run';
export const HOME_RUN_PATTERN = /^home_run(?::\d+)?$/;
/** Slack's limit for a Home tab (shared/slack-facts.md). */
export const HOME_MAX_BLOCKS = LIMITS.blocksPerModal;
/** Sections per list: every list together stays far below HOME_MAX_BLOCKS. */
const LIST_SECTIONS = 4;
/** Lines per list before "…and N more" (a glance, not the full listing). */
export const HOME_LIST_LINES = 10;

export interface HomeUsage {
  account: string;
  usage?: AccountUsage;
  /** Why it is not shown: the access refusal or the cloud's error, in words the bot wrote. */
  unavailable?: 'not-allowed' | 'failed';
}

export interface HomeRequest {
  id: string;
  /** `/cloud server reinstall` (the catalog's words). */
  command: string;
  args: Record<string, unknown>;
  channelId: string;
  requestedBy: string;
  expiresAt: number;
  account: string | null;
  /** Waiting for a second person's approval rather than the requester's Confirm. */
  needsApproval: boolean;
}

/** A read the Home tab offers as a button: run like the typed command, answered in the person's DM with the bot. */
export interface HomeButton {
  label: string;
  op: string;
  args: Record<string, unknown>;
  account?: string;
}

export interface HomeData {
  userId: string;
  /** Their role on the Home tab (no channel: the environment's lists), undefined when none. */
  role: 'viewer' | 'operator' | 'admin' | undefined;
  now: number;
  /** Several accounts declared: name each. */
  showAccounts: boolean;
  usage: HomeUsage[];
  ownRequests: HomeRequest[];
  /** Requests of others this person may approve; undefined: not shown (not for this role). */
  approvals: HomeRequest[] | undefined;
  watches: WatchRecord[];
  subscriptions: SubscriptionRecord[];
  /** Schedules this person made or may list in their channel (issue 25), and how a time reads in a zone. */
  schedules?: { list: ScheduleRecord[]; zoneTime: ZoneTime };
  /** Maintenance windows in force: what they cover is marked "in maintenance". */
  maintenance?: MaintenanceWindow[];
  /** 'unreadable': the bot's store could not list it (never shown as empty). */
  audit: AuditEntry[] | 'unreadable';
  /** True when `audit` holds everyone's entries (admins), false when only their own. */
  auditOfOthers: boolean;
  buttons: HomeButton[];
}

const GB = 1024 ** 3;

function ratio(used: number | null | undefined, limit: number | null | undefined, show: (n: number) => Mrkdwn = (n) => md`${n}`): Mrkdwn {
  if (used == null) return md`—`;
  if (limit == null || limit <= 0) return show(used);
  const pct = Math.round((used / limit) * 100);
  return md`${show(used)}/${show(limit)} (${pct}%)${pct >= 90 ? md` :warning:` : md``}`;
}

function usageLine(u: HomeUsage, showAccount: boolean): Mrkdwn {
  const who = showAccount ? md`${accountValue(u.account)}: ` : md``;
  if (!u.usage) return md`• ${who}_${u.unavailable === 'not-allowed' ? md`not readable from the Home tab for you` : md`the cloud did not answer; try the button below`}_`;
  const x = u.usage;
  const ram = x.ram_limit_gb != null ? x.ram_limit_gb * GB : null;
  return md`• ${who}servers ${x.servers ?? md`—`} · CPU ${ratio(x.cpu_used, x.cpu_limit)} · memory ${ratio(x.ram_used, ram, bytes)} · IPs ${ratio(x.ip_used, x.ip_limit)}`;
}

const onAccount = (account: string | null, show: boolean): Mrkdwn => (show && account !== null ? md` on ${accountValue(account)}` : md``);

function argsOf(args: Record<string, unknown>): Mrkdwn {
  const pairs = Object.entries(args ?? {}).filter(([, v]) => v !== undefined && v !== null && typeof v !== 'object');
  return join(pairs.slice(0, 4).map(([k, v]) => md`${val(k, 30)}=${val(String(v), 40)}`), ' ');
}

function requestLine(r: HomeRequest, show: boolean, withRequester: boolean): Mrkdwn {
  const by = withRequester ? md` by ${mention(r.requestedBy)}` : md``;
  const args = argsOf(r.args);
  const waits = r.needsApproval ? md`waits for approval` : md`waits for Confirm`;
  return md`• ${val(r.command, 80)}${args ? md` ${args}` : md``}${onAccount(r.account, show)}${by} in ${channelRef(r.channelId)} · ${waits} · expires ${moment(r.expiresAt)}`;
}

function watchLine(w: WatchRecord, now: number, show: boolean): Mrkdwn {
  return md`• ${words(w.kind)} ${val(w.resource, 80)}${onAccount(w.account, show)} in ${channelRef(w.channelId)} · ${words(w.status)} for ${words(elapsed(w.startedAt, now))} · by ${mention(w.requestedBy)}`;
}

/** Subscriptions grouped by channel: one line per channel. */
function subscriptionLines(subs: SubscriptionRecord[], now: number, show: boolean, windows: MaintenanceWindow[] = []): Mrkdwn[] {
  const inMaintenance = (s: SubscriptionRecord) =>
    windows.some((w) => w.channelId === s.channelId && w.account === s.account && (w.kind === 'account' || (w.kind === s.kind && w.resource === s.resource)));
  const byChannel = new Map<string, SubscriptionRecord[]>();
  for (const s of subs) byChannel.set(s.channelId, [...(byChannel.get(s.channelId) ?? []), s]);
  return [...byChannel].map(([channel, list]) => {
    const shown = list.slice(0, 6).map((s) => {
      const muted = s.mutedUntil !== null && s.mutedUntil > now ? md` :zzz:` : md``;
      const held = inMaintenance(s) ? md` :construction: in maintenance` : md``;
      return md`${subscriptionWhat(s)}${onAccount(s.account, show)}${muted}${held}`;
    });
    const more = list.length > shown.length ? md` · +${list.length - shown.length} more` : md``;
    return md`• ${channelRef(channel)}: ${join(shown, ' · ')}${more}`;
  });
}

function auditLine(e: AuditEntry, withUser: boolean): Mrkdwn {
  const who = withUser ? md`${userRef(e.userId)} ` : md``;
  const code = e.errorCode ? md` ${val(e.errorCode, 60)}` : md``;
  return md`${OUTCOME_EMOJI[e.outcome] ?? md`:grey_question:`} ${moment(e.at)} · ${who}${val(commandOf(e.opId), 80)} — ${words(e.outcome)}${code}`;
}

/** A list under its heading, or a quiet line when empty. */
function list(title: string, lines: Mrkdwn[], empty: Mrkdwn, rest?: Mrkdwn): Block[] {
  const shown = lines.slice(0, HOME_LIST_LINES);
  const hidden = lines.length - shown.length;
  const how = rest ? md` — ${rest}` : md``;
  const body = shown.length ? lineSections(shown, LIST_SECTIONS, (n) => md`…and ${n + hidden} more${how}`) : [context(empty)];
  if (hidden > 0 && shown.length) body.push(context(md`…and ${hidden} more${how}`));
  return [header(title), ...body];
}

function buttonValue(b: HomeButton): string | undefined {
  const s = JSON.stringify({ op: b.op, args: b.args, ...(b.account !== undefined ? { account: b.account } : {}) });
  return s.length <= LIMITS.buttonValue ? s : undefined;
}

const ROLE_WORDS: Record<NonNullable<HomeData['role']>, Mrkdwn> = { viewer: md`a viewer`, operator: md`an operator`, admin: md`an admin` };

export function buildHome(d: HomeData): HomeView {
  const role = d.role ? ROLE_WORDS[d.role] : md`not on any list (ask an admin for access)`;
  const blocks: Block[] = [
    header('cloudbot'),
    context(md`Hello ${mention(d.userId)}: here you are ${role}. Commands run in channels with ${val('/cloud')}; this page is only for you.`),
    // Slack keeps the last view published when a later publish fails: the page says how old it is
    // (an absolute time, true whenever it is seen; the durations below count from it).
    context(md`Read ${moment(d.now)}. Opening this tab again reads it anew.`),
  ];

  blocks.push(divider(), ...list('Account usage', d.usage.map((u) => usageLine(u, d.showAccounts)), md`No account you may read from here.`));
  blocks.push(
    divider(),
    ...list('Your requests waiting', d.ownRequests.map((r) => requestLine(r, d.showAccounts, false)), md`Nothing of yours waits for a Confirm or an approval.`),
  );
  if (d.approvals) {
    blocks.push(...list('Approvals you may give', d.approvals.map((r) => requestLine(r, d.showAccounts, true)), md`No request waits for your approval.`));
    if (d.approvals.length) blocks.push(context(md`Approve or cancel on the request's message in its channel.`));
  }
  blocks.push(divider(), ...list('Active watches', d.watches.map((w) => watchLine(w, d.now, d.showAccounts)), md`No active watches.`, md`${val('/cloud watch list --all')} lists them all`));
  blocks.push(...list('Subscriptions', subscriptionLines(d.subscriptions, d.now, d.showAccounts, d.maintenance), md`No channel subscribes to anything.`, md`${val('/cloud subscriptions')} in a channel lists its own`));
  if (d.schedules) blocks.push(...list('Schedules', d.schedules.list.map((s) => scheduleHomeLine(s, d.schedules!.zoneTime)), md`No schedules.`, md`${val('/cloud schedules')} in a channel lists its own`));
  blocks.push(
    divider(),
    ...(d.audit === 'unreadable'
      ? list(d.auditOfOthers ? 'Recent activity' : 'Your recent activity', [], md`Could not be read from the bot's database right now.`)
      : list(d.auditOfOthers ? 'Recent activity' : 'Your recent activity', d.audit.map((e) => auditLine(e, d.auditOfOthers)), md`Nothing recorded yet.`, d.auditOfOthers ? md`${val('/cloud audit')} lists more` : undefined)),
  );

  const buttons: types.Button[] = [];
  d.buttons.slice(0, LIMITS.actionsElements).forEach((b, i) => {
    const value = buttonValue(b);
    if (value !== undefined) buttons.push(button({ text: b.label, actionId: `${HOME_RUN}:${i}`, value }));
  });
  if (buttons.length) {
    blocks.push(divider(), actions('home_reads', buttons));
    // A Home tab has no channel to answer in privately, so answers go to this app's Messages tab.
    blocks.push(context(md`Answers to these buttons arrive in your direct messages with cloudbot.`));
  }
  return { type: 'home', blocks: blocks.slice(0, HOME_MAX_BLOCKS) };
}
