/** Small helpers shared by the PostgreSQL stores: named parameters, and what a query runs on. */
import type { QueryResultRow } from 'pg';
import { toStoreError } from './pg-errors.js';

/** A pool or a checked-out client: anything with pg's `query`. */
export interface Queryable {
  query<R extends QueryResultRow = QueryResultRow>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
}

/**
 * Turns `@name` placeholders into `$1…$n` (one number per distinct name), so the statements read
 * like their SQLite twins and share their parameter objects. Throws on a name with no value.
 */
export function bind(text: string, params: Record<string, unknown>): [string, unknown[]] {
  const order: string[] = [];
  const sql = text.replace(/@([a-z_][a-z0-9_]*)/g, (_, name: string) => {
    if (!Object.hasOwn(params, name)) throw new Error(`SQL parameter @${name} has no value`);
    let i = order.indexOf(name);
    if (i < 0) i = order.push(name) - 1;
    return `$${i + 1}`;
  });
  return [sql, order.map((n) => params[n])];
}

/** Runs a statement with named parameters; a timeout or a lost connection rejects with StoreUnavailableError. */
export async function run<R extends QueryResultRow>(db: Queryable, text: string, params: Record<string, unknown> = {}): Promise<R[]> {
  const [sql, values] = bind(text, params);
  try {
    return (await db.query<R>(sql, values)).rows;
  } catch (e) {
    throw toStoreError(e);
  }
}

/** A unique-key violation (SQLSTATE 23505) on the named constraint. */
export function isUniqueViolation(e: unknown, constraint: string): boolean {
  const err = e as { code?: unknown; constraint?: unknown };
  return err?.code === '23505' && err.constraint === constraint;
}
