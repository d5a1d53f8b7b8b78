/** CLOUD_API_BASE_URL points the shell at a cloud of its own (here a separately started sandbox). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/sandbox/index.js';
import { startShellHarness } from './harness.js';

it('drives the named cloud with its token, and keeps records in DATABASE_URL', async () => {
  const cloud = createSandbox({ token: 'remote-token-123' });
  const server = await cloud.listen();
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-shell-remote-'));
  try {
    const h = await startShellHarness({ SLACK_MODE: 'shell', CLOUD_API_BASE_URL: server.baseUrl, CLOUD_API_TOKEN: 'remote-token-123', DATABASE_URL: `sqlite:${join(dir, 'bot.db')}` });
    expect(h.shell.sandbox).toBeUndefined();
    expect(h.output().split('\n')[0]).toBe(`cloudbot shell — cloud at ${server.baseUrl} (not Slack). Type /cloud help; Ctrl-D quits. To connect to Slack, see README › Connect to Slack.`);
    h.type('/cloud server status 101');
    await h.waitFor(/== Server 101 ==/);
    expect(cloud.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /servers/101/status']);
    await h.end();
    expect(h.output()).not.toContain('remote-token-123');
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
