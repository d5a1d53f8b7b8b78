/**
 * A PostgreSQL database of its own for one bench section, made by bench/run.ts on the bench's
 * server (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else CI's) before the section and dropped
 * after it — also when the section failed or was killed at its time limit — so a run never meets
 * another run's (or a test's) rows and leaves nothing behind. The bot's tables land in the new
 * database's default schema, as in production.
 */
import pg from 'pg';
import { isPostgresUrl } from '../../src/store/index.js';
import { describeUrl } from '../../src/store/postgres/pool.js';

/** A bench that cannot reach its server says so within this long, not after pg's default wait. */
const CONNECT_TIMEOUT_MS = 3000;

export interface PgServer {
  /** host:port/database, without credentials. */
  description: string;
  /** `SHOW server_version`. */
  version: string;
}

export interface BenchDatabase {
  /** postgres://…/<the new database>: what the section's store connects to. */
  url: string;
  drop(): Promise<void>;
}

/** Thrown when the server cannot be used at all; its message is what the report prints. */
export class PgUnavailable extends Error {
  override readonly name = 'PgUnavailable';
}

const reason = (e: unknown) => {
  const err = e as { code?: string; message?: string };
  const text = [err.code, err.message].filter(Boolean).join(' ');
  return text || String(e);
};

async function withAdmin<T>(serverUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  if (!isPostgresUrl(serverUrl)) throw new PgUnavailable('the bench database URL (BENCH_DATABASE_URL / TEST_DATABASE_URL) is not a postgres:// URL');
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, application_name: 'cloudbot-bench' });
  // Without a listener a dropped connection would end the bench.
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => {});
    throw new PgUnavailable(`PostgreSQL unreachable at ${describeUrl(serverUrl)} (${reason(e)})`);
  }
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether the server answers, and which it is; throws PgUnavailable when it does not. */
export function probeServer(serverUrl: string): Promise<PgServer> {
  return withAdmin(serverUrl, async (client) => {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return { description: describeUrl(serverUrl), version: rows[0]?.server_version ?? 'unknown' };
  });
}

let seq = 0;

/** CREATE DATABASE cloudbot_bench_<section>_<pid>_<time>; `drop()` removes it (WITH FORCE). */
export async function createBenchDatabase(serverUrl: string, section: string): Promise<BenchDatabase> {
  const name = `cloudbot_bench_${section}_${process.pid}_${Date.now().toString(36)}_${seq++}`.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 63);
  await withAdmin(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: () => withAdmin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
