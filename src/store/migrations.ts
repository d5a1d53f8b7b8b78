/**
 * Versioned schema migrations, applied at start. Append new ones (watches, audit, …) with the
 * next version number; never edit one that has shipped.
 */
import type { Database } from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  /** SQL, run as one script inside the migration's transaction. */
  up: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'operations',
    up: `
      CREATE TABLE operations (
        id              TEXT    NOT NULL PRIMARY KEY,
        op_id           TEXT    NOT NULL,
        args            TEXT    NOT NULL CHECK (json_valid(args) AND json_type(args) = 'object'),
        sealed_secrets  TEXT,
        status          TEXT    NOT NULL CHECK (status IN
                          ('pending', 'confirmed', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
        requested_by    TEXT    NOT NULL,
        team_id         TEXT,
        channel_id      TEXT    NOT NULL,
        message_ts      TEXT,
        dedupe_key      TEXT,
        created_at      INTEGER NOT NULL,
        updated_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        confirmed_by    TEXT,
        confirmed_at    INTEGER,
        approved_by     TEXT,
        approved_at     INTEGER,
        finished_at     INTEGER,
        result          TEXT    CHECK (result IS NULL OR (json_valid(result) AND json_type(result) = 'object')),
        error_code      TEXT,
        error_message   TEXT,
        UNIQUE (dedupe_key)
      ) STRICT;
      CREATE INDEX operations_status_expires ON operations (status, expires_at);
      CREATE INDEX operations_requester_created ON operations (requested_by, created_at);
      CREATE INDEX operations_created ON operations (created_at);
    `,
  },
  {
    version: 2,
    name: 'operation facts',
    // What the bot learned before asking (hostname, price, headroom), so a status message can
    // be rendered again from the record alone: by the expiry sweep, or after a restart.
    up: `
      ALTER TABLE operations ADD COLUMN facts TEXT NOT NULL DEFAULT '{}'
        CHECK (json_valid(facts) AND json_type(facts) = 'object');
    `,
  },
  {
    version: 3,
    name: 'watches',
    // Durable watches: a restart resumes every active one from here (issue: durable watches).
    up: `
      CREATE TABLE watches (
        id            TEXT    NOT NULL PRIMARY KEY,
        kind          TEXT    NOT NULL CHECK (kind IN ('worker', 'server')),
        resource      TEXT    NOT NULL,
        operation_id  TEXT    REFERENCES operations (id),
        channel_id    TEXT    NOT NULL,
        thread_ts     TEXT,
        requested_by  TEXT    NOT NULL,
        status        TEXT    NOT NULL CHECK (status IN ('active', 'finalizing', 'done', 'expired', 'cancelled', 'gone')),
        state         TEXT    CHECK (state IS NULL OR (json_valid(state) AND json_type(state) = 'object')),
        outcome       TEXT,
        polls         INTEGER NOT NULL DEFAULT 0,
        interval_ms   INTEGER NOT NULL,
        started_at    INTEGER NOT NULL,
        deadline_at   INTEGER NOT NULL,
        next_poll_at  INTEGER NOT NULL,
        updated_at    INTEGER NOT NULL,
        final_ts      TEXT
      ) STRICT;
      CREATE INDEX watches_due ON watches (status, next_poll_at);
      CREATE INDEX watches_resource ON watches (kind, resource, status);
    `,
  },
  {
    version: 4,
    name: 'audit',
    // The audit trail: one row per operation, refusal or change step (issue: access control,
    // secrets, audit). Append-only; args are masked before they get here. operation_id has no
    // foreign key on purpose: an audit row must never fail to be written because of another table.
    up: `
      CREATE TABLE audit (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        at            INTEGER NOT NULL,
        user_id       TEXT    NOT NULL,
        channel_id    TEXT,
        op_id         TEXT    NOT NULL,
        tier          TEXT    NOT NULL CHECK (tier IN ('read', 'change', 'billing', 'destroy', 'secret')),
        args          TEXT    NOT NULL CHECK (json_valid(args) AND json_type(args) = 'object'),
        outcome       TEXT    NOT NULL CHECK (outcome IN
                        ('succeeded', 'failed', 'refused', 'requested', 'cancelled', 'expired')),
        error_code    TEXT,
        confirmed_by  TEXT,
        approved_by   TEXT,
        operation_id  TEXT,
        duration_ms   INTEGER CHECK (duration_ms IS NULL OR duration_ms >= 0),
        detail        TEXT
      ) STRICT;
      CREATE INDEX audit_at ON audit (at);
      CREATE INDEX audit_user_at ON audit (user_id, at);
    `,
  },
  {
    version: 5,
    name: 'watch leases',
    // Replicas share the watches: each is polled by the replica holding its lease until
    // lease_until (epoch ms); a dead replica's watches are claimed by another once it expires.
    up: `
      ALTER TABLE watches ADD COLUMN lease_owner TEXT;
      ALTER TABLE watches ADD COLUMN lease_until INTEGER;
    `,
  },
  {
    version: 6,
    name: 'accounts',
    // Several named cloud accounts (issue 12): what each row acts on. NULL is the default
    // account, which is also what every row written before this migration meant.
    up: `
      ALTER TABLE operations ADD COLUMN account TEXT;
      ALTER TABLE watches ADD COLUMN account TEXT;
      ALTER TABLE audit ADD COLUMN account TEXT;
    `,
  },
  {
    version: 7,
    name: 'monitor',
    // Proactive notifications (issue 13). The partial unique indexes make `add` and `open`
    // idempotent under races: one active subscription per target, one firing alert per condition.
    up: `
      CREATE TABLE subscriptions (
        id           TEXT    NOT NULL PRIMARY KEY,
        channel_id   TEXT    NOT NULL,
        account      TEXT,
        kind         TEXT    NOT NULL CHECK (kind IN ('server', 'worker', 'usage', 'invoices', 'digest')),
        resource     TEXT    NOT NULL,
        params       TEXT    NOT NULL CHECK (json_valid(params) AND json_type(params) = 'object'),
        created_by   TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        muted_until  INTEGER,
        removed_at   INTEGER,
        last_run     TEXT
      ) STRICT;
      CREATE UNIQUE INDEX subscriptions_active ON subscriptions (channel_id, COALESCE(account, ''), kind, resource)
        WHERE removed_at IS NULL;
      CREATE TABLE alerts (
        id               TEXT    NOT NULL PRIMARY KEY,
        subscription_id  TEXT    NOT NULL REFERENCES subscriptions (id),
        channel_id       TEXT    NOT NULL,
        condition        TEXT    NOT NULL,
        status           TEXT    NOT NULL CHECK (status IN ('firing', 'resolved')),
        message_ts       TEXT,
        started_at       INTEGER NOT NULL,
        resolved_at      INTEGER,
        detail           TEXT    NOT NULL CHECK (json_valid(detail) AND json_type(detail) = 'object')
      ) STRICT;
      CREATE UNIQUE INDEX alerts_firing ON alerts (subscription_id, condition) WHERE status = 'firing';
      CREATE INDEX alerts_channel_started ON alerts (channel_id, started_at);
      CREATE TABLE monitor_state (
        key         TEXT    NOT NULL PRIMARY KEY,
        state       TEXT    NOT NULL CHECK (json_valid(state) AND json_type(state) = 'object'),
        updated_at  INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE leases (
        name   TEXT    NOT NULL PRIMARY KEY,
        owner  TEXT    NOT NULL,
        until  INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 8,
    name: 'known resources',
    // What the bot has seen of servers, groups and workers (issue 14): the API lists none, so
    // names resolve to ids from here. account '' is the default account (a plain unique key).
    up: `
      CREATE TABLE known_resources (
        account     TEXT    NOT NULL DEFAULT '',
        kind        TEXT    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          TEXT    NOT NULL,
        uuid        TEXT,
        name        TEXT,
        first_seen  INTEGER NOT NULL,
        last_seen   INTEGER NOT NULL,
        UNIQUE (account, kind, id)
      ) STRICT;
      CREATE INDEX known_resources_name ON known_resources (account, kind, lower(name));
    `,
  },
  {
    version: 9,
    name: 'aliases',
    // Saved commands (issue 14), one namespace per channel: roles and accounts are per channel,
    // so a word typed in a channel means what someone with a role there made it mean.
    up: `
      CREATE TABLE aliases (
        channel_id  TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        command     TEXT    NOT NULL,
        created_by  TEXT    NOT NULL,
        team_id     TEXT,
        created_at  INTEGER NOT NULL,
        PRIMARY KEY (channel_id, name)
      ) STRICT;
    `,
  },
  {
    version: 10,
    name: 'known names',
    // Several names per resource (issue 20): one per field (display name, hostname, reverse DNS,
    // sandbox seed), so one answer never overwrites a name another answer taught. The one name
    // kept so far moves here as a display name; where it came from was not recorded (via NULL).
    up: `
      CREATE TABLE known_names (
        account     TEXT    NOT NULL DEFAULT '',
        kind        TEXT    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          TEXT    NOT NULL,
        field       TEXT    NOT NULL CHECK (field IN ('name', 'hostname', 'rdns', 'seed')),
        name        TEXT    NOT NULL,
        via         TEXT,
        last_seen   INTEGER NOT NULL,
        PRIMARY KEY (account, kind, id, field)
      ) STRICT;
      CREATE INDEX known_names_name ON known_names (account, kind, lower(name));
      INSERT INTO known_names (account, kind, id, field, name, via, last_seen)
        SELECT account, kind, id, 'name', name, NULL, last_seen FROM known_resources WHERE name IS NOT NULL;
      DROP INDEX known_resources_name;
      ALTER TABLE known_resources DROP COLUMN name;
    `,
  },
];

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

const LEDGER = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    version     INTEGER NOT NULL PRIMARY KEY,
    name        TEXT    NOT NULL,
    applied_at  INTEGER NOT NULL
  ) STRICT
`;

function checkOrder(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new MigrationError(`Migration list is out of order: entry ${i} ("${m.name}") has version ${m.version}, expected ${i + 1}.`);
    }
  });
}

/** The highest version recorded in the database (0 for a fresh one). */
export function schemaVersion(db: Database): number {
  db.exec(LEDGER);
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Applies pending migrations, each in its own IMMEDIATE transaction (so two processes starting
 * together do not both apply one: the loser finds it recorded and skips it). Idempotent.
 * Refuses a database whose version is newer than this code knows. Returns the versions applied.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, now: () => number = Date.now): number[] {
  checkOrder(migrations);
  const known = migrations.length;
  const current = schemaVersion(db);
  if (current > known) {
    const file = db.name === ':memory:' ? 'The in-memory database' : `The database at ${db.name}`;
    throw new MigrationError(
      `${file} is at schema version ${current}, newer than this cloudbot knows (${known}). ` +
        'It was written by a newer release: upgrade cloudbot, or point DATABASE_URL at another file. ' +
        'Refusing to start rather than risk damaging it.',
    );
  }

  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').pluck();
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const applied: number[] = [];
  for (const m of migrations.slice(current)) {
    const apply = db.transaction(() => {
      if (isApplied.get(m.version) !== undefined) return false;
      db.exec(m.up);
      record.run(m.version, m.name, now());
      return true;
    });
    try {
      if (apply.immediate()) applied.push(m.version);
    } catch (err) {
      throw new MigrationError(`Migration ${m.version} ("${m.name}") failed: ${(err as Error).message}`, { cause: err });
    }
  }
  return applied;
}
