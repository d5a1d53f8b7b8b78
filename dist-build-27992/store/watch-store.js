/**
 * Durable watches, one implementation for both databases. Like operations, every move between
 * statuses is a conditional UPDATE, so the final post of a watch is claimed by exactly one poller (in this process, after a
 * restart, or in another replica).
 */
import { sql as raw } from 'kysely';
import { newWatchId } from './ids.js';
import { accountParam } from './operation-rows.js';
/** The named parameters of a new watch's INSERT (both backends). */
export function watchInsertParams(input, id, now) {
    return {
        id,
        kind: input.kind,
        resource: input.resource,
        operation_id: input.operationId ?? null,
        channel_id: input.channelId,
        thread_ts: input.threadTs ?? null,
        requested_by: input.requestedBy,
        interval_ms: input.intervalMs,
        started_at: input.startedAt,
        deadline_at: input.deadlineAt,
        next_poll_at: input.nextPollAt,
        now,
        account: accountParam(input.account),
    };
}
export function toRecord(r) {
    return {
        id: r.id,
        kind: r.kind,
        resource: r.resource,
        operationId: r.operation_id,
        channelId: r.channel_id,
        threadTs: r.thread_ts,
        requestedBy: r.requested_by,
        status: r.status,
        state: r.state === null ? null : JSON.parse(r.state),
        outcome: r.outcome,
        polls: r.polls,
        intervalMs: r.interval_ms,
        startedAt: r.started_at,
        deadlineAt: r.deadline_at,
        nextPollAt: r.next_poll_at,
        updatedAt: r.updated_at,
        finalTs: r.final_ts,
        leaseOwner: r.lease_owner,
        leaseUntil: r.lease_until,
        account: r.account,
    };
}
/** Patchable columns and PostgreSQL's type for each (a CASE needs it). */
const PATCHABLE = {
    state: ['state', 'jsonb'],
    outcome: ['outcome', 'text'],
    intervalMs: ['interval_ms', 'bigint'],
    nextPollAt: ['next_poll_at', 'bigint'],
    deadlineAt: ['deadline_at', 'bigint'],
    threadTs: ['thread_ts', 'text'],
    finalTs: ['final_ts', 'text'],
    leaseUntil: ['lease_until', 'bigint'],
};
function patchParams(patch) {
    const out = { polled: patch.polled ? 1 : 0 };
    for (const [key, [column]] of Object.entries(PATCHABLE)) {
        const present = Object.hasOwn(patch, key) && patch[key] !== undefined;
        const value = present ? patch[key] : null;
        out[`set_${column}`] = present ? 1 : 0;
        out[column] = key === 'state' && value !== null ? JSON.stringify(value) : value;
    }
    return out;
}
/** RETURNING gives no order: the claimed watches, oldest first (as listOpen). */
export const oldestFirst = (a, b) => a.startedAt - b.startedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
export function createWatchStore(sql, clock) {
    const insert = sql.prepare((k, p) => k
        .insertInto('watches')
        .values({
        id: p('id'),
        kind: p('kind'),
        resource: p('resource'),
        operation_id: p('operation_id'),
        channel_id: p('channel_id'),
        thread_ts: p('thread_ts'),
        requested_by: p('requested_by'),
        status: 'active',
        interval_ms: p('interval_ms'),
        started_at: p('started_at'),
        deadline_at: p('deadline_at'),
        next_poll_at: p('next_poll_at'),
        updated_at: p('now'),
        account: p('account'),
    })
        .returningAll());
    const byId = sql.prepare((k, p) => k.selectFrom('watches').selectAll().where('id', '=', p('id')));
    const open = sql.prepare((k, _p, f) => k.selectFrom('watches').selectAll().where('status', 'in', ['active', 'finalizing']).orderBy('started_at').orderBy(f.seq));
    const ofOperation = sql.prepare((k, p, f) => k.selectFrom('watches').selectAll().where('operation_id', '=', p('op')).orderBy('started_at', 'desc').orderBy(raw `${f.seq} DESC`).limit(1));
    const recent = sql.prepare((k, p, f) => k.selectFrom('watches').selectAll().orderBy('started_at', 'desc').orderBy(raw `${f.seq} DESC`).limit(p('n')));
    // With `to` null the status stays (update); otherwise it moves (move). Either way only from `from`.
    const cas = sql.prepare((k, p, f) => {
        const set = {};
        for (const [c, type] of Object.values(PATCHABLE)) {
            set[c] = raw `CASE WHEN ${f.typed(p(`set_${c}`), 'int')} = 1 THEN ${f.typed(p(c), type)} ELSE ${raw.ref(c)} END`;
        }
        return k
            .updateTable('watches')
            .set({
            status: raw `COALESCE(${f.typed(p('to'), 'text')}, status)`,
            updated_at: p('now'),
            polls: raw `polls + ${f.typed(p('polled'), 'int')}`,
            ...set,
        })
            .where('id', '=', p('id'))
            .where(f.inList('status', p('from')))
            .where(raw `(${f.typed(p('owner'), 'text')} IS NULL OR lease_owner = ${f.typed(p('owner'), 'text')})`)
            .returningAll();
    });
    // One statement: SQLite's write lock makes it atomic across connections and processes.
    const releaseAll = sql.prepare((k, p) => k.updateTable('watches').set({ lease_owner: null, lease_until: null }).where('lease_owner', '=', p('owner')));
    // PostgreSQL: replicas claiming together skip the rows another is locking rather than wait;
    // the outer WHERE re-checks the lease, so a row claimed meanwhile is not taken twice.
    const claim = sql.prepare((k, p, f) => k
        .updateTable('watches')
        .set({ lease_owner: f.typed(p('owner'), 'text'), lease_until: f.typed(p('until'), 'bigint') })
        .where('id', 'in', (sub) => sub
        .selectFrom('watches')
        .select('id')
        .where('status', 'in', ['active', 'finalizing'])
        .where('next_poll_at', '<=', f.typed(p('now'), 'bigint'))
        .where(raw `(lease_owner IS NULL OR lease_until <= ${f.typed(p('now'), 'bigint')} OR lease_owner = ${f.typed(p('owner'), 'text')})`)
        .orderBy('next_poll_at')
        .orderBy('started_at')
        .orderBy(f.seq)
        .limit(f.typed(p('limit'), 'int'))
        .modifyEnd(f.skipLocked))
        .returningAll());
    return {
        async create(input) {
            for (let attempt = 0;; attempt++) {
                try {
                    const row = await sql.one(insert, watchInsertParams(input, newWatchId(), clock.now()));
                    return toRecord(row);
                }
                catch (e) {
                    // A 40-bit id collides rarely; try a fresh one.
                    if (attempt < 3 && sql.f.keyTaken(e, 'watches_pkey'))
                        continue;
                    throw e;
                }
            }
        },
        async get(id) {
            const row = await sql.one(byId, { id });
            return row ? toRecord(row) : undefined;
        },
        async listOpen() {
            return (await sql.all(open)).map(toRecord);
        },
        async release(owner) {
            return sql.run(releaseAll, { owner });
        },
        async claimDue(owner, now, leaseMs, limit) {
            const rows = await sql.all(claim, { owner, now, until: now + leaseMs, limit: Math.max(0, Math.trunc(limit)) });
            return rows.map(toRecord).sort(oldestFirst);
        },
        async move(id, from, to, now, patch = {}, owner) {
            const row = await sql.one(cas, { id, to, now, from: sql.f.list(from), owner: owner ?? null, ...patchParams(patch) });
            return row ? toRecord(row) : undefined;
        },
        async update(id, inStatus, now, patch, owner) {
            const row = await sql.one(cas, { id, to: null, now, from: sql.f.list(inStatus), owner: owner ?? null, ...patchParams(patch) });
            return row ? toRecord(row) : undefined;
        },
        async forOperation(operationId) {
            const row = await sql.one(ofOperation, { op: operationId });
            return row ? toRecord(row) : undefined;
        },
        async listRecent(limit) {
            const rows = await sql.all(recent, { n: Math.min(Math.max(1, limit), 1000) });
            return rows.map(toRecord);
        },
    };
}
//# sourceMappingURL=watch-store.js.map