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

/**
 * Leases up to `limit` rows due by `now` (in `statuses`, lease free, expired or `owner`'s) to
 * `owner`, in `order`, in one UPDATE … WHERE key IN (SELECT … LIMIT n) RETURNING. On
 * PostgreSQL replicas claiming together skip the rows another is locking rather than wait; the
 * outer WHERE re-checks the lease, so a row claimed meanwhile is not taken twice. Values: owner,
 * now, until, limit.
 */
export function prepareClaimDue<T extends keyof Tables & string>(
  sql: Sql,
  spec: {
    table: T;
    key: keyof Tables[T] & string;
    statuses: readonly string[];
    due: keyof Tables[T] & string;
    /** ORDER BY, oldest first; `seq` is insertion order (Fragments.seq). */
    order: readonly ((keyof Tables[T] & string) | 'seq')[];
  },
) {
  const { f } = sql;
  const leaseFree = (p: P) =>
    raw<boolean>`(lease_owner IS NULL OR lease_until <= ${f.typed(p('now'), 'bigint')} OR lease_owner = ${f.typed(p('owner'), 'text')})`;
  // One table's types stand for any: the columns used here are common to every leased table.
  const table = spec.table as 'steps';
  return sql.prepare((k, p) => {
    let due = k
      .selectFrom(table)
      .select(spec.key as 'execution_id')
      .where(raw.ref('status'), 'in', spec.statuses)
      .where(raw.ref(spec.due), '<=', f.typed<number>(p('now'), 'bigint'))
      .where(leaseFree(p));
    for (const column of spec.order) due = due.orderBy(column === 'seq' ? f.seq : raw.ref(column));
    return k
      .updateTable(table)
      .set({ lease_owner: f.typed<string>(p('owner'), 'text'), lease_until: f.typed<number>(p('until'), 'bigint') })
      .where(raw.ref(spec.key), 'in', due.limit(f.typed<number>(p('limit'), 'int')).modifyEnd(f.skipLocked))
      .where(leaseFree(p))
      .returningAll();
  });
}
