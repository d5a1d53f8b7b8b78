/** The audit channel line and the `/cloud audit` list: escaped, compact, within Slack's limits. */
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditOutcome } from '../../src/domain/audit-entry.js';
import type { Reply } from '../../src/views/types.js';
import {
  AUDIT_LIST_LINES,
  OUTCOME_EMOJI,
  buildAuditLine,
  buildAuditList,
  commandOf,
  formatDuration,
} from '../../src/views/audit-views.js';
import { assertBlockKitValid } from '../rig/block-kit-limits.js';
import { fullEntry, T0 } from './helpers.js';

const valid = (r: Reply) => assertBlockKitValid({ text: r.text, blocks: r.blocks });
const textOf = (r: Reply) =>
  r.blocks
    .map((b) => ('text' in b && b.text && typeof b.text === 'object' ? b.text.text : 'elements' in b ? JSON.stringify(b.elements) : ''))
    .join('\n');

describe('buildAuditLine', () => {
  it('says who, where, what, with which args, how it ended, who confirmed and approved, and how long it took', () => {
    const r = buildAuditLine(
      fullEntry({
        args: { server: 'srv-123', image: 'ubuntu-24.04', port: 22, force: true, ssh_keys: ['k1', 'k2'] },
        outcome: 'failed',
        errorCode: 'SERVER_BUSY',
        userId: 'U0ALICE',
        channelId: 'C0OPS',
        confirmedBy: 'U0BOB',
        approvedBy: 'U0CAROL',
        durationMs: 4200,
        operationId: 'op_ABCDEFGHIJKLMNOP',
        detail: 'the cloud said busy',
      }),
    );
    valid(r);
    expect(r.blocks).toHaveLength(1);
    const line = textOf(r);
    expect(line).toBe(
      ':x: <@U0ALICE> in <#C0OPS>: `/cloud server reinstall` server=`srv-123` image=`ubuntu-24.04` port=22 force=true ' +
        'ssh_keys=`["k1","k2"]` _destroy_ — *failed* `SERVER_BUSY` · `the cloud said busy` · confirmed by <@U0BOB> · ' +
        'approved by <@U0CAROL> · 4.2 s · `op_ABCDEFGHIJKLMNOP`',
    );
    // The notification text pings nobody and carries no markup.
    expect(r.text).toBe('Audit: `U0ALICE` `/cloud server reinstall` — failed (`SERVER_BUSY`)');
    expect(line).not.toContain('\n');
  });

  it('escapes user text in args, detail and error code', () => {
    const r = buildAuditLine(
      fullEntry({
        opId: 'server.rename',
        tier: 'change',
        args: { name: '<script>&', 'k<>': { html: '<b>x</b>' }, note: '<!channel> `tick`' },
        errorCode: '<E&>',
        detail: 'needs <@U_ROOT> & <!here>',
      }),
    );
    valid(r);
    const all = JSON.stringify(r);
    expect(all).toContain('name=`&lt;script&gt;&amp;`');
    expect(all).toContain('k&lt;&gt;=');
    for (const raw of ['<script>', '<b>', '<!channel>', '<!here>', '<@U_ROOT>', '<E&>']) expect(all).not.toContain(raw);
    // A backtick inside a value cannot end the inline code early.
    expect(textOf(r)).toContain('note=`&lt;!channel&gt; ˋtickˋ`');
  });

  it('shows an odd user or channel id as code, never as markup; a DM and no channel in words', () => {
    const odd = buildAuditLine(fullEntry({ userId: 'U1><!channel', channelId: 'C1>|x' }));
    valid(odd);
    expect(textOf(odd)).toContain('`U1&gt;&lt;!channel`');
    expect(textOf(odd)).toContain('in `C1&gt;|x`');
    expect(JSON.stringify(odd)).not.toContain('<!channel');
    // An id without Slack's shape (U_ALICE has an underscore) is a value too.
    expect(textOf(buildAuditLine(fullEntry({ channelId: 'D0123' })))).toContain('`U_ALICE` in a DM:');
    expect(textOf(buildAuditLine(fullEntry({ userId: 'U0ALICE', channelId: null })))).toContain('<@U0ALICE> outside a channel:');
  });

  it('keeps to one line and Slack limits whatever the args hold', () => {
    const huge = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`key${i}`.repeat(20), `&<>\n`.repeat(2000)]));
    const r = buildAuditLine(fullEntry({ args: huge, detail: '&'.repeat(10_000), errorCode: 'E'.repeat(500), opId: 'x.' + 'y'.repeat(500) }));
    valid(r);
    const line = textOf(r);
    expect(line.length).toBeLessThanOrEqual(3000);
    expect(line).not.toContain('\n');
    expect(line).toContain('+32 more arguments');
    expect(r.text.length).toBeLessThan(400);
  });

  it('says what the "+N more" counts, in the singular for one, so it never reads as "+3 more change"', () => {
    const args = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`a${i}`, i]));
    const three = textOf(buildAuditLine(fullEntry({ tier: 'change', args: args(11) })));
    expect(three).toContain('+3 more arguments _change_');
    const one = textOf(buildAuditLine(fullEntry({ tier: 'change', args: args(9) })));
    expect(one).toContain('+1 more argument _change_');
  });

  it('has an emoji for every outcome, and a plain line for a read without args', () => {
    const outcomes: AuditOutcome[] = ['succeeded', 'failed', 'refused', 'requested', 'cancelled', 'expired'];
    for (const outcome of outcomes) {
      const r = buildAuditLine(fullEntry({ outcome }));
      expect(textOf(r).startsWith(OUTCOME_EMOJI[outcome])).toBe(true);
      valid(r);
    }
    const read = buildAuditLine(fullEntry({ opId: 'plan.list', tier: 'read', args: {}, outcome: 'refused', errorCode: 'ACCESS_DENIED', detail: 'needs role viewer' }));
    expect(textOf(read)).toBe(':no_entry: `U_ALICE` in `C_OPS`: `/cloud plan list` — *refused* `ACCESS_DENIED` · `needs role viewer`');
  });

  it('formats durations and commands', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4249)).toBe('4.2 s');
    expect(formatDuration(180_000)).toBe('3 minutes');
    expect(commandOf('server.remove-ip')).toBe('/cloud server remove-ip');
    expect(commandOf('help')).toBe('/cloud help');
  });
});

describe('buildAuditList', () => {
  const entries = (n: number, over: (i: number) => Partial<AuditEntry> = () => ({})): AuditEntry[] =>
    Array.from({ length: n }, (_, i) => fullEntry({ id: n - i, at: T0 - i * 60_000, ...over(i) }));
  const entryLines = (r: Reply) => textOf(r).split('\n').filter((l) => Object.values(OUTCOME_EMOJI).some((e) => l.startsWith(e)));
  const moreCount = (r: Reply) => Number(/…and (\d+) more/.exec(textOf(r))?.[1] ?? 0);

  it('says so when there is nothing', () => {
    const r = buildAuditList([], T0);
    valid(r);
    expect(r).toEqual({ text: 'No audit entries yet.', blocks: [expect.objectContaining({ type: 'section' })] });
    const mine = buildAuditList([], T0, { userId: 'U0ALICE' });
    valid(mine);
    expect(textOf(mine)).toBe('No audit entries for <@U0ALICE> yet.');
    expect(mine.text).not.toContain('<@');
  });

  it('lists entries newest first with a header, one line each, when and who', () => {
    const r = buildAuditList(
      [
        fullEntry({ id: 2, at: T0 - 5 * 60_000, outcome: 'refused', errorCode: 'ACCESS_DENIED', tier: 'read', opId: 'server.status', args: { server: 'srv-1' }, userId: 'U0ALICE', channelId: 'C0OPS' }),
        fullEntry({ id: 1, at: T0 - 3 * 3_600_000, durationMs: 900, channelId: 'D1' }),
      ],
      T0,
    );
    valid(r);
    expect(r.blocks[0]).toMatchObject({ type: 'header', text: { text: 'Audit trail' } });
    expect(entryLines(r)).toEqual([
      ':no_entry: 5 minutes ago · <@U0ALICE> in <#C0OPS> · `/cloud server status` server=`srv-1` — *refused* `ACCESS_DENIED`',
      ':white_check_mark: about 3 hours ago · `U_ALICE` · `/cloud server reinstall` server=`srv-123` image=`ubuntu-24.04` _destroy_ — *succeeded* · 900 ms',
    ]);
    expect(r.text).toBe('Audit trail: 2 entries');
    expect(r.blocks.at(-1)).toMatchObject({ type: 'context' });
  });

  it(`shows ${AUDIT_LIST_LINES} of 500 entries and "…and N more", within 50 blocks`, () => {
    const r = buildAuditList(entries(500), T0);
    valid(r);
    expect(r.blocks.length).toBeLessThanOrEqual(50);
    expect(entryLines(r)).toHaveLength(AUDIT_LIST_LINES);
    expect(textOf(r)).toContain(`…and ${500 - AUDIT_LIST_LINES} more`);
    expect(entryLines(r).length + moreCount(r)).toBe(500);
  });

  it('when even the shown lines overflow the blocks, counts every entry left out', () => {
    const heavy = entries(500, (i) => ({
      args: { a: '&'.repeat(40), b: '<'.repeat(40), c: '>'.repeat(40), d: '&'.repeat(40) },
      detail: `${i} ` + '&'.repeat(300),
      errorCode: 'E'.repeat(60),
      outcome: 'failed',
    }));
    const r = buildAuditList(heavy, T0);
    valid(r);
    expect(r.blocks.length).toBeLessThanOrEqual(50);
    const shown = entryLines(r).length;
    expect(shown).toBeLessThan(AUDIT_LIST_LINES);
    expect(shown + moreCount(r)).toBe(500);
    expect(textOf(r).match(/…and \d+ more/g)).toHaveLength(1);
    expect(JSON.stringify(r)).not.toMatch(/<(?![@#])/);
  });
});
