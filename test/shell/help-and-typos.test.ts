/**
 * Issue 14 over the real bot (the shell drives the Bolt app): `--help` on a command, `help foo`,
 * "did you mean" that parses, a leading `cloud` dropped, and a NOT_FOUND that names the server.
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

const cloudCalls = () => h.shell.sandbox!.requests;

describe('help and typos in the shell', () => {
  it('`--help` shows the command’s usage and flags, and sends nothing', async () => {
    const before = cloudCalls().length;
    const from = h.mark();
    h.type('/cloud server status --help');
    await h.waitFor(/\/cloud server status <server> \[--watch\]/, from);
    expect(h.since(from)).toMatch(/`--watch` follow it/);
    expect(h.since(from)).not.toMatch(/has no flag/);
    // That command only, not the whole resource's help.
    expect(h.since(from)).not.toContain('/cloud server rename');
    expect(cloudCalls().length).toBe(before);
  });

  it('`help foo` says foo is unknown', async () => {
    const from = h.mark();
    h.type('/cloud help foo');
    await h.waitFor(/I don't know `foo`/, from);
  });

  it('suggests commands that exist, and drops a leading `cloud`', async () => {
    let from = h.mark();
    h.type('/cloud acc use');
    await h.waitFor(/Did you mean `\/cloud account usage`\?/, from);
    from = h.mark();
    h.type('/cloud ser cred 101');
    await h.waitFor(/Did you mean `\/cloud server credentials 101`\?/, from);
    from = h.mark();
    h.type('cloud server status 101');
    await h.waitFor(/Type \/cloud server status 101 to run it/, from);
  });

  it('a NOT_FOUND names the server and where servers are listed', async () => {
    const from = h.mark();
    h.type('/cloud server status 999');
    await h.waitFor(/Server `999` was not found in this account/, from);
    expect(h.since(from)).toContain('/cloud server known');
  });

  it('what the provider’s API does not offer is said so, with where it is done, and nothing is sent', async () => {
    const before = cloudCalls().length;
    const cases: [string, RegExp][] = [
      ['/cloud ssh-key create', /provider’s API cannot create SSH keys[\s\S]*provider’s panel/],
      ['/cloud keys add', /provider’s API cannot create SSH keys/],
      ['/cloud server list', /provider’s API cannot list servers[\s\S]*provider’s panel[\s\S]*\/cloud server known/],
      ['/cloud ip release 192.0.2.10', /provider’s API cannot release a reserved IP[\s\S]*provider’s panel/],
      // The spec has no endpoint for these either: said so, not "has no" nor a guess at a near verb.
      ['/cloud server delete 101', /provider’s API cannot delete servers/],
      ['/cloud server reboot 101', /provider’s API cannot power a server on or off/],
      ['/cloud sg delete 5', /provider’s API cannot delete security groups[\s\S]*\/cloud sg delete-rule/],
      ['/cloud worker list', /provider’s API cannot list workers/],
      ['/cloud backup restore 101 x', /provider’s API cannot restore backups/],
    ];
    for (const [line, said] of cases) {
      const from = h.mark();
      h.type(line);
      await h.waitFor(said, from);
      expect(h.since(from)).not.toMatch(/has no/);
    }
    // Help for the resource says it too, from the same declaration.
    const from = h.mark();
    h.type('/cloud help ssh-key');
    await h.waitFor(/Not offered by the provider’s API: `create`/, from);
    expect(cloudCalls().length).toBe(before);
  });
});
