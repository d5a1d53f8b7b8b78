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
