/**
 * `npm start`'s entry point as a real process: it refuses bad configuration with one message
 * naming every problem, serves Slack once configured, and stops cleanly on SIGTERM/SIGINT.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type ListeningSandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { BOT_TOKEN, SIGNING_SECRET } from '../rig/workspace.js';

const MAIN = new URL('../../src/main.ts', import.meta.url).pathname;

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    // A clean environment: nothing from the developer's shell or a stray .env leaks in.
    env: { PATH: process.env.PATH ?? '', ...env },
    cwd: new URL('../../test', import.meta.url).pathname,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  child.stderr.on('data', (d) => (out += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

describe('configuration', () => {
  it('names every bad or missing variable at once and exits 2', async () => {
    const p = startMain({ CLOUD_API_BASE_URL: 'https://api.example.com/v1', SLACK_MODE: 'http' });
    expect(await p.exited).toBe(2);
    const out = p.output();
    expect(out).toContain('CLOUD_API_BASE_URL must be an http(s) URL ending in /v2');
    expect(out).toContain('CLOUD_API_TOKEN is required');
    expect(out).toContain('SLACK_BOT_TOKEN is required');
    expect(out).toContain('SLACK_SIGNING_SECRET is required in HTTP mode');
  });
});

describe('running', () => {
  let cloudServer: ListeningSandbox;
  let slack: FakeSlack;
  let responses: ResponseUrls;
  beforeAll(async () => {
    const sandbox = createSandbox({ token: 'main-process-token' });
    cloudServer = await sandbox.listen();
    slack = await createFakeSlack();
    responses = await createResponseUrls();
  });
  afterAll(async () => {
    await cloudServer.close();
    await slack.close();
    await responses.close();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`serves a command, then stops cleanly on ${signal}`, async () => {
      const p = startMain({
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.url,
        PORT: '0', // the bound port is read back from the start-up log line
        CLOUD_API_BASE_URL: cloudServer.baseUrl,
        CLOUD_API_TOKEN: 'main-process-token',
        DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'cloudbot-main-')), 'nested', 'cloudbot.db')}`,
      });
      const port = await waitFor(() => /listening for Slack on :(\d+)/.exec(p.output())?.[1], { timeoutMs: 15_000 });
      const responseUrl = responses.next();
      const ack = await createSlackSender(`http://127.0.0.1:${port}/slack/events`).command({ text: 'account usage', responseUrl });
      expect(ack.status).toBe(200);
      await waitFor(() => responses.postsTo(responseUrl)[0], { timeoutMs: 5000 });
      p.child.kill(signal);
      expect(await p.exited).toBe(0);
      expect(p.output()).toContain('"msg":"shutting down"');
      // No role lists in this environment: secure by default, and the log says how to grant more.
      expect(p.output()).toContain('No roles are configured, so everyone is a viewer');
      expect(p.output()).not.toContain('main-process-token');
    });
  }
});
