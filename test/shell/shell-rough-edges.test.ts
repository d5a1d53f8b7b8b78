/**
 * Issue 20 item 9, the shell as a newcomer meets it: where its admin comes from, emoji drawn
 * as emoji, no log lines between answers, App Home titled Home, thread titles without code marks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShellHarness, type ShellHarness } from './harness.js';

let h: ShellHarness;
beforeAll(async () => {
  h = await startShellHarness();
});
afterAll(async () => {
  await h?.end();
});

describe('the shell’s rough edges', () => {
  it('`/cloud policy` says the admin comes from the local shell, not from CLOUD_ADMINS (unset)', async () => {
    const from = h.mark();
    h.type('/cloud policy');
    await h.waitFor(/Rules come from/, from);
    const shown = h.since(from);
    expect(shown).not.toContain('CLOUD_ADMINS');
    expect(shown).toMatch(/admin: @you — the local shell, which makes its one person an admin/);
    const person = h.mark();
    h.type('/cloud policy USHELLUSER');
    await h.waitFor(/For @you: role admin, from the local shell, which makes its one person an admin/, person);
    expect(h.since(person)).not.toContain('CLOUD_ADMINS');
  });

  it('prints no [warn] log line among the answers (a NOT_FOUND is said once, in the answer)', async () => {
    const from = h.mark();
    h.type('/cloud server status 99999');
    await h.waitFor(/`?99999`? was not found/, from);
    // The answer is complete once the next command's answer has come.
    h.type('/cloud help ssh-key');
    await h.waitFor(/\/cloud ssh-key list/, from);
    expect(h.since(from)).not.toMatch(/\[warn\]/);
  });

  it('titles App Home as Home, not as a form', async () => {
    const from = h.mark();
    h.type('home');
    await h.waitFor(/Recent activity/, from);
    const shown = h.since(from);
    expect(shown).toMatch(/^┌ Home — your App Home tab$/m);
    expect(shown).not.toContain('form: Home');
  });
});
