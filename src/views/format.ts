/** Formatting shared by the views: sizes, money, moments. Pure; `now` is passed in. */
import { formatDistanceStrict, formatDistance } from 'date-fns';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];

/** Bytes as people read them: 1 GB is 1024³ bytes, as hosting panels count. */
export function bytes(value: number | null | undefined): string {
  if (value == null) return '—';
  if (value === 0) return '0 B';
  let v = value;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  const digits = v >= 100 || Number.isInteger(v) ? 0 : 1;
  return `${v.toFixed(digits).replace(/\.0$/, '')} ${UNITS[u]}`;
}

export function gigabytes(value: number | null | undefined): string {
  return value == null ? '—' : `${value} GB`;
}

/** The API gives amounts without a currency; show two decimals (more when a price needs it). */
export function money(value: number | null | undefined): string {
  if (value == null) return '—';
  const decimals = Math.abs(value) < 0.1 && value !== 0 ? 4 : 2;
  return value.toFixed(decimals);
}

/** "3 hours ago" / "in 5 minutes"; an unreadable timestamp is shown as given. */
export function ago(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return formatDistance(t, now, { addSuffix: true });
}

/** Slack's own date formatting, shown in each reader's time zone, with a plain fallback. */
export function slackDate(iso: string | null | undefined, now: number): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  return `<!date^${Math.floor(t / 1000)}^{date_short_pretty} {time}|${ago(iso, now)}>`;
}

/** Elapsed time, e.g. "4 minutes", for thread updates. */
export function elapsed(fromMs: number, toMs: number): string {
  return formatDistanceStrict(fromMs, toMs);
}

export function yesNo(v: boolean | null | undefined): string {
  return v == null ? '—' : v ? 'yes' : 'no';
}

export function orDash(v: string | number | null | undefined): string {
  return v == null || v === '' ? '—' : String(v);
}
