/**
 * When a schedule runs (issue 25): a cron expression or a plain form (`daily 02:00`,
 * `every sunday 03:00`, `in 2h`, `at 2026-12-01 03:00`), always in a named time zone. Plain
 * repeating forms become cron expressions, so croner decides every repeating run, with two
 * DST mends here: the second of a wall time that occurs twice is skipped (it runs once), and a
 * pattern naming wall times a spring-forward gap skips runs just after the gap (croner does
 * that only for single times). One-off times are placed in their zone by @date-fns/tz. No I/O.
 */
import { Cron } from 'croner';
import { TZDate } from '@date-fns/tz';
import { z } from 'zod';
import { quote } from './firewall-syntax.js';
import { md, val, type Mrkdwn } from '../views/mrkdwn.js';

/** What is stored: a repeating cron expression, or one moment (epoch ms). */
export type When = { kind: 'cron'; expr: string; tz: string; text: string } | { kind: 'once'; at: number; tz: string; text: string };

const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const UNIT_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };
/** A schedule runs at most this often (every minute would hammer the cloud and the channel). */
export const MIN_CRON_GAP_MS = 5 * 60_000;
/** `in …` at most this far ahead. */
const IN_MAX_MS = 366 * 86_400_000;

/** A zone the runtime knows (IANA name), as zod checks it. */
export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .refine((tz) => isTimeZone(tz), { error: (i) => `${quote(String(i.input).slice(0, 64))} is not a time zone (e.g. Europe/Berlin)` });

export function isTimeZone(tz: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(tz) && intlKnowsZone(tz);
}

function intlKnowsZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** A `--tz` flag of subscriptions and maintenance windows: any zone Intl knows. */
export const tzFlagSchema = z
  .string()
  .trim()
  .max(64)
  .refine(intlKnowsZone, { error: 'must be a time zone like Europe/Berlin or UTC' });

/** A cron expression croner accepts, of 5 fields (minute precision), or why not. */
function cronOf(expr: string, tz: string): { ok: true; cron: Cron } | { ok: false; message: Mrkdwn } {
  if (expr.split(/\s+/).length !== 5) return { ok: false, message: md`a cron expression has 5 fields: minute hour day month weekday` };
  try {
    return { ok: true, cron: new Cron(expr, { timezone: tz, paused: true }) };
  } catch (e) {
    return { ok: false, message: md`not a cron expression: ${val((e as Error).message.slice(0, 120))}` };
  }
}

/** A refusal's message is mrkdwn: our words, with what was typed (and the cron library's words) as values. */
export type WhenParse = { ok: true; when: When } | { ok: false; message: Mrkdwn };

/** Parses `<when>` in `tz`; `now` places `in 2h` and refuses a moment already past. */
export function parseWhen(text: string, tz: string, now: number): WhenParse {
  const t = text.trim().replace(/\s+/g, ' ');
  const lower = t.toLowerCase();
  let m: RegExpExecArray | null;
  if ((m = /^daily (\S+)$/.exec(lower)) || (m = /^every day (\S+)$/.exec(lower))) return repeating(timeCron(m[1]!, '*'), tz, t);
  if ((m = /^every (\w+) (\S+)$/.exec(lower))) {
    const day = DAYS.indexOf(m[1]!.replace(/s$/, '') as (typeof DAYS)[number]);
    if (day < 0) return { ok: false, message: md`${val(m[1]!)} is not a day of the week` };
    return repeating(timeCron(m[2]!, String(day)), tz, t);
  }
  if ((m = /^in (\d{1,6}) ?(m|min|h|d)$/.exec(lower))) {
    const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
    if (ms <= 0 || ms > IN_MAX_MS) return { ok: false, message: md`${val('in')} takes from 1m up to 366d` };
    return { ok: true, when: { kind: 'once', at: now + ms, tz, text: t } };
  }
  if ((m = /^at (\d{4})-(\d{2})-(\d{2})[ t](\d{1,2}):(\d{2})$/.exec(lower))) {
    const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
    const at = new TZDate(y, mo - 1, d, h, mi, 0, 0, tz);
    // Rolled over (31 February, 24:00): not a date that exists.
    if (Number.isNaN(at.getTime()) || at.getFullYear() !== y || at.getMonth() !== mo - 1 || at.getDate() !== d || h > 23) {
      return { ok: false, message: md`${val(t.slice(3))} is not a date and time (YYYY-MM-DD HH:MM)` };
    }
    if (at.getTime() <= now) return { ok: false, message: md`${val(t.slice(3))} (${val(tz)}) has already passed` };
    return { ok: true, when: { kind: 'once', at: at.getTime(), tz, text: t } };
  }
  if (/^[\d*,\-/a-z]+( [\d*,\-/a-z]+){4}$/.test(lower)) return repeating({ ok: true, expr: lower }, tz, t);
  return { ok: false, message: md`not a time: use a cron expression (${val('0 2 * * *')}), ${val('daily 02:00')}, ${val('every sunday 03:00')}, ${val('in 2h')} or ${val('at 2026-12-01 03:00')}` };
}

function timeCron(time: string, weekday: string): { ok: true; expr: string } | { ok: false; message: Mrkdwn } {
  const m = TIME.exec(time);
  if (!m) return { ok: false, message: md`${val(time)} is not a time of day (HH:MM)` };
  return { ok: true, expr: `${Number(m[2])} ${Number(m[1])} * * ${weekday}` };
}

function repeating(expr: { ok: true; expr: string } | { ok: false; message: Mrkdwn }, tz: string, text: string): WhenParse {
  if (!expr.ok) return expr;
  const c = cronOf(expr.expr, tz);
  if (!c.ok) return c;
  // Every gap, not only the first: a minute or hour list may have its close pair later in the
  // day (`0,30,32 2 * * *`) or across midnight (`0,58 0,23 * * *`). 300 runs at least 5 minutes
  // apart span a day and its midnight (a sparse pattern, months or years).
  const runs = c.cron.nextRuns(300, new Date(Date.UTC(2026, 0, 5))).map((d) => d.getTime());
  if (!runs.length) return { ok: false, message: md`that cron expression never runs` };
  if (runs.some((t, i) => i > 0 && t - runs[i - 1]! < MIN_CRON_GAP_MS)) return { ok: false, message: md`a schedule runs at most every 5 minutes` };
  return { ok: true, when: { kind: 'cron', expr: expr.expr, tz, text } };
}

/** The first run strictly after `after`, or null when there is none (a one-off already due). */
export function nextAfter(when: When, after: number): number | null {
  if (when.kind === 'once') return when.at > after ? when.at : null;
  const c = cronOf(when.expr, when.tz);
  if (!c.ok) return null;
  // croner runs a wall time that occurs twice only once for single-hour patterns: the repeats
  // of others are skipped here (at most one a minute of a 2-hour fall-back).
  let t = after;
  for (let i = 0; i <= 120; i++) {
    const n = c.cron.nextRun(new Date(t))?.getTime();
    if (n === undefined) return null;
    if (!repeatedWallTime(n, when.tz)) return gapRun(when.expr, when.tz, t, n) ?? n;
    t = n;
  }
  return null;
}

const offsetOf = (at: number, tz: string) => new TZDate(at, tz).getTimezoneOffset();

/**
 * The end of a spring-forward gap between `after` and `next`, when the cron names a wall time
 * the gap skipped: croner moves a single skipped time past the gap, but drops a pattern with
 * several minutes in it (`0,30 2 * * *` in Europe/Berlin has no run on 2026-03-29). The gap's
 * wall times are matched on a UTC cron, where every wall time exists.
 */
function gapRun(expr: string, tz: string, after: number, next: number): number | undefined {
  const before = offsetOf(after, tz);
  // getTimezoneOffset is UTC minus local: it shrinks when the clocks go forward.
  if (offsetOf(next, tz) >= before) return undefined;
  let lo = after;
  let hi = next;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (offsetOf(mid, tz) === before) lo = mid;
    else hi = mid;
  }
  // hi: the first instant on the new offset. The skipped wall times, as UTC: [start, start + length).
  const start = hi - before * 60_000;
  const length = (before - offsetOf(hi, tz)) * 60_000;
  const skipped = new Cron(expr, { timezone: 'UTC', paused: true }).nextRun(new Date(start - 1))?.getTime();
  return skipped !== undefined && skipped < start + length && hi < next ? hi : undefined;
}

/**
 * The same wall-clock minute came before, under the offset in force before the clocks went back
 * (no zone changes its offset twice within 3 hours): the second of a fall-back pair.
 */
function repeatedWallTime(at: number, tz: string): boolean {
  // getTimezoneOffset is UTC minus local: it grows when the clocks go back.
  const back = (new TZDate(at, tz).getTimezoneOffset() - new TZDate(at - 3 * 3_600_000, tz).getTimezoneOffset()) * 60_000;
  return back > 0 && formatInZone(at - back, tz) === formatInZone(at, tz);
}

/** `2026-03-29 03:00 Europe/Berlin`: a moment as the zone's wall clock, the zone named. */
export function formatInZone(at: number, tz: string): string {
  const d = new TZDate(at, tz);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())} ${tz}`;
}
