/**
 * The wall clock of a time zone, from Node's Intl (no dependency): which local day it is and
 * how many minutes past midnight, so a daily digest goes out at its local time once a day.
 */
const formats = new Map<string, Intl.DateTimeFormat>();

export function localParts(now: number, tz: string): { day: string; minutes: number } {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    formats.set(tz, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(now)).map((p) => [p.type, p.value]));
  return { day: `${parts.year}-${parts.month}-${parts.day}`, minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** `HH:MM` → minutes past midnight, or undefined when it is not a time of day. */
export function minutesOf(at: string): number | undefined {
  const m = /^([01]?\d|2[0-3]):([0-5]\d)$/.exec(at.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}
