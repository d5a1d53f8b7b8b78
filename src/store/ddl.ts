/**
 * The dialects, for the schema written once (schema.ts): each migration is a function of the
 * column types and clauses where SQLite and PostgreSQL differ. PostgreSQL: times are bigint
 * epoch ms, JSON is jsonb, and `seq` keeps insertion order for ties (SQLite's rowid);
 * constraints carry the names the stores test for.
 */

export interface Migration {
  version: number;
  name: string;
  /** SQL, run as one script inside the migration's transaction. */
  up: string;
}

/** The column types and clauses where the dialects differ. */
export interface Ddl {
  text: string;
  int: string;
  json: string;
  /** A CHECK that a JSON column holds an object (parenthesised). */
  isObject(column: string): string;
  /** An integer key drawn in insertion order. */
  autoId: string;
  /** PostgreSQL's insertion-order column (a leading column definition), '' on SQLite. */
  seq: string;
  /** Table option: SQLite STRICT typing. */
  strict: string;
  /** `CONSTRAINT name ` on PostgreSQL (its stores look for the name), '' on SQLite. */
  named(name: string): string;
}

export interface SchemaMigration {
  version: number;
  name: string;
  up: (d: Ddl) => string;
}

export const SQLITE_DDL: Ddl = {
  text: 'TEXT',
  int: 'INTEGER',
  json: 'TEXT',
  isObject: (c) => `(json_valid(${c}) AND json_type(${c}) = 'object')`,
  autoId: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  seq: '',
  strict: ' STRICT',
  named: () => '',
};

export const POSTGRES_DDL: Ddl = {
  text: 'text',
  int: 'bigint',
  json: 'jsonb',
  isObject: (c) => `(jsonb_typeof(${c}) = 'object')`,
  autoId: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  seq: '\n        seq bigint GENERATED ALWAYS AS IDENTITY,',
  strict: '',
  named: (name) => `CONSTRAINT ${name} `,
};
