import { CompiledQuery, DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql as raw, } from 'kysely';
import { toStoreError } from './postgres/pg-errors.js';
/** A named value filled in at run time, so a statement is compiled once (see `Sql.prepare`). */
class Param {
    name;
    constructor(name) {
        this.name = name;
    }
}
const p = (name) => new Param(name);
function dialectOf(name) {
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
function fragments(name) {
    const pg = name === 'postgres';
    return {
        seq: raw `${raw.raw(pg ? 'seq' : 'rowid')}`,
        typed: (value, type) => (pg ? raw `${value}::${raw.raw(type)}` : raw `${value}`),
        inList: (column, list) => pg
            ? raw `${raw.ref(column)} = ANY(${list}::text[])`
            : raw `${raw.ref(column)} IN (SELECT value FROM json_each(${list}))`,
        list: (values) => (pg ? [...values] : JSON.stringify(values)),
        greatest: (a, b) => (pg ? raw `GREATEST(${a}, ${b})` : raw `MAX(${a}, ${b})`),
        binary: (column) => (pg ? raw `${raw.ref(column)} COLLATE "C"` : raw `${raw.ref(column)}`),
        keyTaken: (error, constraint) => {
            const e = error;
            return pg ? e?.code === '23505' && e.constraint === constraint : String(e?.code).startsWith('SQLITE_CONSTRAINT_PRIMARYKEY');
        },
        skipLocked: pg ? raw `FOR UPDATE SKIP LOCKED` : raw ``,
    };
}
const compile = (q) => ('compile' in q ? q.compile() : q);
function bind(q, values, sqlite) {
    return q.parameters.map((v) => {
        let out = v instanceof Param ? values?.[v.name] : v;
        if (v instanceof Param && (!values || !Object.hasOwn(values, v.name)))
            throw new Error(`SQL parameter ${v.name} has no value`);
        if (out === undefined)
            out = null;
        if (sqlite && typeof out === 'boolean')
            out = out ? 1 : 0;
        return out;
    });
}
function base(name) {
    const k = new Kysely({ dialect: dialectOf(name) });
    const f = fragments(name);
    return { dialect: name, k, f, prepare: (build) => compile(build(k, p, f)) };
}
/** Most distinct statements kept prepared (multi-row inserts vary by size). */
const STATEMENT_CACHE = 500;
/**
 * SQLite: statements run synchronously. A transaction holds the one connection across awaits,
 * so any other call waits for it to end rather than slip its statements inside.
 */
export function sqliteSql(db) {
    const statements = new Map();
    // Prepared queries keep their statement (no lookup by text on the hot paths).
    const byQuery = new WeakMap();
    const statementOf = (c) => {
        let s = byQuery.get(c);
        if (!s) {
            s = statement(c.sql);
            byQuery.set(c, s);
        }
        return s;
    };
    const statement = (text) => {
        let s = statements.get(text);
        if (!s) {
            if (statements.size >= STATEMENT_CACHE)
                statements.clear();
            s = db.prepare(text);
            statements.set(text, s);
        }
        return s;
    };
    let held;
    const b = base('sqlite');
    const make = (inTx) => {
        const rows = async (q, values) => {
            // Checked and run with no await between: a transaction may not start in the gap.
            while (!inTx && held)
                await held;
            const c = compile(q);
            const s = statementOf(c);
            const params = bind(c, values, true);
            if (s.reader)
                return s.all(...params);
            s.run(...params);
            return [];
        };
        const self = {
            ...b,
            all: rows,
            one: async (q, values) => (await rows(q, values))[0],
            async run(q, values) {
                while (!inTx && held)
                    await held;
                const c = compile(q);
                const s = statementOf(c);
                const params = bind(c, values, true);
                if (s.reader)
                    return s.all(...params).length;
                return s.run(...params).changes;
            },
            exclusive: (work) => self.tx(work),
            async tx(work) {
                if (inTx)
                    return work(self);
                while (held)
                    await held;
                let release;
                held = new Promise((r) => (release = r));
                try {
                    statement('BEGIN IMMEDIATE').run();
                    try {
                        const out = await work(make(true));
                        statement('COMMIT').run();
                        return out;
                    }
                    catch (e) {
                        if (db.inTransaction)
                            statement('ROLLBACK').run();
                        throw e;
                    }
                }
                finally {
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
export function postgresSql(ready) {
    const b = base('postgres');
    const make = (on) => {
        const rows = async (q, values) => {
            const conn = on ? await on() : await ready();
            const c = compile(q);
            try {
                return await conn.query(c.sql, bind(c, values, false));
            }
            catch (e) {
                throw toStoreError(e);
            }
        };
        const self = {
            ...b,
            all: async (q, values) => (await rows(q, values)).rows,
            one: async (q, values) => (await rows(q, values)).rows[0],
            run: async (q, values) => (await rows(q, values)).rowCount ?? 0,
            exclusive: (work) => work(self),
            async tx(work) {
                if (on)
                    return work(self);
                const pool = await ready();
                let client;
                try {
                    client = await pool.connect();
                }
                catch (e) {
                    throw toStoreError(e);
                }
                let failed;
                try {
                    await client.query('BEGIN');
                    const out = await work(make(async () => client));
                    await client.query('COMMIT');
                    return out;
                }
                catch (e) {
                    failed = e;
                    await client.query('ROLLBACK').catch(() => { });
                    throw toStoreError(e);
                }
                finally {
                    // Like pool.query: a connection whose query failed is dropped, not reused.
                    client.release(failed instanceof Error ? failed : undefined);
                }
            },
        };
        return self;
    };
    return make(undefined);
}
//# sourceMappingURL=dialect.js.map