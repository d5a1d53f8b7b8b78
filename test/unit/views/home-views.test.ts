/**
 * The App Home tab as a pure view: a list the bot's store could not give is said so, never
 * shown as empty (issue 20: every message true).
 */
import { describe, expect, it } from 'vitest';
import { buildHome, type HomeData } from '../../../src/views/home-views.js';

const home = (over: Partial<HomeData>): HomeData => ({
  userId: 'U1',
  role: 'operator',
  now: 0,
  showAccounts: false,
  usage: [],
  ownRequests: [],
  approvals: undefined,
  watches: [],
  subscriptions: [],
  audit: [],
  auditOfOthers: false,
  buttons: [],
  ...over,
});

describe('buildHome, the activity list', () => {
  it('empty: nothing recorded yet', () => {
    expect(JSON.stringify(buildHome(home({ audit: [] })))).toContain('Nothing recorded yet.');
  });

  it('unreadable: says it could not be read, not that nothing was recorded', () => {
    const shown = JSON.stringify(buildHome(home({ audit: 'unreadable' })));
    expect(shown).toContain('Could not be read from the bot');
    expect(shown).not.toContain('Nothing recorded yet.');
  });
});

describe('buildHome, when it was read', () => {
  const AT = Date.UTC(2026, 10, 29, 9, 41, 30);

  it('says when what it shows was read, as an absolute time (Slack date, UTC fallback), near the top', () => {
    const view = buildHome(home({ now: AT }));
    const blocks = view.blocks as { type: string; elements?: { text: string }[] }[];
    const line = blocks.slice(0, 3).flatMap((b) => (b.type === 'context' ? (b.elements ?? []).map((e) => e.text) : [])).find((t) => t.includes('<!date^'));
    expect(line).toBeDefined();
    expect(line).toContain(`<!date^${AT / 1000}^{date_short_pretty} {time}|2026-11-29 09:41 UTC>`);
    expect(line).toMatch(/^Read /);
    // No relative words for the read itself: they would be false when the view is seen later.
    expect(line).not.toMatch(/\bago\b|\bjust now\b/);
  });
});

describe('buildHome, a request waiting', () => {
  it('says when it expires as a moment, not "in 10 minutes" (the tab is not redrawn as time passes)', () => {
    const AT = Date.UTC(2026, 10, 29, 9, 41);
    const expiresAt = AT + 10 * 60_000;
    const request = { id: 'op_1', command: '/cloud server reinstall', args: { id: '101' }, channelId: 'C1', requestedBy: 'U1', expiresAt, account: null, needsApproval: false };
    const shown = JSON.stringify(buildHome(home({ now: AT, ownRequests: [request] })));
    expect(shown).toContain(`waits for Confirm · expires <!date^${expiresAt / 1000}^{date_short_pretty} {time}|2026-11-29 09:51 UTC>`);
    expect(shown).not.toContain('expires in');
  });
});
