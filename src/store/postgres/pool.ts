/**
 * The connection pool of the PostgreSQL store. Every connection carries a statement timeout and
 * a lock timeout (session options set at connect), so a held lock or a stuck server fails a
 * query in seconds instead of stalling the bot.
 */
import { createRequire } from 'node:module';
import type pg from 'pg';

/** pg (~15 MB of RSS) is loaded when the first pool is made, not by a bot on SQLite. */
let pgModule: typeof pg | undefined;
const loadPg = (): typeof pg => (pgModule ??= createRequire(import.meta.url)('pg') as typeof pg);

export interface PoolOptions {
  /** postgres://user:password@host:port/database?… */
  url: string;
  /** Schema for the bot's tables (created at start if missing); default the server's search_path. */
  schema?: string;
  /** Most connections (default 10). */
  max?: number;
  /** Any one statement (default 5000 ms). */
  statementTimeoutMs?: number;
  /** Waiting for a row or table lock (default 2000 ms). */
  lockTimeoutMs?: number;
  /** Opening a connection (default 5000 ms). */
  connectTimeoutMs?: number;
  /** An idle connection that fails (server restart, network); the pool replaces it. */
  onError?: (error: Error) => void;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function checkSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) throw new TypeError('schema must be a lower-case SQL identifier (letters, digits, _)');
  return schema;
}

/** The URL without its password (or any user info), for messages and logs. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    return `postgres://${u.hostname || 'localhost'}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

const INT8 = 20; // bigint: times (epoch ms), counts and ids all fit a JS number
const JSON_OID = 114;
const JSONB = 3802;

/** bigint as a number, and JSON left as text so rows map exactly like SQLite's. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8) {
      return (v: string) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n)) throw new RangeError(`bigint ${v} does not fit a JS number`);
        return n;
      };
    }
    if (oid === JSONB || oid === JSON_OID) return (v: string) => v;
    return loadPg().types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

/** How much longer than the statement timeout the client waits for an answer that does not come. */
const QUERY_TIMEOUT_MARGIN_MS = 1000;

const ms = (value: number | undefined, fallback: number) => Math.max(1, Math.trunc(value ?? fallback));

export function createPool(options: PoolOptions): pg.Pool {
  const settings = [
    `-c statement_timeout=${ms(options.statementTimeoutMs, 5000)}`,
    `-c lock_timeout=${ms(options.lockTimeoutMs, 2000)}`,
    // A connection left inside a transaction by a crash in our code must not hold locks forever.
    `-c idle_in_transaction_session_timeout=${ms(options.statementTimeoutMs, 5000) * 2}`,
  ];
  if (options.schema !== undefined) settings.push(`-c search_path=${checkSchemaName(options.schema)}`);
  const pool = new (loadPg().Pool)({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: ms(options.connectTimeoutMs, 5000),
    // The server's statement_timeout cannot fire when the network goes silent (a stalled link,
    // a paused server): the client gives up a little after it, and the pool drops that connection.
    query_timeout: ms(options.statementTimeoutMs, 5000) + QUERY_TIMEOUT_MARGIN_MS,
    idleTimeoutMillis: 30_000,
    options: settings.join(' '),
    types,
    application_name: 'cloudbot',
  });
  // Without a listener an idle connection's error would end the process.
  pool.on('error', (error) => options.onError?.(error));
  return pool;
}
