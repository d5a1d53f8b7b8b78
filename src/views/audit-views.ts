/**
 * How the audit trail reads in Slack: one compact line per entry in AUDIT_CHANNEL, and the
 * `/cloud audit` listing. Pure. Everything from an entry is escaped (arguments are user text)
 * and cut, so no entry can break the message or exceed Slack's limits.
 */
import type { AuditEntry, AuditOutcome } from '../audit/types.js';
import type { Block, Reply } from '../operations/types.js';
import { code, context, cut, esc, header, LIMITS, lineSections, section } from './blocks.js';
import { ago, elapsed } from './format.js';

/** What a line needs: a stored entry, or one the store could not keep (no id). */
export type AuditLineEntry = Omit<AuditEntry, 'id'> & { id?: number | null };

export const OUTCOME_EMOJI: Record<AuditOutcome, string> = {
  succeeded: ':white_check_mark:',
  failed: ':x:',
  refused: ':no_entry:',
  requested: ':hourglass_flowing_sand:',
  cancelled: ':heavy_multiplication_x:',
  expired: ':alarm_clock:',
};

/** Entries shown by `buildAuditList` before "…and N more" (a readable message, not a wall). */
export const AUDIT_LIST_LINES = 100;
/** Sections for list lines: header + these + "more" + footer stays within 50 blocks. */
const LIST_SECTIONS = 46;

interface ArgStyle {
  /** Pairs shown before "+N more". */
  maxPairs: number;
  /** Characters of one value (before escaping). */
  maxValue: number;
}
const LINE_ARGS: ArgStyle = { maxPairs: 8, maxValue: 60 };
const LIST_ARGS: ArgStyle = { maxPairs: 4, maxValue: 40 };

/** Newlines and tabs would break a one-line view (and inline code). */
const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Slack ids are upper-case letters and digits; anything else is shown as code, never as markup. */
const SLACK_ID = /^[A-Z0-9_]{2,40}$/i;

export function userRef(id: string | null | undefined): string {
  if (!id) return '—';
  return SLACK_ID.test(id) ? `<@${id}>` : code(cut(id, 40));
}

function channelRef(id: string | null): string {
  if (!id) return 'outside a channel';
  if (!SLACK_ID.test(id)) return `in ${code(cut(id, 40))}`;
  return id.startsWith('D') ? 'in a DM' : `in <#${id}>`;
}

/** `server.reinstall` → `/cloud server reinstall`. */
export function commandOf(opId: string): string {
  const dot = opId.indexOf('.');
  const words = dot < 0 ? opId : `${opId.slice(0, dot)} ${opId.slice(dot + 1)}`;
  return `/cloud ${oneLine(words)}`;
}

function argValue(v: unknown, max: number): string {
  if (v === null) return 'null';
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (typeof v === 'string') return code(cut(oneLine(v), max));
  let json: string;
  try {
    json = JSON.stringify(v) ?? String(v);
  } catch {
    json = String(v);
  }
  return code(cut(oneLine(json), max));
}

/** Masked arguments as `key=value` pairs; strings escaped and cut. */
export function formatArgs(args: Record<string, unknown>, style: ArgStyle = LINE_ARGS): string {
  const pairs = Object.entries(args ?? {}).filter(([, v]) => v !== undefined);
  const shown = pairs.slice(0, style.maxPairs).map(([k, v]) => `${esc(cut(oneLine(k), 30))}=${argValue(v, style.maxValue)}`);
  if (pairs.length > style.maxPairs) shown.push(`+${pairs.length - style.maxPairs} more`);
  return shown.join(' ');
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return elapsed(0, ms);
}

/** Outcome, error code, note, who confirmed/approved, duration, operation: the line's tail. */
function tail(e: AuditLineEntry, withPeople: boolean): string[] {
  const parts = [`*${e.outcome}*${e.errorCode ? ` ${code(cut(oneLine(e.errorCode), 60))}` : ''}`];
  if (e.detail) parts.push(`_${esc(cut(oneLine(e.detail), 200))}_`);
  if (withPeople && e.confirmedBy) parts.push(`confirmed by ${userRef(e.confirmedBy)}`);
  if (withPeople && e.approvedBy) parts.push(`approved by ${userRef(e.approvedBy)}`);
  if (e.durationMs != null && Number.isFinite(e.durationMs)) parts.push(formatDuration(e.durationMs));
  if (withPeople && e.operationId) parts.push(code(cut(e.operationId, 40)));
  return parts;
}

function what(e: AuditLineEntry, style: ArgStyle): string {
  const args = formatArgs(e.args, style);
  const tier = e.tier === 'read' ? '' : ` _${e.tier}_`;
  return `${code(cut(commandOf(e.opId), 80))}${args ? ` ${args}` : ''}${tier}`;
}

/** One entry for the audit channel: who, where, what (masked args), outcome, error, people, time taken. */
export function buildAuditLine(entry: AuditLineEntry): Reply {
  const line =
    `${OUTCOME_EMOJI[entry.outcome] ?? ':grey_question:'} ${userRef(entry.userId)} ${channelRef(entry.channelId)}: ` +
    `${what(entry, LINE_ARGS)} — ${tail(entry, true).join(' · ')}`;
  // The notification text stays free of mentions (no pings) and of markup.
  const plain = `Audit: ${cut(oneLine(entry.userId), 40)} ${commandOf(entry.opId)} — ${entry.outcome}${entry.errorCode ? ` (${entry.errorCode})` : ''}`;
  return { text: esc(cut(plain, 300)), blocks: [section(line)] };
}

/** `/cloud audit`: newest first, one line per entry, at most AUDIT_LIST_LINES of them. */
export function buildAuditList(entries: AuditEntry[], now: number, opts: { userId?: string } = {}): Reply {
  const whose = opts.userId ? ` for ${userRef(opts.userId)}` : '';
  if (entries.length === 0) {
    const t = `No audit entries${whose} yet.`;
    return { text: opts.userId ? 'No audit entries for this user yet.' : t, blocks: [section(t)] };
  }
  const shown = entries.slice(0, AUDIT_LIST_LINES);
  const hidden = entries.length - shown.length;
  const lines = shown.map((e) => {
    const when = ago(new Date(e.at).toISOString(), now);
    const where = e.channelId && SLACK_ID.test(e.channelId) && !e.channelId.startsWith('D') ? ` in <#${e.channelId}>` : '';
    return `${OUTCOME_EMOJI[e.outcome] ?? ':grey_question:'} ${when} · ${userRef(e.userId)}${where} · ${what(e, LIST_ARGS)} — ${tail(e, false).join(' · ')}`;
  });
  let cutByBlocks = false;
  const body = lineSections(lines, LIST_SECTIONS, (n) => {
    cutByBlocks = true;
    return `…and ${n + hidden} more`;
  });
  const blocks: Block[] = [header('Audit trail'), ...body];
  if (hidden > 0 && !cutByBlocks) blocks.push(section(`_…and ${hidden} more_`));
  blocks.push(context(`${entries.length} entries${whose}, newest first.`));
  return { text: cut(`Audit trail: ${entries.length} entries`, LIMITS.messageText), blocks };
}
