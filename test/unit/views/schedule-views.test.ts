/**
 * The schedule list within Slack's limits: every schedule is listed until the sections run out,
 * then "…and N more"; the fallback text counts rather than repeating the list.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/views/blocks.js';
import { buildScheduleList } from '../../../src/views/schedule-views.js';
import type { ScheduleRecord } from '../../../src/store/schedule-types.js';

const schedule = (i: number, command: string): ScheduleRecord => ({
  id: `sch_${String(i).padStart(10, '0')}`,
  channelId: 'C1',
  teamId: null,
  createdBy: 'U1',
  command,
  opId: 'server.status',
  when: { kind: 'cron', expr: '0 2 * * *', tz: 'Europe/Berlin', text: 'daily 02:00' },
  keep: null,
  status: 'active',
  confirmRecord: null,
  nextAt: 0,
  lastAt: null,
  lastResult: null,
  createdAt: 0,
  updatedAt: 0,
});
const zoneTime = () => '2026-12-01 02:00 Europe/Berlin';
const sectionTexts = (blocks: unknown[]) => (blocks as { type: string; text?: { text: string } }[]).filter((b) => b.type === 'section').map((b) => b.text!.text);

describe('buildScheduleList', () => {
  it('lists every schedule of a full channel, not only the first ones that fit one section', () => {
    const list = buildScheduleList(Array.from({ length: 40 }, (_, i) => schedule(i, `server status ${100 + i}`)), zoneTime, { channelId: 'C1' });
    const shown = sectionTexts(list.blocks!).join('\n');
    for (let i = 0; i < 40; i++) expect(shown).toContain(`sch_${String(i).padStart(10, '0')}`);
    expect(list.text).toBe('40 schedules in this channel');
  });

  it('long commands in every channel: within Slack’s limits, the rest counted', () => {
    const many = Array.from({ length: 400 }, (_, i) => schedule(i, `server status ${'x'.repeat(280)}`));
    const list = buildScheduleList(many, zoneTime, 'every channel');
    expect(list.text.length).toBeLessThanOrEqual(LIMITS.messageText);
    expect(list.blocks!.length).toBeLessThanOrEqual(LIMITS.blocksPerMessage);
    for (const t of sectionTexts(list.blocks!)) expect(t.length).toBeLessThanOrEqual(LIMITS.sectionText);
    expect(sectionTexts(list.blocks!).at(-1)).toMatch(/…and \d+ more/);
  });
});
