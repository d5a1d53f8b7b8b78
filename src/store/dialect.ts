/**
 * The one place where SQLite and PostgreSQL differ for the stores. Every store is written once
 * against `Sql`: queries are built with Kysely (typed by tables.ts) and compiled for the
 * dialect; this module runs them on our own drivers so that what made each backend safe stays
 * as it was — better-sqlite3 synchronously with cached prepared statements (the lock retry in
 * sqlite-retry.ts wraps each store method), and PostgreSQL through `pool.query`, which drops a
 * connection whose query failed (pool.ts timeouts) and maps failures to StoreUnavailableError.
 *
 * The differences, all here: placeholders and quoting (Kysely's compilers), insertion order
 * (`rowid` / `seq`), list parameters (json_each / ANY(array)), casts PostgreSQL needs to type a
 * parameter, GREATEST, claiming rows others are claiming (FOR UPDATE SKIP LOCKED), booleans as
 * integers, byte-order sorting, and what `exclusive` means (SQLite's write lock / PostgreSQL's row locks).
 */
import type { Database as SqliteDb, Statement } from 'better-sqlite3';
import {
  CompiledQuery,
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  sql as raw,
  type Compilable,
  type Dialect,
  type RawBuilder,
} from 'kysely';
import type pg from 'pg';
import { toStoreError } from './postgres/pg-errors.js';
import type { Tables } from './tables.js';

export type DialectName = 'sqlite' | 'postgres';
export type Query<R> = Compilable<R> | CompiledQuery<R>;
type Values = Record<string, unknown>;

/** A named value filled in at run time, so a statement is compiled once (see `Sql.prepare`). */
class Param {
  constructor(readonly name: string) {}
}
/** `p('now')` inside a prepared query: fits any column (or give T), bound from the values given to run. */
export type P = <T = never>(name: string) => T;
const p: P = <T = never>(name: string) => new Param(name) as unknown as T;

/** `{ a: p('a'), b: p('b') }`: an INSERT's values bound by column name, each filled in at run time. */
export const bound = <const K extends string>(p: P, columns: readonly K[]): Record<K, never> =>
  Object.fromEntries(columns.map((c) => [c, p(c)])) as Record<K, never>;

/** Casts PostgreSQL needs where a parameter's type cannot be inferred (CASE, COALESCE, comparisons). */
export type PgType = 'text' | 'bigint' | 'int' | 'jsonb' | 'text[]';

export interface Fragments {
  /** Insertion order for ties: SQLite's rowid, PostgreSQL's `seq` identity column. */
  seq: RawBuilder<number>;
  /** `value` typed for PostgreSQL (`$1::bigint`); as it is on SQLite. */
  typed<T>(value: unknown, type: PgType): RawBuilder<T>;
  /** `column` is one of the strings in `list` (a JSON array on SQLite, a text[] on PostgreSQL). */
  inList(column: string, list: unknown): RawBuilder<boolean>;
  /** The list parameter for `inList`. */
  list(values: readonly string[]): unknown;
  greatest(a: RawBuilder<number>, b: RawBuilder<number>): RawBuilder<number>;
  /** `column` for ORDER BY in byte order (SQLite's default; PostgreSQL's "C" collation). */
  binary(column: string): RawBuilder<string>;
  /** A primary-key clash on insert (a random id already taken); `constraint` is PostgreSQL's name for the key. */
  keyTaken(error: unknown, constraint: string): boolean;
  /** PostgreSQL: skip the rows another replica is claiming instead of waiting (SQLite's one writer needs none). */
  skipLocked: RawBuilder<unknown>;
}

export interface Sql {
  readonly dialect: DialectName;
  /** The query builder (compiles only; `Sql` runs what it builds). */
  readonly k: Kysely<Tables>;
  readonly f: Fragments;
  all<R>(q: Query<R>, values?: Values): Promise<R[]>;
  one<R>(q: Query<R>, values?: Values): Promise<R | undefined>;
  /** Rows changed. */
  run(q: Query<unknown>, values?: Values): Promise<number>;
  /** Compiles a query once; `p(name)` marks the values given to all/one/run. */
  prepare<R>(build: (k: Kysely<Tables>, p: P, f: Fragments) => Query<R>): CompiledQuery<R>;
  /**
   * Steps that must see exactly the state that decides them (insert, else read the winner).
   * SQLite: one IMMEDIATE transaction (the write lock, across connections and processes).
   * PostgreSQL: the steps as they are — each statement is atomic and INSERT … ON CONFLICT or a
   * conditional UPDATE waits for the row's other writer — so no extra round trips.
   */
  exclusive<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** All or nothing on both: SQLite IMMEDIATE, PostgreSQL BEGIN … COMMIT on one connection. */
  tx<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
}

function dialectOf(name: DialectName): Dialect {
  return name === 'sqlite'
    ? {
        createAdapter: () => new SqliteAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new SqliteIntrospector(db),
        createQueryCompiler: () => new SqliteQueryCompiler(),
      }
    : {
        createAdapter: () => new PostgresAdapter(),
        createDriver: () => new DummyDriver(),
        createIntrospector: (db) => new PostgresIntrospector(db),
        createQueryCompiler: () => new PostgresQueryCompiler(),
      };
}

function fragments(name: DialectName): Fragments {
  const pg = name === 'postgres';
  return {
    seq: raw<number>`${raw.raw(pg ? 'seq' : 'rowid')}`,
    typed: <T>(value: unknown, type: PgType) => (pg ? raw<T>`${value}::${raw.raw(type)}` : raw<T>`${value}`),
    inList: (column, list) =>
      pg
        ? raw<boolean>`${raw.ref(column)} = ANY(${list}::text[])`
        : raw<boolean>`${raw.ref(column)} IN (SELECT value FROM json_each(${list}))`,
    list: (values) => (pg ? [...values] : JSON.stringify(values)),
    greatest: (a, b) => (pg ? raw<number>`GREATEST(${a}, ${b})` : raw<number>`MAX(${a}, ${b})`),
    binary: (column) => (pg ? raw<string>`${raw.ref(column)} COLLATE "C"` : raw<string>`${raw.ref(column)}`),
    keyTaken: (error, constraint) => {
      const e = error as { code?: unknown; constraint?: unknown } | null;
      return pg ? e?.code === '23505' && e.constraint === constraint : String(e?.code).startsWith('SQLITE_CONSTRAINT_PRIMARYKEY');
    },
    skipLocked: pg ? raw`FOR UPDATE SKIP LOCKED` : raw``,
  };
}

const compile = <R>(q: Query<R>): CompiledQuery<R> => ('compile' in q ? q.compile() : q);

function bind(q: CompiledQuery<unknown>, values: Values | undefined, sqlite: boolean): unknown[] {
  return q.parameters.map((v) => {
    let out = v instanceof Param ? values?.[v.name] : v;
    if (v instanceof Param && (!values || !Object.hasOwn(values, v.name))) throw new Error(`SQL parameter ${v.name} has no value`);
    if (out === undefined) out = null;
    if (sqlite && typeof out === 'boolean') out = out ? 1 : 0;
    return out;
  });
}

function base(name: DialectName) {
  const k = new Kysely<Tables>({ dialect: dialectOf(name) });
  const f = fragments(name);
  return { dialect: name, k, f, prepare: <R>(build: (k: Kysely<Tables>, p: P, f: Fragments) => Query<R>) => compile(build(k, p, f)) };
}

/** Most distinct statements kept prepared (multi-row inserts vary by size). */
const STATEMENT_CACHE = 500;

/**
 * SQLite: statements run synchronously. A transaction holds the one connection across awaits,
 * so any other call waits for it to end rather than slip its statements inside.
 */
export function sqliteSql(db: SqliteDb): Sql {
  const statements = new Map<string, Statement>();
  // Prepared queries keep their statement (no lookup by text on the hot paths).
  const byQuery = new WeakMap<CompiledQuery<unknown>, Statement>();
  const statementOf = (c: CompiledQuery<unknown>) => {
    let s = byQuery.get(c);
    if (!s) {
      s = statement(c.sql);
      byQuery.set(c, s);
    }
    return s;
  };
  const statement = (text: string) => {
    let s = statements.get(text);
    if (!s) {
      if (statements.size >= STATEMENT_CACHE) statements.clear();
      s = db.prepare(text);
      statements.set(text, s);
    }
    return s;
  };
  let held: Promise<void> | undefined;
  const b = base('sqlite');

  const make = (inTx: boolean): Sql => {
    const rows = async <R>(q: Query<R>, values?: Values): Promise<R[]> => {
      // Checked and run with no await between: a transaction may not start in the gap.
      while (!inTx && held) await held;
      const c = compile(q);
      const s = statementOf(c);
      const params = bind(c, values, true);
      if (s.reader) return s.all(...params) as R[];
      s.run(...params);
      return [];
    };
    const self: Sql = {
      ...b,
      all: rows,
      one: async (q, values) => (await rows(q, values))[0],
      async run(q, values) {
        while (!inTx && held) await held;
        const c = compile(q);
        const s = statementOf(c);
        const params = bind(c, values, true);
        if (s.reader) return s.all(...params).length;
        return s.run(...params).changes;
      },
      exclusive: (work) => self.tx(work),
      async tx(work) {
        if (inTx) return work(self);
        while (held) await held;
        let release!: () => void;
        held = new Promise((r) => (release = r));
        try {
          statement('BEGIN IMMEDIATE').run();
          try {
            const out = await work(make(true));
            statement('COMMIT').run();
            return out;
          } catch (e) {
            if (db.inTransaction) statement('ROLLBACK').run();
            throw e;
          }
        } finally {
          held = undefined;
          release();
        }
      },
    };
    return self;
  };
  return make(false);
}

/** PostgreSQL: each call waits for `ready` (migrations), then runs on the pool (or a transaction's client). */
export function postgresSql(ready: () => Promise<pg.Pool>): Sql {
  const b = base('postgres');
  const make = (on: (() => Promise<pg.Pool | pg.PoolClient>) | undefined): Sql => {
    const rows = async <R>(q: Query<R>, values?: Values): Promise<{ rows: R[]; rowCount: number | null }> => {
      const conn = on ? await on() : await ready();
      const c = compile(q);
      try {
        return await conn.query<R & pg.QueryResultRow>(c.sql, bind(c, values, false));
      } catch (e) {
        throw toStoreError(e);
      }
    };
    const self: Sql = {
      ...b,
      all: async (q, values) => (await rows(q, values)).rows,
      one: async (q, values) => (await rows(q, values)).rows[0],
      run: async (q, values) => (await rows(q, values)).rowCount ?? 0,
      exclusive: (work) => work(self),
      async tx(work) {
        if (on) return work(self);
        const pool = await ready();
        let client: pg.PoolClient;
        try {
          client = await pool.connect();
        } catch (e) {
          throw toStoreError(e);
        }
        let failed: unknown;
        try {
          await client.query('BEGIN');
          const out = await work(make(async () => client));
          await client.query('COMMIT');
          return out;
        } catch (e) {
          failed = e;
          await client.query('ROLLBACK').catch(() => {});
          throw toStoreError(e);
        } finally {
          // Like pool.query: a connection whose query failed is dropped, not reused.
          client.release(failed instanceof Error ? failed : undefined);
        }
      },
    };
    return self;
  };
  return make(undefined);
}
