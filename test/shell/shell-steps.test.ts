/**
 * Workflow steps in the local shell (issue 23): `step NAME name=value …` sends function_executed
 * through the real Bolt app; a read completes at once, bad input fails with the bot's sentence
 * and sends nothing, and a change step posts its card, waits for the numbered Confirm, and is
 * printed as completed once (the shell's driver looks every 2 s).
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

const mutations = () => h.shell.sandbox!.requests.filter((r) => r.method !== 'GET');

describe('step in the shell', () => {
  it('a read step prints its outputs', async () => {
    const from = h.mark();
    h.type('step server-status server=101');
    await h.waitFor(/✓ workflow step Fx\w+ completed: power_state=running status=ready/, from);
  });

  it('bad input: the bot’s sentence, nothing sent; an unknown input is named by the shell', async () => {
    const before = mutations().length;
    const from = h.mark();
    h.type(`step backup-create server=101 name="${'x'.repeat(41)}"`);
    await h.waitFor(/✗ workflow step Fx\w+ failed: Input `name` must be at most 40 characters; nothing was sent\./, from);
    h.type('step backup-create server=101 colour=blue');
    await h.waitFor(/Step backup-create has no input colour; it takes channel, requester, server, name\./, from);
    expect(mutations().length).toBe(before);
  });

  it('a change step: its card, Confirm by number, one POST, then completed once', async () => {
    const from = h.mark();
    h.type('step sg-add-rule group=7 direction=in action=allow protocol=tcp port=443 comment="from a workflow"');
    const confirm = await h.waitFor(/\[(\d+)\] Confirm {2}\[(\d+)\] Cancel/, from);
    expect(mutations()).toEqual([]);
    h.type(confirm[1]!);
    const done = await h.waitFor(/✓ workflow step Fx\w+ completed: rule_id=(\d+)/, from, 15_000);
    expect(mutations().map((r) => `${r.method} ${r.path}`)).toEqual(['POST /security-groups/7/rules']);
    expect(h.since(from).match(/completed: rule_id/g)).toHaveLength(1);
    expect(Number(done[1])).toBeGreaterThan(0);
  });
});
