/**
 * Issue 14, the shell: a press says which button it pressed, and input that ends while
 * watches still run says so.
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

describe('the shell', () => {
  it('echoes the button a number pressed', async () => {
    const from = h.mark();
    h.type('/cloud worker deploy --name echo --location 1 --repo https://github.com/acme/echo.git');
    const confirm = await h.waitFor(/\[(\d+)\] Confirm {2}\[(\d+)\] Cancel/, from);
    const at = h.mark();
    h.type(confirm[2]!);
    await h.waitFor(/cancelled/, at);
    // Piped input: the number is echoed after the prompt, then what it pressed.
    expect(h.since(at)).toMatch(new RegExp(`^cloud> ${confirm[2]}\\n→ pressed \\[${confirm[2]}\\] Cancel\\n`));
  });

  it('says so when input ends while a watch still runs', async () => {
    const from = h.mark();
    h.type('/cloud worker deploy --name late --location 1 --repo https://github.com/acme/late.git');
    const confirm = await h.waitFor(/\[(\d+)\] Confirm/, from);
    h.type(confirm[1]!);
    await h.waitFor(/— building/, from);
    await h.end();
    expect(h.since(from)).toMatch(/Input ended while 1 watch was still running/);
  });
});
