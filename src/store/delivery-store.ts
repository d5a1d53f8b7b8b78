/**
 * Deliveries taken (migration 11, issue 21 item 6): the key of every Slack delivery a replica
 * took (`trigger:<id>` / `event:<id>`), shared by all replicas, so a retry that reaches another
 * replica is known there as one already answered. One statement claims a key: a new key (or one
 * whose time is up) is inserted and the caller has it; a key taken and still alive gives no row.
 */
import { sql as raw } from 'kysely';
import type { Sql } from './dialect.js';
import { prepareClaim } from './claim-row.js';
import { assertInteger, assertText } from './operation-rows.js';

export interface DeliveryStore {
  /** Takes `key` until `expiresAt`; true when this call took it, false when it was taken already. */
  claim(key: string, now: number, expiresAt: number): Promise<boolean>;
  /**
   * `claim` for several distinct keys in one statement (one write, one round trip): the keys
   * this call took. All or none are written; a bad key refuses the lot.
   */
  claimMany(keys: readonly string[], now: number, expiresAt: number): Promise<Set<string>>;
  /** Forgets keys whose time is up by `now`; returns how many. */
  prune(now: number): Promise<number>;
}

/** Longer keys are not Slack's ids: refused rather than stored. */
export const DELIVERY_KEY_MAX = 200;

export function createDeliveryStore(sql: Sql): DeliveryStore {
  const { f } = sql;
  const take = prepareClaim(sql, 'deliveries', 'key', ['key', 'taken_at', 'expires_at'], (p) => raw<boolean>`deliveries.expires_at <= ${f.typed(p('now'), 'bigint')}`);
  const checkKey = (key: string) => {
    assertText(key, 'key');
    if (key.length > DELIVERY_KEY_MAX) throw new TypeError(`key must be at most ${DELIVERY_KEY_MAX} characters`);
  };
  const expired = sql.prepare((k, p) => k.deleteFrom('deliveries').where('expires_at', '<=', p('now')));
  return {
    async claim(key, now, expiresAt) {
      checkKey(key);
      assertInteger(now, 'now');
      assertInteger(expiresAt, 'expiresAt');
      return (await sql.one(take, { key, now, taken_at: now, expires_at: expiresAt })) !== undefined;
    },
    async claimMany(keys, now, expiresAt) {
      keys.forEach(checkKey);
      assertInteger(now, 'now');
      assertInteger(expiresAt, 'expiresAt');
      if (new Set(keys).size !== keys.length) throw new TypeError('keys must be distinct');
      if (keys.length === 0) return new Set();
      // Sorted: two replicas' statements lock their common keys in the same order (no deadlock on PostgreSQL).
      const rows = [...keys].sort().map((key) => ({ key, taken_at: now, expires_at: expiresAt }));
      const taken = await sql.all<{ key: string }>(
        sql.k
          .insertInto('deliveries')
          .values(rows)
          .onConflict((oc) =>
            oc
              .column('key')
              .doUpdateSet({ taken_at: raw`excluded.taken_at`, expires_at: raw`excluded.expires_at` })
              .where(raw<boolean>`deliveries.expires_at <= ${f.typed(now, 'bigint')}`),
          )
          .returning('key'),
      );
      return new Set(taken.map((r) => r.key));
    },
    async prune(now) {
      assertInteger(now, 'now');
      return sql.run(expired, { now });
    },
  };
}
