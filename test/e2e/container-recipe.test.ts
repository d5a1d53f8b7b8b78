/**
 * The container recipe without a Docker engine: the Dockerfile's own steps, replayed in a clean
 * copy of the repository (its tracked files, as `docker build .` would see them), stage by
 * stage, then the runtime stage's CMD started against the fake Slack and the sandbox cloud:
 * its HEALTHCHECK command passes once the bot is ready (HTTP mode and Socket Mode), it answers a
 * command, and STOPSIGNAL ends it cleanly (exit 0).
 *
 * What a container has and this machine does not is stood in for, and only that:
 * - image paths (WORKDIR /app) are a folder per stage;
 * - `apt-get` and `chown` (root inside an image) are shims that record what was asked;
 * - `npm` runs from the local cache only (offline: nothing here needs the internet) and without
 *   install scripts; the one native module, better-sqlite3, gets the binary the repository's own
 *   `npm ci` built (same Node, same platform) — compiling SQLite again takes minutes on CI's 2
 *   cores. A cache missing a package fails the test with npm's ENOTCACHED: run `npm ci` once.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botEnvSchema } from '../../src/config.js';
import { createSandbox, type ListeningSandbox } from '../../src/sandbox/index.js';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { createFakeSocket } from '../rig/fake-socket.js';
import { freePort } from '../rig/loopback.js';
import { createResponseUrls, type ResponseUrls } from '../rig/response-url.js';
import { createSlackSender } from '../rig/slack-sender.js';
import { waitFor } from '../rig/wait-for.js';
import { APP_TOKEN, BOT_TOKEN, SIGNING_SECRET } from '../rig/workspace.js';
import { copyArgs, execForm, healthcheck, parseDockerfile, type Stage } from './dockerfile-steps.js';

const REPO = new URL('../../', import.meta.url).pathname;
const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const runtime = stages.at(-1)!;
const NATIVE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';

const only = (stage: Stage, op: string) => stage.steps.filter((s) => s.op === op);
const last = (stage: Stage, op: string) => only(stage, op).at(-1)?.args;

describe('the Dockerfile', () => {
  it('is multi-stage on Node 20 slim, runs as a non-root user, checks /readyz, stops on SIGTERM with npm start’s heap limit', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const s of stages) expect(s.image).toBe('node:20-slim');
    const user = last(runtime, 'USER');
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(last(runtime, 'STOPSIGNAL')).toBe('SIGTERM');
    const check = healthcheck(last(runtime, 'HEALTHCHECK')!);
    // Node's own fetch (slim images have no curl), from the compiled probe that asks /readyz.
    expect(check.command).toEqual(['node', 'dist/healthcheck.js']);
    expect(readFileSync(join(REPO, 'src/healthcheck.ts'), 'utf8')).toContain('/readyz');
    const cmd = execForm(last(runtime, 'CMD')!);
    expect(cmd[0]).toBe('node'); // node is PID 1: no npm or shell in between to swallow the signal
    // npm start's node flags (the heap limit and the young generation's size), every one of them.
    const startFlags = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts.start.match(/--[a-z-]+=\d+/g) as string[];
    expect(startFlags.length).toBeGreaterThanOrEqual(2);
    for (const flag of startFlags) expect(cmd).toContain(flag);
    // Nothing from the build context reaches the runtime stage directly: only the build's output.
    for (const c of only(runtime, 'COPY')) expect(copyArgs(c.args).from).toBeDefined();
  });

  it('exposes the port each mode listens on by default: PORT (HTTP mode), METRICS_PORT (Socket Mode’s probes and /metrics)', () => {
    const exposed = only(runtime, 'EXPOSE').flatMap((e) => e.args.split(/\s+/));
    const imageEnv = Object.fromEntries(only(runtime, 'ENV').flatMap((e) => [...e.args.matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!])));
    const defaults = botEnvSchema.pick({ PORT: true, METRICS_PORT: true }).parse(imageEnv);
    expect(exposed).toEqual(expect.arrayContaining([String(defaults.PORT), String(defaults.METRICS_PORT)]));
  });

  it('.dockerignore keeps secrets, local data and build output out of the build context', () => {
    const ignored = readFileSync(join(REPO, '.dockerignore'), 'utf8').split('\n').map((l) => l.trim());
    for (const p of ['.git', 'node_modules', 'dist', 'data', '.env']) expect(ignored, p).toContain(p);
  });

  it('compose.yaml: PostgreSQL and two replicas of the bot in HTTP mode, configured from .env, with time to drain', () => {
    const compose = parseYaml(readFileSync(join(REPO, 'compose.yaml'), 'utf8')) as {
      services: Record<string, { image?: string; build?: string; env_file?: string; environment?: Record<string, string>; deploy?: { replicas?: number }; stop_grace_period?: string }>;
    };
    const bot = compose.services.cloudbot!;
    expect(compose.services.postgres!.image).toMatch(/^postgres:/);
    expect(bot.build).toBe('.');
    expect(bot.env_file).toBe('.env');
    expect(bot.deploy?.replicas).toBe(2);
    expect(bot.environment?.SLACK_MODE).toBe('http');
    expect(bot.environment?.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
    // Every variable it sets is one the bot reads.
    for (const name of Object.keys(bot.environment ?? {})) expect(Object.keys(botEnvSchema.shape), name).toContain(name);
    // Docker's default 10 s would kill a replica inside SHUTDOWN_TIMEOUT_MS's default 15 s.
    expect(Number.parseInt(bot.stop_grace_period ?? '10s', 10)).toBeGreaterThanOrEqual(25);
  });
});

describe('its steps, replayed in a clean copy, and the result started', () => {
  let work: string;
  let runtimeDir: string;
  let env: Record<string, string>;
  const asked: string[] = [];
  let cloudServer: ListeningSandbox;
  let slack: FakeSlack;
  let responses: ResponseUrls;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cloudbot-image-'));
    // The build context: the repository's files as git sees them (tracked, or new and not ignored).
    const context = join(work, 'context');
    const listed = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: REPO, encoding: 'utf8' });
    expect(listed.status).toBe(0);
    for (const file of listed.stdout.split('\0').filter(Boolean)) {
      if (!existsSync(join(REPO, file))) continue; // deleted in the working tree
      mkdirSync(join(context, file, '..'), { recursive: true });
      cpSync(join(REPO, file), join(context, file));
    }
    // Root-only commands of an image build, recorded instead of run.
    const shims = join(work, 'shims');
    mkdirSync(shims);
    for (const tool of ['apt-get', 'chown']) {
      writeFileSync(join(shims, tool), `#!/bin/sh\necho "${tool} $*" >> "${join(work, 'asked.log')}"\n`);
      chmodSync(join(shims, tool), 0o755);
    }
    const stageDirs = new Map<string, string>();
    for (const [i, stage] of stages.entries()) {
      const dir = join(work, `stage-${i}`);
      mkdirSync(dir);
      if (stage.name) stageDirs.set(stage.name, dir);
      let workdir = '/';
      const stageEnv: Record<string, string> = {};
      /** An image path of this stage (or `base`'s), as a folder here. */
      const local = (p: string, base = dir) => join(base, p.startsWith('/') ? relative(workdir, p) : p);
      for (const step of stage.steps) {
        if (step.op === 'WORKDIR') workdir = step.args;
        else if (step.op === 'ENV') for (const m of step.args.matchAll(/(\w+)=(\S+)/g)) stageEnv[m[1]!] = m[2]!;
        else if (step.op === 'COPY') {
          const { from, sources, dest } = copyArgs(step.args);
          const fromDir = from ? stageDirs.get(from) : context;
          expect(fromDir, `COPY --from=${from}`).toBeDefined();
          for (const src of sources) {
            const source = from ? local(src, fromDir) : join(context, src);
            const into = dest.endsWith('/') || sources.length > 1 ? join(local(dest), basename(src)) : local(dest);
            cpSync(source, into, { recursive: true });
          }
        } else if (step.op === 'RUN') {
          const npmInstall = /\bnpm (ci|install)\b/.test(step.args);
          const result = spawnSync('sh', ['-c', workdir === '/' ? step.args : step.args.replaceAll(workdir, dir)], {
            cwd: dir,
            encoding: 'utf8',
            env: {
              PATH: `${shims}:${process.env.PATH ?? ''}`,
              HOME: process.env.HOME ?? work,
              // The cache `npm ci` filled (npm itself names it to scripts it runs, e.g. `npm test`).
              ...(process.env.npm_config_cache ? { npm_config_cache: process.env.npm_config_cache } : {}),
              ...stageEnv,
              npm_config_offline: 'true',
              npm_config_update_notifier: 'false',
              ...(npmInstall ? { npm_config_ignore_scripts: 'true' } : {}),
            },
          });
          expect(result.status, `RUN ${step.args}\n${result.stdout}\n${result.stderr}`).toBe(0);
          if (npmInstall) cpSync(join(REPO, NATIVE), join(dir, NATIVE));
        }
      }
      if (stage === runtime) {
        runtimeDir = dir;
        env = stageEnv;
      }
    }
    if (existsSync(join(work, 'asked.log'))) asked.push(...readFileSync(join(work, 'asked.log'), 'utf8').trim().split('\n'));

    cloudServer = await createSandbox({ token: 'image-token' }).listen();
    slack = await createFakeSlack();
    responses = await createResponseUrls();
  }, 300_000);

  afterAll(async () => {
    await cloudServer?.close();
    await slack?.close();
    await responses?.close();
    rmSync(work, { recursive: true, force: true });
  }, 120_000);

  /** Only the image's ENV and the bot's configuration (`mode`: HTTP's or Socket Mode's): nothing from the developer's shell. */
  const imageEnv = (mode: Record<string, string>): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    ...env,
    ...mode,
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_API_URL: slack.url,
    CLOUD_API_BASE_URL: cloudServer.baseUrl,
    CLOUD_API_TOKEN: 'image-token',
  });

  /** The image's CMD in its folder with `environment`, its output kept (as Docker runs it). */
  const startImage = (environment: Record<string, string>) => {
    const [cmd, ...args] = execForm(last(runtime, 'CMD')!);
    const child = spawn(cmd === 'node' ? process.execPath : cmd!, args, { cwd: runtimeDir, env: environment, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    return { child, output: () => out, exited };
  };

  /** The HEALTHCHECK command, run in the image's folder with the container's environment (as Docker runs it). */
  const probe = (environment: Record<string, string>) => {
    const check = healthcheck(last(runtime, 'HEALTHCHECK')!).command;
    return spawnSync(check[0] === 'node' ? process.execPath : check[0]!, check.slice(1), { cwd: runtimeDir, env: environment, encoding: 'utf8', timeout: 10_000 });
  };

  it('installs the native build tools, and gives the data folder to the user the bot runs as', () => {
    expect(asked.find((a) => a.startsWith('apt-get install'))).toMatch(/python3.*make.*g\+\+/);
    expect(asked).toContain(`chown ${last(runtime, 'USER')}:${last(runtime, 'USER')} ${join(runtimeDir, 'data')}`);
  });

  it('ships compiled JavaScript and production dependencies only', () => {
    expect(existsSync(join(runtimeDir, 'dist/main.js'))).toBe(true);
    expect(existsSync(join(runtimeDir, 'src'))).toBe(false);
    for (const dev of ['typescript', 'vitest', 'fast-check', 'ajv', 'parse-prometheus-text-format']) expect(existsSync(join(runtimeDir, 'node_modules', dev)), dev).toBe(false);
    for (const dep of ['@slack/bolt', 'pg', 'better-sqlite3', 'prom-client']) expect(existsSync(join(runtimeDir, 'node_modules', dep)), dep).toBe(true);
  });

  it('starts, passes its HEALTHCHECK once ready, answers a command, and exits 0 on its STOPSIGNAL', async () => {
    const botEnv = imageEnv({ PORT: '0', SLACK_SIGNING_SECRET: SIGNING_SECRET });
    const { child, output, exited } = startImage(botEnv);
    try {
      const port = await waitFor(() => /listening for Slack on :(\d+)/.exec(output())?.[1], { timeoutMs: 30_000 });
      expect(probe({ ...botEnv, PORT: port }).status).toBe(0);

      const responseUrl = responses.next();
      const ack = await createSlackSender(`http://127.0.0.1:${port}/slack/events`).command({ text: 'account usage', responseUrl });
      expect(ack.status).toBe(200);
      await waitFor(() => responses.postsTo(responseUrl)[0], { timeoutMs: 10_000 });
      // The default SQLite file landed in the data folder the image prepared.
      expect(existsSync(join(runtimeDir, 'data/cloudbot.db'))).toBe(true);

      child.kill(last(runtime, 'STOPSIGNAL') as NodeJS.Signals);
      expect(await exited).toBe(0);
      expect(output()).toContain('"msg":"shutting down"');
      expect(output()).not.toContain('image-token');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);

  it('in Socket Mode too: passes its HEALTHCHECK once connected (nothing listens on PORT there), and exits 0 on its STOPSIGNAL', async () => {
    const socket = await createFakeSocket({ slack });
    const metricsPort = await freePort();
    const botEnv = imageEnv({ METRICS_PORT: String(metricsPort), SLACK_APP_TOKEN: APP_TOKEN });
    const { child, output, exited } = startImage(botEnv);
    try {
      await waitFor(() => output().includes('connected to Slack in Socket Mode') || undefined, { timeoutMs: 30_000 });
      await socket.waitForConnection();
      const check = probe(botEnv);
      expect(check.status, `${check.stderr}\n${output()}`).toBe(0);
      child.kill(last(runtime, 'STOPSIGNAL') as NodeJS.Signals);
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await socket.close();
    }
  }, 60_000);
});
