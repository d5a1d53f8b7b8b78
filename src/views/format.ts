/**
 * Formatting shared by the views: sizes, money, moments. Pure; `now` is passed in. What is
 * meant for mrkdwn comes back as `Mrkdwn`: numbers and our own words only, and an unreadable
 * timestamp (cloud text) as a value.
 */
import { formatDistanceStrict, formatDistance } from 'date-fns';
import { date, md, trusted, val, type Mrkdwn } from './mrkdwn.js';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
const DASH = trusted('—');

/** Bytes as people read them: 1 GB is 1024³ bytes, as hosting panels count. */
export function bytes(value: number | null | undefined): Mrkdwn {
  if (value == null) return DASH;
  if (value === 0) return md`0 B`;
  let v = value;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = v >= 100 || Number.isInteger(v) ? 0 : 1;
  return trusted(`${v.toFixed(digits).replace(/\.0$/, '')} ${UNITS[u]}`);
}

export function gigabytes(value: number | null | undefined): Mrkdwn {
  return value == null ? DASH : md`${value} GB`;
}

/** The API gives amounts without a currency; show two decimals (more when a price needs it). */
export function money(value: number | null | undefined): Mrkdwn {
  if (value == null) return DASH;
  const decimals = Math.abs(value) < 0.1 && value !== 0 ? 4 : 2;
  return trusted(value.toFixed(decimals));
}

/** "3 hours ago" / "in 5 minutes"; an unreadable timestamp is cloud text, shown as a value. */
export function ago(iso: string | null | undefined, now: number): Mrkdwn {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return val(iso);
  return trusted(formatDistance(t, now, { addSuffix: true }));
}

/** "3 days ago" for an age measured earlier (kept as a number, e.g. in a change's facts). */
export function agoFromAge(ageMs: number): Mrkdwn {
  return trusted(formatDistance(0, ageMs, { addSuffix: true }));
}

/** Slack's own date formatting, shown in each reader's time zone, with "3 hours ago" as fallback. */
export function slackDate(iso: string | null | undefined, now: number): Mrkdwn {
  if (!iso) return DASH;
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return val(iso);
  return date(t, formatDistance(t, now, { addSuffix: true }));
}

/** Elapsed time, e.g. "4 minutes", for thread updates. */
export function elapsed(fromMs: number, toMs: number): Mrkdwn {
  return trusted(formatDistanceStrict(fromMs, toMs));
}

/**
 * How long from `from` to `to`, to the minute ("1 hour 30 minutes"): a window or mute typed
 * as `90m` reads as such, not rounded to "2 hours" (and then "1 hour left" a moment later).
 */
export function lasting(fromMs: number, toMs: number): Mrkdwn {
  const minutes = Math.round((toMs - fromMs) / 60_000);
  if (minutes < 1) return md`less than a minute`;
  const unit = (n: number, one: string): string[] => (n ? [`${n} ${one}${n === 1 ? '' : 's'}`] : []);
  return trusted([...unit(Math.floor(minutes / 1440), 'day'), ...unit(Math.floor((minutes % 1440) / 60), 'hour'), ...unit(minutes % 60, 'minute')].join(' '));
}

/** `2026-11-29 10:05 UTC`: a moment where Slack's date formatting cannot be used (fallbacks, plain-text step errors). */
export function utcMinute(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

/**
 * A moment for people: Slack's date in each reader's zone, falling back to UTC. Unlike "in 10
 * minutes", it stays true in a message nobody edits until the moment comes.
 */
export function moment(ms: number): Mrkdwn {
  if (!Number.isFinite(ms)) return md`?`;
  return date(ms, utcMinute(ms));
}

export function yesNo(v: boolean | null | undefined): Mrkdwn {
  return v == null ? DASH : v ? md`yes` : md`no`;
}

/** Plain text (not mrkdwn): the value, or a dash. In mrkdwn use `val`, which shows null as a dash. */
export function orDash(v: string | number | null | undefined): string {
  return v == null || v === '' ? '—' : String(v);
}

/** "1 address" / "3 addresses": the count and our own word for it. */
export function plural(n: number, one: Mrkdwn, many: Mrkdwn): Mrkdwn {
  return md`${n} ${n === 1 ? one : many}`;
}
