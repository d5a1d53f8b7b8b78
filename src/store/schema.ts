/**
 * The schema, written once: numbered migrations, each a function of the dialect's column types
 * (`Ddl`, ddl.ts), so SQLite and PostgreSQL get the same tables, versions and names. Append new
 * ones with the next version; never edit one that has shipped. Both ledgers (schema_migrations)
 * count these versions.
 */

import type { Ddl, Migration, SchemaMigration } from './ddl.js';
import { MIGRATIONS_V1_V11 } from './schema-v1-v11.js';
import { MIGRATIONS_V12_ON } from './schema-v12-on.js';

export const SCHEMA: readonly SchemaMigration[] = [...MIGRATIONS_V1_V11, ...MIGRATIONS_V12_ON];

/** The list in one dialect, as the migration runners take it. */
export const migrationsFor = (d: Ddl): Migration[] => SCHEMA.map((m) => ({ version: m.version, name: m.name, up: m.up(d) }));
