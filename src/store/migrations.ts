/**
 * Applies the schema's migrations (schema.ts, written once for both databases) to a SQLite
 * file at start, recording each in the schema_migrations ledger.
 */
import type { Database } from 'better-sqlite3';
import { SQLITE_DDL, type Migration } from './ddl.js';
import { migrationsFor } from './schema.js';

export type { Migration } from './ddl.js';

/** The schema's migrations (schema.ts) in SQLite's dialect. */
export const MIGRATIONS: readonly Migration[] = migrationsFor(SQLITE_DDL);

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

const LEDGER = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version     INTEGER NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    applied_at  INTEGER NOT NULL
  ) STRICT
`;

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new MigrationError(`Migration list is out of order: entry ${i} ("${m.name}") has version ${m.version}, expected ${i + 1}.`);
    }
  });
}

/** The highest version recorded in the database (0 for a fresh one). */
export function schemaVersion(db: Database): number {
  db.exec(LEDGER);
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Applies pending migrations, each in its own IMMEDIATE transaction (so two processes starting
 * together do not both apply one: the loser finds it recorded and skips it). Idempotent.
 * Refuses a database whose version is newer than this code knows. Returns the versions applied.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, now: () => number = Date.now): number[] {
  checkOrder(migrations);
  const known = migrations.length;
  const current = schemaVersion(db);
  if (current > known) {
    const file = db.name === ':memory:' ? 'The in-memory database' : `The database at ${db.name}`;
    throw new MigrationError(
      `${file} is at schema version ${current}, newer than this cloudbot knows (${known}). ` +
        'It was written by a newer release: upgrade cloudbot, or point DATABASE_URL at another file. ' +
        'Refusing to start rather than risk damaging it.',
    );
  }

  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    const apply = db.transaction(() => {
      if (isApplied.get(m.version) !== undefined) return false;
      db.exec(m.up);
      record.run(m.version, m.name, now());
      return true;
    });
    try {
      if (apply.immediate()) applied.push(m.version);
    } catch (err) {
      throw new MigrationError(`Migration ${m.version} ("${m.name}") failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return applied;
}
