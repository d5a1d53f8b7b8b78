/**
 * Issue 20 item 9, the shell as a newcomer meets it: where its admin comes from, emoji drawn
 * as emoji, no log lines between answers, App Home titled Home, thread titles without code marks,
 * and piped input echoed and drawn as the terminal draws it.
 */
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBotConfig, type ShellConfig } from '../../src/config.js';
import { startShell } from '../../src/shell/start-shell.js';
import { waitFor } from '../rig/wait-for.js';
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

  it('echoes each piped command line after its prompt, so the output reads as a transcript', async () => {
    const from = h.mark();
    h.type('  /cloud ssh-key list  ');
    await h.waitFor(/SSH keys/, from);
    expect(h.since(from)).toMatch(/^cloud> \/cloud ssh-key list\ncloudbot \(only you\):/);
  });
});

describe('piped input, a terminal as output', () => {
  it('draws values as the terminal does (in colour, no backticks) and echoes the commands', async () => {
    const input = new PassThrough();
    const output = Object.assign(new PassThrough(), { isTTY: true });
    let out = '';
    output.on('data', (d) => (out += String(d)));
    // No `terminal` option: input is not a terminal, the output is.
    const shell = await startShell({ config: loadBotConfig({}) as ShellConfig, input, output, sandbox: { buildMs: 1500, reinstallMs: 1000 } });
    try {
      input.write('/cloud server status 99999\n');
      await waitFor(() => (/was not found/.test(out) ? true : undefined), { timeoutMs: 8000, intervalMs: 20, message: `never answered:\n${out}` });
      expect(out).toContain('cloud> /cloud server status 99999');
      expect(out).toContain('\x1b[36m99999\x1b[39m');
      expect(out).not.toContain('`99999`');
    } finally {
      input.end();
      await shell.closed;
    }
  });
});
