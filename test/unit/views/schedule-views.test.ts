/**
 * The schedule list within Slack's limits: every schedule is listed until the sections run out,
 * then "…and N more"; the fallback text counts rather than repeating the list.
 */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../src/views/blocks.js';
import { buildApprovalWithdrawn, buildRunUnchecked, buildScheduleList } from '../../../src/views/schedule-views.js';
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

describe('a run refused because its approval no longer holds', () => {
  const repeating = schedule(1, 'ssh-key delete 12');
  const once: ScheduleRecord = { ...repeating, when: { kind: 'once', at: 0, tz: 'UTC', text: 'in 1h' } };

  it('names the approver as a mention and, for a repeating schedule, what to do', () => {
    const why = buildApprovalWithdrawn(repeating, 'UDAVE00004');
    expect(why).toContain('<@UDAVE00004>, who approved it, may no longer approve it here');
    expect(why).toContain('`/cloud schedule cancel sch_0000000001`');
    expect(why).toContain('The next run is checked again.');
  });

  it('a one-off has nothing left to cancel and no next run', () => {
    const why = buildApprovalWithdrawn(once, 'UDAVE00004');
    expect(why).toContain('It was a one-off');
    expect(why).not.toContain('cancel');
    expect(why).not.toContain('next run');
    expect(buildRunUnchecked(once, ['S1'], { approvedBy: 'UDAVE00004' }, 60)).not.toContain('next run');
  });

  it('an approver that is not a user id (a damaged record) is shown as a value, never as markup', () => {
    const why = buildApprovalWithdrawn(repeating, '<!channel> *x*');
    expect(why).not.toContain('<!channel>');
    expect(why).toContain('`&lt;!channel&gt; *x*`');
    const unread = buildRunUnchecked(repeating, ['S1'], { approvedBy: '<!here>' }, 60);
    expect(unread).not.toContain('<!here>');
    expect(unread).toContain('which may give `&lt;!here&gt;`, who approved it, the right to approve it here');
  });
});
