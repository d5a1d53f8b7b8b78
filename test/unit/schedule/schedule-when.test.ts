import { describe, expect, it } from 'vitest';
import { formatInZone, nextAfter, parseWhen, type When } from '../../../src/operations/schedule-when.js';

const NOW = Date.parse('2026-03-01T00:00:00Z');
const when = (text: string, tz: string): When => {
  const p = parseWhen(text, tz, NOW);
  if (!p.ok) throw new Error(p.message);
  return p.when;
};
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
/** The runs after `from`, as the scheduler advances through them. */
function runs(w: When, from: string, n: number): (string | null)[] {
  const out: (string | null)[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const next = nextAfter(w, t);
    out.push(iso(next));
    if (next === null) break;
    t = next;
  }
  return out;
}

describe('schedule times across DST', () => {
  it('Europe/Berlin spring forward: daily 02:30 runs once just after the gap, then at 02:30 CEST', () => {
    expect(runs(when('daily 02:30', 'Europe/Berlin'), '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z', // 02:30 CET
      '2026-03-29T01:00:00.000Z', // 02:30 does not exist: 03:00 CEST
      '2026-03-30T00:30:00.000Z', // 02:30 CEST
    ]);
  });

  it('Europe/Berlin spring forward: a cron with several minutes in the skipped hour runs once just after the gap, not never', () => {
    expect(runs(when('0,30 2 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', 3)).toEqual([
      '2026-03-29T01:00:00.000Z', // 03:00 CEST, just after the gap (02:00 and 02:30 do not exist)
      '2026-03-30T00:00:00.000Z', // 02:00 CEST
      '2026-03-30T00:30:00.000Z',
    ]);
    expect(runs(when('15,45 2 * * *', 'Europe/Berlin'), '2026-03-29T00:00:00Z', 2)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:15:00.000Z']);
    // A time after the gap is not moved into it; one named twice (02:00 skipped, 03:00) runs once.
    expect(runs(when('0,30 3 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', 2)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T01:30:00.000Z']);
    expect(runs(when('0 2,3 * * *', 'Europe/Berlin'), '2026-03-28T12:00:00Z', 2)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:00:00.000Z']);
  });

  it('Europe/Berlin fall back: 02:30 occurs twice and runs once, the first time', () => {
    expect(runs(when('30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', 2)).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST (again at 01:30Z as CET: not run)
      '2026-10-26T01:30:00.000Z', // 02:30 CET
    ]);
  });

  it('Europe/Berlin: every sunday 03:00 keeps its wall-clock time over the change', () => {
    expect(runs(when('every sunday 03:00', 'Europe/Berlin'), '2026-10-17T12:00:00Z', 2)).toEqual(['2026-10-18T01:00:00.000Z', '2026-10-25T02:00:00.000Z']);
  });

  it('America/New_York spring forward: cron 0 2 * * * runs at 03:00 EDT on the day 02:00 does not exist', () => {
    expect(runs(when('0 2 * * *', 'America/New_York'), '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:00:00.000Z',
      '2026-03-10T06:00:00.000Z',
    ]);
  });

  it('America/New_York fall back: daily 01:30 runs once on the day it occurs twice', () => {
    expect(runs(when('daily 01:30', 'America/New_York'), '2026-10-31T12:00:00Z', 2)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-02T06:30:00.000Z']);
  });

  it('America/New_York fall back: a cron of several hours runs 01:00 once, not again an hour later', () => {
    expect(runs(when('0 1,13 * * *', 'America/New_York'), '2026-10-31T18:00:00Z', 3)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT (again at 06:00Z as EST: not run)
      '2026-11-01T18:00:00.000Z', // 13:00 EST
      '2026-11-02T06:00:00.000Z',
    ]);
    expect(runs(when('0 1-2 * * *', 'America/New_York'), '2026-10-31T18:00:00Z', 3)).toEqual(['2026-11-01T05:00:00.000Z', '2026-11-01T07:00:00.000Z', '2026-11-02T06:00:00.000Z']);
  });

  it('Europe/Berlin fall back: 0,30 2 * * * runs 02:00 and 02:30 once each, the first time', () => {
    expect(runs(when('0,30 2 * * *', 'Europe/Berlin'), '2026-10-24T12:00:00Z', 3)).toEqual([
      '2026-10-25T00:00:00.000Z', // 02:00 CEST
      '2026-10-25T00:30:00.000Z', // 02:30 CEST (both again as CET: not run)
      '2026-10-26T01:00:00.000Z',
    ]);
    // Asked from inside the repeated hour (a restart then): the repeat is not run either.
    expect(iso(nextAfter(when('0,30 2 * * *', 'Europe/Berlin'), Date.parse('2026-10-25T00:45:00Z')))).toBe('2026-10-26T01:00:00.000Z');
  });

  it('a one-off `at` is placed in its zone, DST-aware, and runs once', () => {
    const w = when('at 2026-12-01 03:00', 'Europe/Berlin');
    expect(runs(w, '2026-11-01T00:00:00Z', 2)).toEqual(['2026-12-01T02:00:00.000Z', null]);
    expect(iso(when('at 2026-07-01 03:00', 'America/New_York').kind === 'once' ? (when('at 2026-07-01 03:00', 'America/New_York') as { at: number }).at : 0)).toBe('2026-07-01T07:00:00.000Z');
    expect(formatInZone(Date.parse('2026-12-01T02:00:00Z'), 'Europe/Berlin')).toBe('2026-12-01 03:00 Europe/Berlin');
  });

  it('`in 2h` counts from now', () => {
    expect(when('in 2h', 'UTC')).toMatchObject({ kind: 'once', at: NOW + 2 * 3_600_000 });
  });

  it.each([
    ['daily 25:00', 'not a time of day'],
    ['every funday 03:00', 'not a day of the week'],
    ['at 2026-02-30 03:00', 'not a date and time'],
    ['at 2025-01-01 03:00', 'already passed'],
    ['* * * * *', 'at most every 5 minutes'],
    ['0,30,32 2 * * *', 'at most every 5 minutes'], // its first two runs are 30 min apart, the next two 2
    ['0,58 0,23 * * *', 'at most every 5 minutes'], // 23:58, then 00:00 the next day
    ['0 2 * *', 'not a time'],
    ['tomorrow', 'not a time'],
    ['in 999d', 'up to 366d'],
  ])('%s is refused: %s', (text, words) => {
    const p = parseWhen(text, 'Europe/Berlin', NOW);
    expect(p.ok).toBe(false);
    expect(p.ok ? '' : p.message).toContain(words);
  });

  it('says why in words, with what was typed as an inert value', () => {
    const said = (text: string) => {
      const p = parseWhen(text, 'Europe/Berlin', NOW);
      return p.ok ? '' : p.message;
    };
    expect(said('*/2 * * * *')).toBe('a schedule runs at most every 5 minutes');
    expect(said('every funday 03:00')).toBe('`funday` is not a day of the week');
    expect(said('daily <!here>')).toBe('`&lt;!here&gt;` is not a time of day (HH:MM)');
    expect(said('at 2026-02-30 03:00')).toBe('`2026-02-30 03:00` is not a date and time (YYYY-MM-DD HH:MM)');
    expect(said('daily *25:00*')).toBe('`*25:00*` is not a time of day (HH:MM)');
  });
});
