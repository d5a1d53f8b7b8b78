/**
 * `npm start`'s entry point as a real process: it refuses bad configuration with one message
 * naming every problem, serves Slack once configured, and stops cleanly on SIGTERM/SIGINT.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

function startMain(env: Record<string, string>, preload: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload.flatMap((f) => ['--import', f]), MAIN], {
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

  it('a fault nothing caught is one masked JSON line, then the same bounded stop as SIGTERM, exit 1', async () => {
    const p = startMain(
      {
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_API_URL: slack.url,
        PORT: '0',
        CLOUD_API_BASE_URL: cloudServer.baseUrl,
        CLOUD_API_TOKEN: 'main-process-token',
        DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'cloudbot-main-')), 'cloudbot.db')}`,
      },
      [new URL('../fixtures/reject-on-sigusr2.mjs', import.meta.url).href],
    );
    await waitFor(() => /listening for Slack on :(\d+)/.exec(p.output())?.[1], { timeoutMs: 15_000 });
    p.child.kill('SIGUSR2');
    expect(await p.exited).toBe(1);
    const lines = p.output().split('\n').filter((l) => l.includes('unhandled promise rejection'));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { level: string; msg: string };
    expect(line).toMatchObject({ level: 'error', msg: 'unhandled promise rejection; stopping' });
    expect(lines[0]).toContain('nobody caught this');
    expect(p.output()).not.toContain(['xoxb', '0000000000', 'fault-token'].join('-'));
    // The same stop as a signal's (readyz 503, leases released, store closed) before the exit.
    expect(p.output()).toMatch(/"msg":"shutting down".*"signal":"unhandledRejection"/);
  });
});

describe('Slack unreachable at start', () => {
  let cloudServer: ListeningSandbox;
  let slack: FakeSlack;
  beforeAll(async () => {
    cloudServer = await createSandbox({ token: 'main-process-token' }).listen();
    slack = await createFakeSlack();
  });
  afterAll(async () => {
    await cloudServer.close();
    await slack.close();
  });

  /** Slack as the bot sees it: connections dropped until `open()`, then forwarded to the fake. */
  async function gate() {
    let isOpen = false;
    const server = createServer((req, res) => {
      if (!isOpen) return void req.socket.destroy();
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void fetch(new URL(req.url!, slack.url.replace(/\/api\/?$/, '/')), {
          method: req.method!,
          headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>,
          body: chunks.length ? Buffer.concat(chunks) : null,
        }).then(async (r) => {
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await r.arrayBuffer()));
        });
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/api/`, open: () => (isOpen = true), close: () => new Promise((r) => server.close(r)) };
  }

  const env = (slackUrl: string, extra: Record<string, string>) => ({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slackUrl,
    PORT: '0',
    CLOUD_API_BASE_URL: cloudServer.baseUrl,
    CLOUD_API_TOKEN: 'main-process-token',
    DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'cloudbot-main-')), 'cloudbot.db')}`,
    ...extra,
  });

  it('serves /healthz at once, says what it waits for, and is ready once Slack answers', async () => {
    const g = await gate();
    const p = startMain(env(g.url, { SLACK_START_TIMEOUT_MS: '0' }));
    try {
      const port = await waitFor(() => /HTTP server up on :(\d+)/.exec(p.output())?.[1], { timeoutMs: 15_000 });
      const base = `http://127.0.0.1:${port}`;
      // Served while Slack still refuses auth.test (the gate is shut): it waits on nothing.
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const notReady = await fetch(`${base}/readyz`);
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toEqual({ ready: false, checks: { store: 'ok', slack: 'waiting for auth.test' } });
      await waitFor(() => /waiting for Slack: auth\.test failed \([^)]*\); trying again in 1 s/.test(p.output()) || undefined, { timeoutMs: 10_000 });
      g.open();
      await waitFor(() => /listening for Slack on :\d+/.test(p.output()) || undefined, { timeoutMs: 15_000 });
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, checks: { store: 'ok', slack: 'ok' } });
      p.child.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      p.child.kill('SIGKILL');
      await g.close();
    }
  });

  it('gives up after SLACK_START_TIMEOUT_MS with one clear message and exit code 1', async () => {
    const g = await gate();
    const p = startMain(env(g.url, { SLACK_START_TIMEOUT_MS: '2500' }));
    try {
      expect(await p.exited).toBe(1);
      const out = p.output();
      expect(out).toContain('waiting for Slack: auth.test failed');
      expect(out).toMatch(/Slack did not answer auth\.test within 2\.5 s \(SLACK_START_TIMEOUT_MS=2500; \d+ tries, last error: [^)]*\); giving up\./);
      expect(out).not.toContain('http request failed');
    } finally {
      await g.close();
    }
  });
});
