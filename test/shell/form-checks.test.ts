/**
 * Issue 14, forms in the shell: each answer is checked as it is given (the argument's schema,
 * and the entry's check where the fields above decide), so a bad URL is refused before the
 * twelve questions after it; a field required for the chosen source does not say "optional".
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

describe('a form walked in the shell', () => {
  it('refuses a bad repository URL and a bad port at once, asking again before the next field', async () => {
    const from = h.mark();
    h.type('/cloud worker deploy');
    await h.waitFor(/│ Location\n/, from);
    h.type('1');
    await h.waitFor(/│ Name\n/, from);
    h.type('web');
    await h.waitFor(/│ Source\n/, from);
    h.type('1');
    await h.waitFor(/│ Repository URL[^\n]*\n/, from);
    // Required for the chosen (git) source: not called optional, the hint says when it is needed.
    const asked = h.since(from);
    expect(asked).toMatch(/│ Repository URL \(Enter to skip\)\n│ {3}Required for a git source/);
    const repo = h.mark();
    h.type('not a url');
    await h.waitFor(/│ ! must be an http\(s\):\/\/ URL or git@host:owner\/repo\n│ Repository URL/, repo);
    expect(h.since(repo)).not.toContain('Branch');
    const empty = h.mark();
    h.type('');
    await h.waitFor(/│ ! a public source needs the repository URL/, empty);
    h.type('https://github.com/acme/web.git');
    await h.waitFor(/│ Template or database/, repo);
    for (const next of ['Branch', 'Build pack', 'Port']) {
      h.type('');
      await h.waitFor(new RegExp(`│ ${next} \\(optional`), repo);
    }
    const port = h.mark();
    h.type('abc');
    await h.waitFor(/│ ! must be a port number such as 3000[^\n]*\n│ Port/, port);
    expect(h.since(port)).not.toContain('Base directory');
    h.type('/cancel');
    await h.waitFor(/Form closed; nothing was sent/, port);
  });
});

describe('the subnet list follows the chosen location', () => {
  it('lists only the subnets of the location answered above (grouped by location in Slack)', async () => {
    const from = h.mark();
    h.type('/cloud ip reserve');
    await h.waitFor(/│ Location\n/, from);
    const locations = h.since(from);
    const fra = /│ {3}(\d+)\) FRA[^\n]*\(location 2\)/.exec(locations);
    expect(fra, locations).not.toBeNull();
    const subnets = h.mark();
    h.type(fra![1]!);
    await h.waitFor(/│ Subnet\n(?:│ [^\n]*\n)*?│ {3}1\) /, subnets);
    const listed = h.since(subnets);
    expect(listed).toContain('sub-fra-1');
    expect(listed).not.toContain('sub-ams-1');
    h.type('/cancel');
    await h.waitFor(/Form closed; nothing was sent/, subnets);
  });
});

describe('a field the bot refuses is asked again, the form stays open', () => {
  it('a subnet that filled up after the form opened: asked again with the reason, nothing sent', async () => {
    const from = h.mark();
    h.type('/cloud ip reserve');
    await h.waitFor(/│ Location\n/, from);
    const ams = /│ {3}(\d+)\) AMS[^\n]*\(location 1\)/.exec(h.since(from));
    expect(ams).not.toBeNull();
    const subnets = h.mark();
    h.type(ams![1]!);
    await h.waitFor(/│ Subnet\n(?:│ [^\n]*\n)*?│ {3}1\) /, subnets);
    const first = /│ {3}(\d+)\) sub-ams-1 /.exec(h.since(subnets));
    expect(first).not.toBeNull();
    const s = h.shell.sandbox!.state.subnets.find((x) => x.id === 'sub-ams-1')!;
    const size = s.size;
    s.size = s.taken.length; // full now, as the cloud will say on submission
    try {
      h.type(first![1]!);
      await h.waitFor(/│ How many addresses/, subnets);
      const submitted = h.mark();
      h.type('');
      await h.waitFor(/the bot asks again for Subnet/, submitted);
      await h.waitFor(/has no free addresses left[\s\S]*│ Subnet/, submitted);
      expect(h.since(submitted)).not.toContain('Form closed');
      h.type('/cancel');
      await h.waitFor(/Form closed; nothing was sent/, submitted);
    } finally {
      s.size = size;
    }
  });
});
