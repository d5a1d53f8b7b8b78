/**
 * Applies the schema's migrations (schema.ts, written once for both databases) to PostgreSQL,
 * recorded in a schema_migrations ledger. Replicas starting together take an advisory lock
 * first, so exactly one applies each migration and the others find it recorded.
 */
import type pg from 'pg';
import { MigrationError } from '../migrations.js';
import { POSTGRES_DDL, type Migration } from '../ddl.js';
import { migrationsFor } from '../schema.js';
import { describeUrl } from './pool.js';

/** The schema's migrations (schema.ts) in PostgreSQL's dialect. */
export const PG_MIGRATIONS: readonly Migration[] = migrationsFor(POSTGRES_DDL);

export interface PgMigrateOptions {
  /** Create this schema if missing (it is on the pool's search_path). */
  schema?: string;
  /** How long to wait for another replica's migration, and the limit for each migration (default 60 s). */
  timeoutMs?: number;
  now?: () => number;
  /** For messages only (never the password). */
  url?: string;
}

const LEDGER = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version     integer NOT NULL PRIMARY KEY,
    name        text    NOT NULL,
    applied_at  bigint  NOT NULL
  )`;

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new MigrationError(`Migration list is out of order: entry ${i} ("${m.name}") has version ${m.version}, expected ${i + 1}.`);
    }
  });
}

/**
 * Applies pending migrations, each in its own transaction, under a session advisory lock keyed
 * by the schema. Idempotent; refuses a database newer than this code. Returns the versions applied.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly Migration[] = PG_MIGRATIONS,
  options: PgMigrateOptions = {},
): Promise<number[]> {
  checkOrder(migrations);
  const now = options.now ?? Date.now;
  const timeout = Math.max(1, Math.trunc(options.timeoutMs ?? 60_000));
  const client = await pool.connect();
  try {
    // Migrations may legitimately outlast the everyday statement timeout; waiting replicas too.
    await client.query(`SET statement_timeout = ${timeout}; SET lock_timeout = ${timeout}`);
    const scope = options.schema ?? ((await client.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0]?.s ?? 'public');
    await client.query("SELECT pg_advisory_lock(hashtext('cloudbot:migrate'), hashtext($1))", [scope]);
    try {
      if (options.schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      await client.query(LEDGER);
      const current = (await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0]?.v ?? 0;
      if (current > migrations.length) {
        const where = options.url ? `The database at ${describeUrl(options.url)} (schema ${scope})` : `Schema ${scope}`;
        throw new MigrationError(
          `${where} is at schema version ${current}, newer than this cloudbot knows (${migrations.length}). ` +
            'It was written by a newer release: upgrade cloudbot, or point DATABASE_URL at another database. ' +
            'Refusing to start rather than risk damaging it.',
        );
      }
      const applied: number[] = [];
      for (const m of migrations.slice(current)) {
        try {
          await client.query('BEGIN');
          await client.query(m.up);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, now()]);
          await client.query('COMMIT');
          applied.push(m.version);
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new MigrationError(`Migration ${m.version} ("${m.name}") failed: ${(err as Error).message}`, { cause: err });
        }
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('cloudbot:migrate'), hashtext($1))", [scope]).catch(() => {});
    }
  } finally {
    // Dropped, not returned: its session settings were for migrating only.
    client.release(true);
  }
}

/** The highest version recorded (0 for a fresh schema). */
export async function pgSchemaVersion(db: pg.Pool): Promise<number> {
  const exists = (await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t")).rows[0]?.t;
  if (!exists) return 0;
  return (await db.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0]?.v ?? 0;
}
