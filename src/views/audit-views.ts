/**
 * How the audit trail reads in Slack: one compact line per entry in AUDIT_CHANNEL, and the
 * `/cloud audit` listing. Pure. Everything from an entry is escaped (arguments are user text)
 * and cut, so no entry can break the message or exceed Slack's limits.
 */
import type { AuditEntry, AuditOutcome } from '../domain/audit-entry.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections, section } from './blocks.js';
import { channelRef as channelMention, join, md, mention, val, type Mrkdwn } from './mrkdwn.js';
import { ago, elapsed, plural } from './format.js';
import { words } from './words.js';

/** What a line needs: a stored entry, or one the store could not keep (no id). */
export type AuditLineEntry = Omit<AuditEntry, 'id'> & { id?: number | null };

export const OUTCOME_EMOJI: Record<AuditOutcome, Mrkdwn> = {
  succeeded: md`:white_check_mark:`,
  failed: md`:x:`,
  refused: md`:no_entry:`,
  requested: md`:hourglass_flowing_sand:`,
  cancelled: md`:heavy_multiplication_x:`,
  expired: md`:alarm_clock:`,
};
const UNKNOWN_OUTCOME = md`:grey_question:`;

/** Entries shown by `buildAuditList` before "…and N more" (a readable message, not a wall). */
export const AUDIT_LIST_LINES = 100;
/** Sections for list lines: header + these + "more" + footer stays within 50 blocks. */
const LIST_SECTIONS = 46;

interface ArgStyle {
  /** Pairs shown before "+N more arguments". */
  maxPairs: number;
  /** Characters of one value (before escaping). */
  maxValue: number;
}
const LINE_ARGS: ArgStyle = { maxPairs: 8, maxValue: 60 };
const LIST_ARGS: ArgStyle = { maxPairs: 4, maxValue: 40 };

/** Newlines and tabs would break a one-line view. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A user as a mention when the id has Slack's shape, else as a value (see `mention`). */
export function userRef(id: string | null | undefined): Mrkdwn {
  if (!id) return md`—`;
  return mention(id.length > 40 ? id.slice(0, 40) : id);
}

function channelRef(id: string | null): Mrkdwn {
  if (!id) return md`outside a channel`;
  if (/^D[A-Z0-9]{2,20}$/.test(id)) return md`in a DM`;
  return md`in ${channelMention(id.length > 40 ? id.slice(0, 40) : id)}`;
}

/** `server.reinstall` → `/cloud server reinstall`. */
export function commandOf(opId: string): string {
  const dot = opId.indexOf('.');
  const words = dot < 0 ? opId : `${opId.slice(0, dot)} ${opId.slice(dot + 1)}`;
  return `/cloud ${oneLine(words)}`;
}

function argValue(v: unknown, max: number): Mrkdwn {
  if (v === null) return md`null`;
  if (typeof v === 'number' && Number.isFinite(v)) return md`${v}`;
  if (typeof v === 'boolean') return v ? md`true` : md`false`;
  if (typeof v === 'string') return val(v, max);
  let json: string;
  try {
    json = JSON.stringify(v) ?? String(v);
  } catch {
    json = String(v);
  }
  return val(json, max);
}

/** Masked arguments as `key=value` pairs; every key and string a value, cut. */
export function formatArgs(args: Record<string, unknown>, style: ArgStyle = LINE_ARGS): Mrkdwn {
  const pairs = Object.entries(args ?? {}).filter(([, v]) => v !== undefined);
  const shown = pairs.slice(0, style.maxPairs).map(([k, v]) => md`${words(oneLine(k).slice(0, 30))}=${argValue(v, style.maxValue)}`);
  // "+3 more arguments": the bare "+3 more" ran into the tier word after it ("+3 more change").
  const hidden = pairs.length - style.maxPairs;
  if (hidden > 0) shown.push(md`+${hidden} more ${hidden === 1 ? md`argument` : md`arguments`}`);
  return join(shown, ' ');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return elapsed(0, ms);
}

/** Outcome, error code, note, who confirmed/approved, duration, operation: the line's tail. */
function tail(e: AuditLineEntry, withPeople: boolean): Mrkdwn[] {
  const parts = [e.errorCode ? md`*${words(e.outcome)}* ${val(e.errorCode, 60)}` : md`*${words(e.outcome)}*`];
  if (e.detail) parts.push(val(e.detail, 200));
  if (withPeople && e.confirmedBy) parts.push(md`confirmed by ${userRef(e.confirmedBy)}`);
  if (withPeople && e.approvedBy) parts.push(md`approved by ${userRef(e.approvedBy)}`);
  if (e.durationMs != null && Number.isFinite(e.durationMs)) parts.push(words(formatDuration(e.durationMs)));
  if (withPeople && e.operationId) parts.push(val(e.operationId, 40));
  return parts;
}

/** " on `prod`" for an entry on a named account; nothing for the default one (and older entries). */
function onAccount(e: Pick<AuditLineEntry, 'account'>): Mrkdwn {
  const account = e.account ?? null;
  return account === null ? md`` : md` on ${val(account, 40)}`;
}

function what(e: AuditLineEntry, style: ArgStyle): Mrkdwn {
  const args = formatArgs(e.args, style);
  const tier = e.tier === 'read' ? md`` : md` _${words(e.tier)}_`;
  return md`${val(commandOf(e.opId), 80)}${args ? md` ${args}` : md``}${tier}${onAccount(e)}`;
}

/** One entry for the audit channel: who, where, what (masked args), outcome, error, people, time taken. */
export function buildAuditLine(entry: AuditLineEntry): Reply {
  const line = md`${OUTCOME_EMOJI[entry.outcome] ?? UNKNOWN_OUTCOME} ${userRef(entry.userId)} ${channelRef(entry.channelId)}: ${what(entry, LINE_ARGS)} — ${join(tail(entry, true), ' · ')}`;
  // The notification text pings nobody: the user is a value, not a mention.
  const code = entry.errorCode ? md` (${val(entry.errorCode, 60)})` : md``;
  return { text: md`Audit: ${val(entry.userId, 40)} ${val(commandOf(entry.opId), 80)}${onAccount(entry)} — ${words(entry.outcome)}${code}`, blocks: [section(line)] };
}

/** `/cloud audit`: newest first, one line per entry, at most AUDIT_LIST_LINES of them. */
export function buildAuditList(entries: AuditEntry[], now: number, opts: { userId?: string } = {}): Reply {
  const whose = opts.userId ? md` for ${userRef(opts.userId)}` : md``;
  if (entries.length === 0) {
    const t = md`No audit entries${whose} yet.`;
    return { text: opts.userId ? md`No audit entries for this user yet.` : t, blocks: [section(t)] };
  }
  const shown = entries.slice(0, AUDIT_LIST_LINES);
  const hidden = entries.length - shown.length;
  const lines = shown.map((e) => {
    const when = words(ago(new Date(e.at).toISOString(), now));
    const where = e.channelId && !/^D/.test(e.channelId) ? md` ${channelRef(e.channelId)}` : md``;
    return md`${OUTCOME_EMOJI[e.outcome] ?? UNKNOWN_OUTCOME} ${when} · ${userRef(e.userId)}${where} · ${what(e, LIST_ARGS)} — ${join(tail(e, false), ' · ')}`;
  });
  // What is left out can be read by narrowing the list to one person.
  const narrow = opts.userId ? md`` : md` — ${val('/cloud audit --user U0123ABCD')} narrows it to one person`;
  let cutByBlocks = false;
  const body = lineSections(lines, LIST_SECTIONS, (n) => {
    cutByBlocks = true;
    return md`…and ${n + hidden} more${narrow}`;
  });
  const blocks: Block[] = [header('Audit trail'), ...body];
  if (hidden > 0 && !cutByBlocks) blocks.push(section(md`_…and ${hidden} more${narrow}_`));
  blocks.push(context(md`${plural(entries.length, md`entry`, md`entries`)}${whose}, newest first.`));
  return { text: md`Audit trail: ${plural(entries.length, md`entry`, md`entries`)}`, blocks };
}
