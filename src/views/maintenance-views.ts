/**
 * Maintenance windows (issue 25 item 3): the answers of `/cloud maintenance …`, the mark on
 * status answers and App Home, and the one summary posted when a window ends. Ids, resources
 * and requests are values; people are mentions; nothing here says an alert "resolved".
 */
import type { CloudRequest } from '../domain/cloud-request.js';
import type { MaintenanceWindow } from '../store/maintenance-store.js';
import type { Reply } from './types.js';
import { context, lineSections, section } from './blocks.js';
import { channelRef, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { lasting, moment } from './format.js';
import { accountValue } from './account-label.js';
import { conditionWords } from './alert-words.js';
import { requestLine } from './status-views.js';
import { words } from './words.js';
import type { SubscriptionKind } from '../store/monitor-types.js';

/** One change the bot made on a window's resources while it was in force. */
export interface MaintenanceChange {
  opId: string;
  status: string;
  by: string;
  at: number;
  request?: CloudRequest;
}

/** `server `101`` / `the whole account`. */
export function maintenanceSubject(w: Pick<MaintenanceWindow, 'kind' | 'resource'>): Mrkdwn {
  return w.kind === 'account' ? md`the whole account` : md`${w.kind === 'server' ? md`server` : md`worker`} ${val(w.resource)}`;
}

/** The window in force over a server or worker, among those a view was given. */
export function windowOver(windows: MaintenanceWindow[] | undefined, kind: 'server' | 'worker', resource: string): MaintenanceWindow | undefined {
  return windows?.find((w) => w.kind === 'account' || (w.kind === kind && w.resource === resource));
}

/** The mark a status answer or App Home carries while its resource is in a window. */
export function maintenanceMark(w: MaintenanceWindow, now: number): Mrkdwn {
  return md`:construction: *In maintenance* until ${moment(w.endsAt)} (${lasting(now, w.endsAt)} left, ${val(w.id)} by ${mention(w.createdBy)}): alerts are held back.`;
}

/** `ends`: the end as the person reads it, zone named (`2026-12-01 03:00 America/New_York`). */
export function buildMaintenanceStarted(w: MaintenanceWindow, now: number, ends: string, account?: string): Reply {
  const on = account !== undefined ? md` (account ${accountValue(account)})` : md``;
  const text = md`:construction: Maintenance ${val(w.id)} for ${maintenanceSubject(w)}${on} until ${val(ends)} (${lasting(now, w.endsAt)}).`;
  return {
    text,
    blocks: [
      section(text),
      context(md`No alert is posted for it until then; this channel gets one summary when it ends. End it early with ${val(`/cloud maintenance end ${w.id}`)}.`),
    ],
  };
}

/** A `<when>` the clock refuses (in the past, too far ahead): nothing was started. */
export function buildMaintenanceRefused(reason: Mrkdwn, zone: string): Reply {
  const text = md`:grey_question: No maintenance window was started: ${reason}.`;
  return { text, blocks: [section(text), context(md`Times are read in ${val(zone)} (your Slack time zone unless ${val('--tz ZONE')}).`)] };
}

/** `zoneTime`: an end as the asker reads it, zone named. */
export function buildMaintenanceList(windows: MaintenanceWindow[], now: number, zoneTime: (at: number) => string): Reply {
  if (!windows.length) return { text: md`No maintenance window is in force.`, blocks: [section(md`No maintenance window is in force.`)] };
  const lines = windows.map(
    (w) => md`• ${val(w.id)} ${maintenanceSubject(w)} until ${val(zoneTime(w.endsAt))} (${lasting(now, w.endsAt)} left) — by ${mention(w.createdBy)} in ${channelRef(w.channelId)}`,
  );
  return { text: md`${windows.length} maintenance window(s) in force.`, blocks: [section(md`*Maintenance windows in force*`), ...lineSections(lines, 40)] };
}

export function buildMaintenanceEnded(id: string, outcome: { kind: 'unknown' } | { kind: 'over' | 'ended'; window: MaintenanceWindow }): Reply {
  const text =
    outcome.kind === 'unknown'
      ? md`There is no maintenance window ${val(id)} in this channel (see \`/cloud maintenance list\`).`
      : outcome.kind === 'over'
        ? md`Maintenance ${val(id)} is over already; its summary is (or will be) in the channel.`
        : md`:white_check_mark: Maintenance ${val(id)} for ${maintenanceSubject(outcome.window)} ended early by ${mention(outcome.window.endedBy)}. Alerts are posted again; the summary follows in the channel.`;
  return { text, blocks: [section(text)] };
}

/** The one message a window's end posts: what the bot changed meanwhile and what was held back. */
export function buildMaintenanceSummary(w: MaintenanceWindow, changes: MaintenanceChange[], opts: { now: number; account?: string }): Reply {
  const end = w.endedAt ?? w.endsAt;
  const on = opts.account !== undefined ? md` (account ${accountValue(opts.account)})` : md``;
  const how = w.endedAt !== null ? md`ended early by ${mention(w.endedBy)}` : md`ended as planned`;
  const title = md`:construction: Maintenance ${val(w.id)} for ${maintenanceSubject(w)}${on} ${how} after ${lasting(w.startsAt, end)}.`;
  const changed = changes.length
    ? changes.map((c) => md`• ${val(c.opId)} ${c.request ? requestLine(c.request) : md``} — ${val(c.status)}, by ${mention(c.by)} at ${moment(c.at)}`)
    : [md`• none made through the bot`];
  const held = w.muted.length
    ? w.muted.map((m) => {
        const said = conditionWords({ kind: m.kind as SubscriptionKind, resource: m.resource, condition: m.condition, detail: {} }, opts.now).short;
        return md`• ${said} — first seen ${moment(m.firstAt)}, last ${moment(m.lastAt)}`;
      })
    : [md`• none`];
  return {
    text: title,
    blocks: [
      section(title),
      section(md`*Changes made during it*`),
      ...lineSections(changed, 20),
      section(md`*Alerts held back* (not posted; anything that still holds is alerted now as usual)`),
      ...lineSections(held, 20),
      context(md`Started by ${mention(w.createdBy)} at ${moment(w.startsAt)}.`),
    ],
  };
}

