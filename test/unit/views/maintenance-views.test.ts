/** The answers of `/cloud maintenance …` say how long a window lasts as it was typed, not rounded to the hour. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { MaintenanceWindow } from '../../../src/store/maintenance-store.js';
import { buildMaintenanceList, buildMaintenanceStarted, buildMaintenanceSummary, maintenanceMark } from '../../../src/views/maintenance-views.js';

const shown = (r: { blocks: unknown[] }): string => JSON.stringify(r.blocks);
const now = Date.parse('2026-11-29T11:13:00Z');
const MIN = 60_000;

function win(endsAt: number): MaintenanceWindow {
  return {
    id: 'mw_aaaaaaaa', channelId: 'C1', account: null, kind: 'server', resource: '101', createdBy: 'U1',
    createdAt: now, startsAt: now, endsAt, endedAt: null, endedBy: null, muted: [], summaryClaimedBy: null, summaryTs: null,
  };
}

describe('maintenance window lengths', () => {
  it('a 90m window reads 1 hour 30 minutes when started, in the list and on a status answer', () => {
    const w = win(now + 90 * MIN);
    expect(buildMaintenanceStarted(w, now, '2026-11-29 12:43 UTC').text).toContain('(1 hour 30 minutes)');
    expect(shown(buildMaintenanceList([w], now, () => '2026-11-29 12:43 UTC'))).toContain('(1 hour 30 minutes left)');
    expect(maintenanceMark(w, now + 45 * MIN)).toContain('(45 minutes left');
  });

  it('whole hours and days read as before; the last minute reads as such', () => {
    expect(buildMaintenanceStarted(win(now + 120 * MIN), now, 'x').text).toContain('(2 hours)');
    expect(buildMaintenanceStarted(win(now + 26 * 60 * MIN), now, 'x').text).toContain('(1 day 2 hours)');
    expect(shown(buildMaintenanceList([win(now + 20_000)], now, () => 'x'))).toContain('(less than a minute left)');
  });
});

describe('the summary when a window ends', () => {
  it('says how long it lasted to the minute: a 90m window is not "2 hours"', () => {
    const w = win(now + 90 * MIN);
    expect(buildMaintenanceSummary(w, [], { now: w.endsAt }).text).toContain('ended as planned after 1 hour 30 minutes.');
    const early = { ...w, endedAt: now + 45 * MIN, endedBy: 'U2' };
    expect(buildMaintenanceSummary(early, [], { now: early.endedAt }).text).toMatch(/ended early by .* after 45 minutes\.$/);
  });

  it("the README's 2-hour example still reads as the bot says it", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const said = buildMaintenanceSummary({ ...win(now + 120 * MIN), id: 'mw_lokfs3uu' }, [], { now: now + 120 * MIN }).text;
    expect(said).toBe(':construction: Maintenance `mw_lokfs3uu` for server `101` ended as planned after 2 hours.');
    expect(readme).toContain('🚧 Maintenance `mw_lokfs3uu` for server `101` ended as planned after 2 hours.');
  });
});
