/**
 * Deliveries taken (migration 11, issue 21 item 6): the key of every Slack delivery a replica
 * took (`trigger:<id>` / `event:<id>`), shared by all replicas, so a retry that reaches another
 * replica is known there as one already answered. One statement claims a key: a new key (or one
 * whose time is up) is inserted and the caller has it; a key taken and still alive gives no row.
 */
import { sql as raw } from 'kysely';
import { assertInteger, assertText } from './operation-rows.js';
/** Longer keys are not Slack's ids: refused rather than stored. */
export const DELIVERY_KEY_MAX = 200;
export function createDeliveryStore(sql) {
    const { f } = sql;
    const take = sql.prepare((k, p) => k
        .insertInto('deliveries')
        .values({ key: p('key'), taken_at: p('now'), expires_at: p('expires') })
        .onConflict((oc) => oc
        .column('key')
        .doUpdateSet({ taken_at: raw `excluded.taken_at`, expires_at: raw `excluded.expires_at` })
        .where(raw `deliveries.expires_at <= ${f.typed(p('now'), 'bigint')}`))
        .returning('key'));
    const expired = sql.prepare((k, p) => k.deleteFrom('deliveries').where('expires_at', '<=', p('now')));
    return {
        async claim(key, now, expiresAt) {
            assertText(key, 'key');
            if (key.length > DELIVERY_KEY_MAX)
                throw new TypeError(`key must be at most ${DELIVERY_KEY_MAX} characters`);
            assertInteger(now, 'now');
            assertInteger(expiresAt, 'expiresAt');
            return (await sql.one(take, { key, now, expires: expiresAt })) !== undefined;
        },
        async prune(now) {
            assertInteger(now, 'now');
            return sql.run(expired, { now });
        },
    };
}
//# sourceMappingURL=delivery-store.js.map