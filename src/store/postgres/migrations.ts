/**
 * The PostgreSQL schema: the same numbered migrations as SQLite (same versions and names, one
 * dialect each), recorded in a schema_migrations ledger. Replicas starting together take an
 * advisory lock first, so exactly one applies each migration and the others find it recorded.
 * Times are bigint epoch ms and JSON is jsonb, as close to the SQLite columns as the types allow;
 * `seq` keeps insertion order for ties (SQLite's rowid).
 */
import type pg from 'pg';
import { MigrationError, type Migration } from '../migrations.js';
import { describeUrl } from './pool.js';

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'operations',
    up: `
      CREATE TABLE operations (
        seq             bigint  GENERATED ALWAYS AS IDENTITY,
        id              text    NOT NULL PRIMARY KEY,
        op_id           text    NOT NULL,
        args            jsonb   NOT NULL CHECK (jsonb_typeof(args) = 'object'),
        sealed_secrets  text,
        status          text    NOT NULL CHECK (status IN
                          ('pending', 'confirmed', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
        requested_by    text    NOT NULL,
        team_id         text,
        channel_id      text    NOT NULL,
        message_ts      text,
        dedupe_key      text,
        created_at      bigint  NOT NULL,
        updated_at      bigint  NOT NULL,
        expires_at      bigint  NOT NULL,
        confirmed_by    text,
        confirmed_at    bigint,
        approved_by     text,
        approved_at     bigint,
        finished_at     bigint,
        result          jsonb   CHECK (result IS NULL OR jsonb_typeof(result) = 'object'),
        error_code      text,
        error_message   text,
        CONSTRAINT operations_dedupe_key UNIQUE (dedupe_key)
      );
      CREATE INDEX operations_status_expires ON operations (status, expires_at);
      CREATE INDEX operations_requester_created ON operations (requested_by, created_at);
      CREATE INDEX operations_created ON operations (created_at);
    `,
  },
  {
    version: 2,
    name: 'operation facts',
    up: `
      ALTER TABLE operations ADD COLUMN facts jsonb NOT NULL DEFAULT '{}'
        CHECK (jsonb_typeof(facts) = 'object');
    `,
  },
  {
    version: 3,
    name: 'watches',
    up: `
      CREATE TABLE watches (
        seq           bigint  GENERATED ALWAYS AS IDENTITY,
        id            text    NOT NULL CONSTRAINT watches_pkey PRIMARY KEY,
        kind          text    NOT NULL CHECK (kind IN ('worker', 'server')),
        resource      text    NOT NULL,
        operation_id  text    REFERENCES operations (id),
        channel_id    text    NOT NULL,
        thread_ts     text,
        requested_by  text    NOT NULL,
        status        text    NOT NULL CHECK (status IN ('active', 'finalizing', 'done', 'expired', 'cancelled', 'gone')),
        state         jsonb   CHECK (state IS NULL OR jsonb_typeof(state) = 'object'),
        outcome       text,
        polls         bigint  NOT NULL DEFAULT 0,
        interval_ms   bigint  NOT NULL,
        started_at    bigint  NOT NULL,
        deadline_at   bigint  NOT NULL,
        next_poll_at  bigint  NOT NULL,
        updated_at    bigint  NOT NULL,
        final_ts      text
      );
      CREATE INDEX watches_due ON watches (status, next_poll_at);
      CREATE INDEX watches_resource ON watches (kind, resource, status);
    `,
  },
  {
    version: 4,
    name: 'audit',
    // Append-only; operation_id has no foreign key on purpose (an audit row must always be writable).
    up: `
      CREATE TABLE audit (
        id            bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at            bigint  NOT NULL,
        user_id       text    NOT NULL,
        channel_id    text,
        op_id         text    NOT NULL,
        tier          text    NOT NULL CHECK (tier IN ('read', 'change', 'billing', 'destroy', 'secret')),
        args          jsonb   NOT NULL CHECK (jsonb_typeof(args) = 'object'),
        outcome       text    NOT NULL CHECK (outcome IN
                        ('succeeded', 'failed', 'refused', 'requested', 'cancelled', 'expired')),
        error_code    text,
        confirmed_by  text,
        approved_by   text,
        operation_id  text,
        duration_ms   bigint  CHECK (duration_ms IS NULL OR duration_ms >= 0),
        detail        text
      );
      CREATE INDEX audit_at ON audit (at);
      CREATE INDEX audit_user_at ON audit (user_id, at);
    `,
  },
  {
    version: 5,
    name: 'watch leases',
    // The replica polling a watch, until lease_until (epoch ms); claimDue skips rows another
    // replica is claiming (FOR UPDATE SKIP LOCKED).
    up: `
      ALTER TABLE watches ADD COLUMN lease_owner text, ADD COLUMN lease_until bigint;
    `,
  },
  {
    version: 6,
    name: 'accounts',
    // The named cloud account of each row (issue 12); NULL is the default account, as for older rows.
    up: `
      ALTER TABLE operations ADD COLUMN account text;
      ALTER TABLE watches ADD COLUMN account text;
      ALTER TABLE audit ADD COLUMN account text;
    `,
  },
  {
    version: 7,
    name: 'monitor',
    // Proactive notifications (issue 13): the partial unique indexes make `add` and `open`
    // idempotent under races (INSERT … ON CONFLICT DO NOTHING waits for the other inserter).
    up: `
      CREATE TABLE subscriptions (
        seq          bigint  GENERATED ALWAYS AS IDENTITY,
        id           text    NOT NULL CONSTRAINT subscriptions_pkey PRIMARY KEY,
        channel_id   text    NOT NULL,
        account      text,
        kind         text    NOT NULL CHECK (kind IN ('server', 'worker', 'usage', 'invoices', 'digest')),
        resource     text    NOT NULL,
        params       jsonb   NOT NULL CHECK (jsonb_typeof(params) = 'object'),
        created_by   text    NOT NULL,
        created_at   bigint  NOT NULL,
        muted_until  bigint,
        removed_at   bigint,
        last_run     text
      );
      CREATE UNIQUE INDEX subscriptions_active ON subscriptions (channel_id, COALESCE(account, ''), kind, resource)
        WHERE removed_at IS NULL;
      CREATE TABLE alerts (
        seq              bigint  GENERATED ALWAYS AS IDENTITY,
        id               text    NOT NULL CONSTRAINT alerts_pkey PRIMARY KEY,
        subscription_id  text    NOT NULL REFERENCES subscriptions (id),
        channel_id       text    NOT NULL,
        condition        text    NOT NULL,
        status           text    NOT NULL CHECK (status IN ('firing', 'resolved')),
        message_ts       text,
        started_at       bigint  NOT NULL,
        resolved_at      bigint,
        detail           jsonb   NOT NULL CHECK (jsonb_typeof(detail) = 'object')
      );
      CREATE UNIQUE INDEX alerts_firing ON alerts (subscription_id, condition) WHERE status = 'firing';
      CREATE INDEX alerts_channel_started ON alerts (channel_id, started_at);
      CREATE TABLE monitor_state (
        key         text    NOT NULL PRIMARY KEY,
        state       jsonb   NOT NULL CHECK (jsonb_typeof(state) = 'object'),
        updated_at  bigint  NOT NULL
      );
      CREATE TABLE leases (
        name   text    NOT NULL PRIMARY KEY,
        owner  text    NOT NULL,
        until  bigint  NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'known resources',
    // Servers, groups and workers the bot has seen (issue 14); account '' is the default account.
    up: `
      CREATE TABLE known_resources (
        account     text    NOT NULL DEFAULT '',
        kind        text    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          text    NOT NULL,
        uuid        text,
        name        text,
        first_seen  bigint  NOT NULL,
        last_seen   bigint  NOT NULL,
        CONSTRAINT known_resources_key UNIQUE (account, kind, id)
      );
      CREATE INDEX known_resources_name ON known_resources (account, kind, lower(name));
    `,
  },
  {
    version: 9,
    name: 'aliases',
    // Saved commands (issue 14), one namespace per channel (see the SQLite migration).
    up: `
      CREATE TABLE aliases (
        channel_id  text    NOT NULL,
        name        text    NOT NULL,
        command     text    NOT NULL,
        created_by  text    NOT NULL,
        team_id     text,
        created_at  bigint  NOT NULL,
        CONSTRAINT aliases_pkey PRIMARY KEY (channel_id, name)
      );
    `,
  },
  {
    version: 10,
    name: 'known names',
    // Several names per resource (issue 20; see the SQLite migration).
    up: `
      CREATE TABLE known_names (
        account     text    NOT NULL DEFAULT '',
        kind        text    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          text    NOT NULL,
        field       text    NOT NULL CHECK (field IN ('name', 'hostname', 'rdns', 'seed')),
        name        text    NOT NULL,
        via         text,
        last_seen   bigint  NOT NULL,
        CONSTRAINT known_names_pkey PRIMARY KEY (account, kind, id, field)
      );
      CREATE INDEX known_names_name ON known_names (account, kind, lower(name));
      INSERT INTO known_names (account, kind, id, field, name, via, last_seen)
        SELECT account, kind, id, 'name', name, NULL, last_seen FROM known_resources WHERE name IS NOT NULL;
      DROP INDEX known_resources_name;
      ALTER TABLE known_resources DROP COLUMN name;
    `,
  },
];

export interface PgMigrateOptions {
  /** Create this schema if missing (it is on the pool's search_path). */
  schema?: string;
  /** How long to wait for another replica's migration, and the limit for each migration (default 60 s). */
  timeoutMs?: number;
  now?: () => number;
  /** For messages only (never the password). */
  url?: string;
}

const LEDGER = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version     integer NOT NULL PRIMARY KEY,
    name        text    NOT NULL,
    applied_at  bigint  NOT NULL
  )`;

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new MigrationError(`Migration list is out of order: entry ${i} ("${m.name}") has version ${m.version}, expected ${i + 1}.`);
    }
  });
}

/**
 * Applies pending migrations, each in its own transaction, under a session advisory lock keyed
 * by the schema. Idempotent; refuses a database newer than this code. Returns the versions applied.
 */
export async function migratePostgres(
  pool: pg.Pool,
  migrations: readonly Migration[] = PG_MIGRATIONS,
  options: PgMigrateOptions = {},
): Promise<number[]> {
  checkOrder(migrations);
  const now = options.now ?? Date.now;
  const timeout = Math.max(1, Math.trunc(options.timeoutMs ?? 60_000));
  const client = await pool.connect();
  try {
    // Migrations may legitimately outlast the everyday statement timeout; waiting replicas too.
    await client.query(`SET statement_timeout = ${timeout}; SET lock_timeout = ${timeout}`);
    const scope = options.schema ?? ((await client.query<{ s: string | null }>('SELECT current_schema() AS s')).rows[0]?.s ?? 'public');
    await client.query("SELECT pg_advisory_lock(hashtext('cloudbot:migrate'), hashtext($1))", [scope]);
    try {
      if (options.schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${options.schema}`);
      await client.query(LEDGER);
      const current = (await client.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0]?.v ?? 0;
      if (current > migrations.length) {
        const where = options.url ? `The database at ${describeUrl(options.url)} (schema ${scope})` : `Schema ${scope}`;
        throw new MigrationError(
          `${where} is at schema version ${current}, newer than this cloudbot knows (${migrations.length}). ` +
            'It was written by a newer release: upgrade cloudbot, or point DATABASE_URL at another database. ' +
            'Refusing to start rather than risk damaging it.',
        );
      }
      const applied: number[] = [];
      for (const m of migrations.slice(current)) {
        try {
          await client.query('BEGIN');
          await client.query(m.up);
          await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [m.version, m.name, now()]);
          await client.query('COMMIT');
          applied.push(m.version);
        } catch (err) {
          await client.query('ROLLBACK').catch(() => {});
          throw new MigrationError(`Migration ${m.version} ("${m.name}") failed: ${(err as Error).message}`, { cause: err });
        }
      }
      return applied;
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext('cloudbot:migrate'), hashtext($1))", [scope]).catch(() => {});
    }
  } finally {
    // Dropped, not returned: its session settings were for migrating only.
    client.release(true);
  }
}

/** The highest version recorded (0 for a fresh schema). */
export async function pgSchemaVersion(db: pg.Pool): Promise<number> {
  const exists = (await db.query<{ t: string | null }>("SELECT to_regclass('schema_migrations')::text AS t")).rows[0]?.t;
  if (!exists) return 0;
  return (await db.query<{ v: number | null }>('SELECT MAX(version) AS v FROM schema_migrations')).rows[0]?.v ?? 0;
}
