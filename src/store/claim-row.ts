/**
 * One statement that takes a keyed row: a new key is inserted; a row already there is taken
 * over only where `takeOver` holds (its time is up, or it is ours already); otherwise no row
 * comes back. Leases and delivery claims both work so, with no read-then-write race between
 * replicas (INSERT … ON CONFLICT … DO UPDATE … WHERE, on SQLite and PostgreSQL alike).
 */
import { sql as raw, type RawBuilder } from 'kysely';
import { bound, type P, type Sql } from './dialect.js';
import type { Tables } from './tables.js';

export function prepareClaim<T extends keyof Tables & string, K extends keyof Tables[T] & string>(
  sql: Sql,
  table: T,
  key: K,
  columns: readonly (keyof Tables[T] & string)[],
  takeOver: (p: P) => RawBuilder<boolean>,
) {
  // `excluded.<column>`: the value the INSERT would have written.
  const taken = Object.fromEntries(columns.filter((c) => c !== key).map((c) => [c, raw.ref(`excluded.${c}`)]));
  return sql.prepare((k, p) =>
    k
      .insertInto(table)
      .values(bound(p, columns) as never)
      .onConflict((oc) => oc.column(key as never).doUpdateSet(taken as never).where(takeOver(p)))
      .returning(key as never),
  );
}
