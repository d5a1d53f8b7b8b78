/**
 * Issue 23's surfaces in the local shell: `shortcut TEXT` shows the Act on this modal the bot
 * opens in Slack (its buttons pressed by number run the command), and a pasted link (or
 * `link URL`) shows the preview the bot attaches with chat.unfurl — or says why there is none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHELL_HELP } from '../../src/shell/shell.js';
import { startShellHarness, type ShellHarness } from './harness.js';

let h: ShellHarness;
beforeAll(async () => {
  h = await startShellHarness();
});
afterAll(async () => {
  await h?.end();
});

describe('Act on this and link previews in the shell', () => {
  it('are listed in the shell’s help', () => {
    expect(SHELL_HELP).toMatch(/^ {2}shortcut TEXT {2,}"Act on this"/m);
    expect(SHELL_HELP).toMatch(/^ {2}link URL… {2,}post links/m);
  });

  it('shortcut lists what the message names (the sandbox seed’s names) with numbered buttons; a number runs the read', async () => {
    let from = h.mark();
    h.type('shortcut web-1 is slow, and sg 7 <!channel>');
    const m = await h.waitFor(/Server `web-1` · `101`\n│ \[(\d+)\] status/, from);
    const out = h.since(from);
    expect(out).toMatch(/Security group `web-default` · `7`\n│ \[\d+\] show {2}\[\d+\] deploy/);
    expect(out.split('\n').slice(1).join('\n')).not.toContain('<!channel>'); // the typed line is echoed; the modal never shows the message
    from = h.mark();
    h.type(m[1]!);
    await h.waitFor(/Ran `\/cloud server status 101` in #shell\.[\s\S]*Power: .*running/, from);
  });

  it('a pasted panel link gets the live status card; its read button answers privately', async () => {
    let from = h.mark();
    h.type('https://panel.example.net/security-groups/7');
    const m = await h.waitFor(/cloudbot previews https:\/\/panel\.example\.net\/security-groups\/7 in #shell \(everyone there sees it\):[\s\S]*\[(\d+)\] show/, from);
    expect(h.since(from)).toContain('web-default');
    from = h.mark();
    h.type(m[1]!);
    await h.waitFor(/cloudbot \(only you\):[\s\S]*web-default/, from);
  });

  it('a link that is not one of ours says there is no preview, and sends nothing', async () => {
    const from = h.mark();
    h.type('link https://panel.example.net/servers/..%2Faccount https://example.org/');
    await h.waitFor(/No preview: not a panel page or worker address/, from);
  });
});
