/**
 * Two shell sessions, one after the other, on the same DATABASE_URL: the second is a new
 * person at the keyboard, not a retry of the first. Its modals must not reuse the first
 * session's view ids, or the change flow's dedupe keys (Act on this: the modal and the
 * button; a form: the view and its values) take its request for the first one's and send nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { startShellHarness } from './harness.js';

it('Act on this in a second session on the same database sends its change, as the first did', async () => {
  const cloud = createSandbox({ token: 'remote-token-456' });
  const server = await cloud.listen();
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-shell-sessions-'));
  const env = { SLACK_MODE: 'shell', CLOUD_API_BASE_URL: server.baseUrl, CLOUD_API_TOKEN: 'remote-token-456', DATABASE_URL: `sqlite:${join(dir, 'bot.db')}` };
  const deploys = () => cloud.requests.filter((r) => r.method === 'POST' && r.path === '/security-groups/7/deploy');
  try {
    for (const session of [1, 2]) {
      const h = await startShellHarness(env);
      try {
        // The bot learns sg 7 from an answer (a remote cloud seeds no names); both sessions type the same.
        h.type('/cloud sg show 7');
        await h.waitFor(/web-default/);
        let from = h.mark();
        h.type('shortcut sg 7 drops traffic');
        const m = await h.waitFor(/\[(\d+)\] deploy/, from);
        from = h.mark();
        h.type(m[1]!);
        await h.waitFor(/deployed/, from).catch((e: unknown) => {
          throw new Error(`session ${session}: ${String(e)}; POST deploys seen: ${deploys().length}`);
        });
        expect(deploys()).toHaveLength(session);
      } finally {
        await h.end();
      }
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
