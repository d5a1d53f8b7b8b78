/**
 * `home` in the local shell (issue 14): the same App Home view the bot publishes in Slack
 * (views.publish), printed as text, within Block Kit's limits for a Home tab; its buttons work
 * by number and answer in the person's DM with the app.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBlockKitViolations } from '../rig/block-kit-limits.js';
import { HOME_VIEW_ID } from '../../src/shell/local-model.js';
import { SHELL_HELP } from '../../src/shell/shell.js';
import { startShellHarness, type ShellHarness } from './harness.js';

let h: ShellHarness;
beforeAll(async () => {
  h = await startShellHarness();
});
afterAll(async () => {
  await h?.end();
});

describe('home in the shell', () => {
  it('is listed in the shell’s help', () => {
    expect(SHELL_HELP).toMatch(/^ {2}home {2,}your App Home tab/m);
  });

  it('prints the Home tab: the person’s role, usage against limits, lists, and numbered buttons', async () => {
    const from = h.mark();
    h.type('home');
    // No "Active watches" button: `watch list` has no channel to be limited to, and the list above is (issue 21).
    const m = await h.waitFor(/\[(\d+)\] Account usage {2}\[\d+\] Audit trail/, from);
    const out = h.since(from);
    expect(out).toMatch(/Home/);
    expect(out).toMatch(/here you are an admin/);
    expect(out).toMatch(/Account usage[\s\S]*servers \d+ · CPU \d+\/\d+/);
    expect(out).toMatch(/Your requests waiting[\s\S]*Nothing of yours waits/);
    expect(out).toMatch(/Active watches[\s\S]*Subscriptions[\s\S]*Recent activity/);
    const home = h.shell.slack.model.views.get(HOME_VIEW_ID)!;
    expect(home.view.type).toBe('home');
    // What the bot sent (the local model adds Slack's stored fields: id, hash, callback_id …).
    expect(findBlockKitViolations({ type: home.view.type, blocks: home.view.blocks })).toEqual([]);

    const press = h.mark();
    h.type(m[1]!);
    await h.waitFor(/Account usage[\s\S]*CPU cores/, press);
  });

  it('after a command, the Home tab shows it in the recent activity', async () => {
    const from = h.mark();
    h.type('/cloud plan list');
    await h.waitFor(/Plans/, from);
    const again = h.mark();
    h.type('home');
    await h.waitFor(/Recent activity[\s\S]*`\/cloud plan list` — succeeded/, again);
  });
});
