/** `<when>` of `/cloud maintenance`: durations and `until` times (in a zone), checked before anything starts. */
import { describe, expect, it } from 'vitest';
import { whenSchema, windowEnd } from '../../../src/operations/entries/maintenance-ops.js';

const NOW = Date.parse('2026-11-25T12:00:00Z');
const end = (text: string, tz?: string) => windowEnd(whenSchema.parse(text), NOW, tz ?? 'UTC');

describe('maintenance <when>', () => {
  it('reads durations from now', () => {
    expect(end('2h')).toBe(NOW + 2 * 3_600_000);
    expect(end('90m')).toBe(NOW + 90 * 60_000);
    expect(end('1h30m')).toBe(NOW + 90 * 60_000);
    expect(end('1d')).toBe(NOW + 86_400_000);
  });

  it('reads `until` in the given zone (UTC by default), across a DST change too', () => {
    expect(end('until 2026-11-25 15:00')).toBe(Date.parse('2026-11-25T15:00:00Z'));
    expect(end('until 2026-11-26 03:00', 'Europe/Berlin')).toBe(Date.parse('2026-11-26T02:00:00Z'));
    expect(end('until 2026-11-26 03:00', 'America/New_York')).toBe(Date.parse('2026-11-26T08:00:00Z'));
    const march = Date.parse('2027-03-27T12:00:00Z'); // Berlin moves to summer time on 28 March
    expect(windowEnd(whenSchema.parse('until 2027-03-28 12:00'), march, 'Europe/Berlin')).toBe(Date.parse('2027-03-28T10:00:00Z'));
  });

  it('refuses what is not a time, the past, and more than 7 days', () => {
    for (const bad of ['soon', '0h', '2x', 'until tomorrow', 'until 2026-13-01 03:00', '8d']) expect(whenSchema.safeParse(bad).success, bad).toBe(false);
    expect(() => end('until 2026-11-25 11:00')).toThrow(/is not in the future/);
    expect(() => end('until 2026-12-09 12:00')).toThrow(/at most 7 days/);
  });
});
