/**
 * The schema, written once: numbered migrations, each a function of the dialect's column types
 * (`Ddl`), so SQLite and PostgreSQL get the same tables, versions and names. Append new ones with
 * the next version; never edit one that has shipped. Both ledgers (schema_migrations) count
 * these versions. PostgreSQL: times are bigint epoch ms, JSON is jsonb, and `seq` keeps
 * insertion order for ties (SQLite's rowid); constraints carry the names the stores test for.
 */

export interface Migration {
  version: number;
  name: string;
  /** SQL, run as one script inside the migration's transaction. */
  up: string;
}

/** The column types and clauses where the dialects differ. */
export interface Ddl {
  text: string;
  int: string;
  json: string;
  /** A CHECK that a JSON column holds an object (parenthesised). */
  isObject(column: string): string;
  /** An integer key drawn in insertion order. */
  autoId: string;
  /** PostgreSQL's insertion-order column (a leading column definition), '' on SQLite. */
  seq: string;
  /** Table option: SQLite STRICT typing. */
  strict: string;
  /** `CONSTRAINT name ` on PostgreSQL (its stores look for the name), '' on SQLite. */
  named(name: string): string;
}

export interface SchemaMigration {
  version: number;
  name: string;
  up: (d: Ddl) => string;
}

export const SQLITE_DDL: Ddl = {
  text: 'TEXT',
  int: 'INTEGER',
  json: 'TEXT',
  isObject: (c) => `(json_valid(${c}) AND json_type(${c}) = 'object')`,
  autoId: 'INTEGER PRIMARY KEY AUTOINCREMENT',
  seq: '',
  strict: ' STRICT',
  named: () => '',
};

export const POSTGRES_DDL: Ddl = {
  text: 'text',
  int: 'bigint',
  json: 'jsonb',
  isObject: (c) => `(jsonb_typeof(${c}) = 'object')`,
  autoId: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
  seq: '\n        seq bigint GENERATED ALWAYS AS IDENTITY,',
  strict: '',
  named: (name) => `CONSTRAINT ${name} `,
};

export const SCHEMA: readonly SchemaMigration[] = [
  {
    version: 1,
    name: 'operations',
    up: (d) => `
      CREATE TABLE operations (${d.seq}
        id              ${d.text}    NOT NULL PRIMARY KEY,
        op_id           ${d.text}    NOT NULL,
        args            ${d.json}    NOT NULL CHECK ${d.isObject('args')},
        sealed_secrets  ${d.text},
        status          ${d.text}    NOT NULL CHECK (status IN
                          ('pending', 'confirmed', 'running', 'succeeded', 'failed', 'cancelled', 'expired')),
        requested_by    ${d.text}    NOT NULL,
        team_id         ${d.text},
        channel_id      ${d.text}    NOT NULL,
        message_ts      ${d.text},
        dedupe_key      ${d.text},
        created_at      ${d.int} NOT NULL,
        updated_at      ${d.int} NOT NULL,
        expires_at      ${d.int} NOT NULL,
        confirmed_by    ${d.text},
        confirmed_at    ${d.int},
        approved_by     ${d.text},
        approved_at     ${d.int},
        finished_at     ${d.int},
        result          ${d.json}    CHECK (result IS NULL OR ${d.isObject('result')}),
        error_code      ${d.text},
        error_message   ${d.text},
        ${d.named('operations_dedupe_key')}UNIQUE (dedupe_key)
      )${d.strict};
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
    up: (d) => `
      ALTER TABLE operations ADD COLUMN facts ${d.json} NOT NULL DEFAULT '{}'
        CHECK ${d.isObject('facts')};
    `,
  },
  {
    version: 3,
    name: 'watches',
    // Durable watches: a restart resumes every active one from here (issue: durable watches).
    up: (d) => `
      CREATE TABLE watches (${d.seq}
        id            ${d.text}    NOT NULL ${d.named('watches_pkey')}PRIMARY KEY,
        kind          ${d.text}    NOT NULL CHECK (kind IN ('worker', 'server')),
        resource      ${d.text}    NOT NULL,
        operation_id  ${d.text}    REFERENCES operations (id),
        channel_id    ${d.text}    NOT NULL,
        thread_ts     ${d.text},
        requested_by  ${d.text}    NOT NULL,
        status        ${d.text}    NOT NULL CHECK (status IN ('active', 'finalizing', 'done', 'expired', 'cancelled', 'gone')),
        state         ${d.json}    CHECK (state IS NULL OR ${d.isObject('state')}),
        outcome       ${d.text},
        polls         ${d.int} NOT NULL DEFAULT 0,
        interval_ms   ${d.int} NOT NULL,
        started_at    ${d.int} NOT NULL,
        deadline_at   ${d.int} NOT NULL,
        next_poll_at  ${d.int} NOT NULL,
        updated_at    ${d.int} NOT NULL,
        final_ts      ${d.text}
      )${d.strict};
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
    up: (d) => `
      CREATE TABLE audit (
        id            ${d.autoId},
        at            ${d.int} NOT NULL,
        user_id       ${d.text}    NOT NULL,
        channel_id    ${d.text},
        op_id         ${d.text}    NOT NULL,
        tier          ${d.text}    NOT NULL CHECK (tier IN ('read', 'change', 'billing', 'destroy', 'secret')),
        args          ${d.json}    NOT NULL CHECK ${d.isObject('args')},
        outcome       ${d.text}    NOT NULL CHECK (outcome IN
                        ('succeeded', 'failed', 'refused', 'requested', 'cancelled', 'expired')),
        error_code    ${d.text},
        confirmed_by  ${d.text},
        approved_by   ${d.text},
        operation_id  ${d.text},
        duration_ms   ${d.int} CHECK (duration_ms IS NULL OR duration_ms >= 0),
        detail        ${d.text}
      )${d.strict};
      CREATE INDEX audit_at ON audit (at);
      CREATE INDEX audit_user_at ON audit (user_id, at);
    `,
  },
  {
    version: 5,
    name: 'watch leases',
    // Replicas share the watches: each is polled by the replica holding its lease until
    // lease_until (epoch ms); a dead replica's watches are claimed by another once it expires.
    up: (d) => `
      ALTER TABLE watches ADD COLUMN lease_owner ${d.text};
      ALTER TABLE watches ADD COLUMN lease_until ${d.int};
    `,
  },
  {
    version: 6,
    name: 'accounts',
    // Several named cloud accounts (issue 12): what each row acts on. NULL is the default
    // account, which is also what every row written before this migration meant.
    up: (d) => `
      ALTER TABLE operations ADD COLUMN account ${d.text};
      ALTER TABLE watches ADD COLUMN account ${d.text};
      ALTER TABLE audit ADD COLUMN account ${d.text};
    `,
  },
  {
    version: 7,
    name: 'monitor',
    // Proactive notifications (issue 13). The partial unique indexes make `add` and `open`
    // idempotent under races: one active subscription per target, one firing alert per condition.
    up: (d) => `
      CREATE TABLE subscriptions (${d.seq}
        id           ${d.text}    NOT NULL ${d.named('subscriptions_pkey')}PRIMARY KEY,
        channel_id   ${d.text}    NOT NULL,
        account      ${d.text},
        kind         ${d.text}    NOT NULL CHECK (kind IN ('server', 'worker', 'usage', 'invoices', 'digest')),
        resource     ${d.text}    NOT NULL,
        params       ${d.json}    NOT NULL CHECK ${d.isObject('params')},
        created_by   ${d.text}    NOT NULL,
        created_at   ${d.int} NOT NULL,
        muted_until  ${d.int},
        removed_at   ${d.int},
        last_run     ${d.text}
      )${d.strict};
      CREATE UNIQUE INDEX subscriptions_active ON subscriptions (channel_id, COALESCE(account, ''), kind, resource)
        WHERE removed_at IS NULL;
      CREATE TABLE alerts (${d.seq}
        id               ${d.text}    NOT NULL ${d.named('alerts_pkey')}PRIMARY KEY,
        subscription_id  ${d.text}    NOT NULL REFERENCES subscriptions (id),
        channel_id       ${d.text}    NOT NULL,
        condition        ${d.text}    NOT NULL,
        status           ${d.text}    NOT NULL CHECK (status IN ('firing', 'resolved')),
        message_ts       ${d.text},
        started_at       ${d.int} NOT NULL,
        resolved_at      ${d.int},
        detail           ${d.json}    NOT NULL CHECK ${d.isObject('detail')}
      )${d.strict};
      CREATE UNIQUE INDEX alerts_firing ON alerts (subscription_id, condition) WHERE status = 'firing';
      CREATE INDEX alerts_channel_started ON alerts (channel_id, started_at);
      CREATE TABLE monitor_state (
        key         ${d.text}    NOT NULL PRIMARY KEY,
        state       ${d.json}    NOT NULL CHECK ${d.isObject('state')},
        updated_at  ${d.int} NOT NULL
      )${d.strict};
      CREATE TABLE leases (
        name   ${d.text}    NOT NULL PRIMARY KEY,
        owner  ${d.text}    NOT NULL,
        until  ${d.int} NOT NULL
      )${d.strict};
    `,
  },
  {
    version: 8,
    name: 'known resources',
    // What the bot has seen of servers, groups and workers (issue 14): the API lists none, so
    // names resolve to ids from here. account '' is the default account (a plain unique key).
    up: (d) => `
      CREATE TABLE known_resources (
        account     ${d.text}    NOT NULL DEFAULT '',
        kind        ${d.text}    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          ${d.text}    NOT NULL,
        uuid        ${d.text},
        name        ${d.text},
        first_seen  ${d.int} NOT NULL,
        last_seen   ${d.int} NOT NULL,
        ${d.named('known_resources_key')}UNIQUE (account, kind, id)
      )${d.strict};
      CREATE INDEX known_resources_name ON known_resources (account, kind, lower(name));
    `,
  },
  {
    version: 9,
    name: 'aliases',
    // Saved commands (issue 14), one namespace per channel: roles and accounts are per channel,
    // so a word typed in a channel means what someone with a role there made it mean.
    up: (d) => `
      CREATE TABLE aliases (
        channel_id  ${d.text}    NOT NULL,
        name        ${d.text}    NOT NULL,
        command     ${d.text}    NOT NULL,
        created_by  ${d.text}    NOT NULL,
        team_id     ${d.text},
        created_at  ${d.int} NOT NULL,
        ${d.named('aliases_pkey')}PRIMARY KEY (channel_id, name)
      )${d.strict};
    `,
  },
  {
    version: 10,
    name: 'known names',
    // Several names per resource (issue 20): one per field (display name, hostname, reverse DNS,
    // sandbox seed), so one answer never overwrites a name another answer taught. The one name
    // kept so far moves here as a display name; where it came from was not recorded (via NULL).
    up: (d) => `
      CREATE TABLE known_names (
        account     ${d.text}    NOT NULL DEFAULT '',
        kind        ${d.text}    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          ${d.text}    NOT NULL,
        field       ${d.text}    NOT NULL CHECK (field IN ('name', 'hostname', 'rdns', 'seed')),
        name        ${d.text}    NOT NULL,
        via         ${d.text},
        last_seen   ${d.int} NOT NULL,
        ${d.named('known_names_pkey')}PRIMARY KEY (account, kind, id, field)
      )${d.strict};
      CREATE INDEX known_names_name ON known_names (account, kind, lower(name));
      INSERT INTO known_names (account, kind, id, field, name, via, last_seen)
        SELECT account, kind, id, 'name', name, NULL, last_seen FROM known_resources WHERE name IS NOT NULL;
      DROP INDEX known_resources_name;
      ALTER TABLE known_resources DROP COLUMN name;
    `,
  },
  {
    version: 11,
    name: 'deliveries',
    // Slack deliveries taken (issue 21 item 6), shared by replicas: a retry that reaches another
    // replica is known there. Kept a while longer than Slack retries; expired rows are pruned.
    up: (d) => `
      CREATE TABLE deliveries (
        key         ${d.text}    NOT NULL PRIMARY KEY,
        taken_at    ${d.int} NOT NULL,
        expires_at  ${d.int} NOT NULL
      )${d.strict};
      CREATE INDEX deliveries_expires ON deliveries (expires_at);
    `,
  },
  {
    version: 12,
    name: 'workflow steps',
    // Workflow Builder steps waiting on a person or a watch (issue 23), one row per
    // function_execution_id: a retried function_executed finds its row, and the step's one
    // completion is claimed (running → completing) before functions.completeSuccess/Error is
    // called. Leased like watches, so a dead replica's step is finished by another.
    up: (d) => `
      CREATE TABLE steps (${d.seq}
        execution_id  ${d.text}    NOT NULL ${d.named('steps_pkey')}PRIMARY KEY,
        callback_id   ${d.text}    NOT NULL,
        workflow      ${d.text},
        channel_id    ${d.text},
        requested_by  ${d.text},
        inputs        ${d.json}    NOT NULL CHECK ${d.isObject('inputs')},
        status        ${d.text}    NOT NULL CHECK (status IN ('running', 'completing', 'done')),
        operation_id  ${d.text},
        outcome       ${d.text}    CHECK (outcome IN ('success', 'error')),
        outputs       ${d.json},
        error         ${d.text},
        created_at    ${d.int} NOT NULL,
        updated_at    ${d.int} NOT NULL,
        next_check_at ${d.int} NOT NULL,
        lease_owner   ${d.text},
        lease_until   ${d.int}
      )${d.strict};
      CREATE INDEX steps_due ON steps (status, next_check_at);
    `,
  },
  {
    version: 13,
    name: 'schedules',
    // Schedules (issue 25): the command as typed, run later as its creator. A run is claimed per
    // occurrence (primary key schedule_id + occurrence), so of replicas racing, or a replica and
    // one restarted after a crash, one runs it; a run left `running` past its lease is taken over
    // (the change flow's dedupe key then keeps a mutation from being sent twice).
    up: (d) => `
      CREATE TABLE schedules (${d.seq}
        id              ${d.text}    NOT NULL PRIMARY KEY,
        channel_id      ${d.text}    NOT NULL,
        team_id         ${d.text},
        created_by      ${d.text}    NOT NULL,
        command         ${d.text}    NOT NULL,
        op_id           ${d.text}    NOT NULL,
        when_kind       ${d.text}    NOT NULL CHECK (when_kind IN ('cron', 'once')),
        when_expr       ${d.text}    NOT NULL,
        when_text       ${d.text}    NOT NULL,
        tz              ${d.text}    NOT NULL,
        keep            ${d.int},
        status          ${d.text}    NOT NULL CHECK (status IN ('pending', 'active', 'done', 'cancelled')),
        confirm_record  ${d.text},
        next_at         ${d.int},
        last_at         ${d.int},
        last_result     ${d.text},
        created_at      ${d.int} NOT NULL,
        updated_at      ${d.int} NOT NULL
      )${d.strict};
      CREATE INDEX schedules_due ON schedules (status, next_at);
      CREATE INDEX schedules_channel ON schedules (channel_id, status);
      CREATE TABLE schedule_runs (
        schedule_id     ${d.text}    NOT NULL,
        occurrence      ${d.int} NOT NULL,
        status          ${d.text}    NOT NULL CHECK (status IN ('running', 'done', 'skipped')),
        owner           ${d.text}    NOT NULL,
        lease_until     ${d.int} NOT NULL,
        started_at      ${d.int} NOT NULL,
        finished_at     ${d.int},
        result          ${d.text},
        ${d.named('schedule_runs_pkey')}PRIMARY KEY (schedule_id, occurrence)
      )${d.strict};
      CREATE INDEX schedule_runs_open ON schedule_runs (status, lease_until);
    `,
  },
  {
    version: 14,
    name: 'maintenance windows',
    // Planned work (issue 25 item 3): alerts for the resources stay quiet until ends_at; one
    // replica claims the end (summary_claimed_by) so the summary is posted once.
    up: (d) => `
      CREATE TABLE maintenance_windows (${d.seq}
        id            ${d.text}    NOT NULL ${d.named('maintenance_windows_pkey')}PRIMARY KEY,
        channel_id    ${d.text}    NOT NULL,
        account       ${d.text},
        kind          ${d.text}    NOT NULL CHECK (kind IN ('server', 'worker', 'account')),
        resource      ${d.text}    NOT NULL,
        created_by    ${d.text}    NOT NULL,
        created_at    ${d.int} NOT NULL,
        starts_at     ${d.int} NOT NULL,
        ends_at       ${d.int} NOT NULL,
        ended_at      ${d.int},
        ended_by      ${d.text},
        muted         ${d.json}    NOT NULL DEFAULT '{}' CHECK ${d.isObject('muted')},
        summary_claimed_by  ${d.text},
        summary_ts    ${d.text}
      )${d.strict};
      CREATE INDEX maintenance_windows_open ON maintenance_windows (ended_at, ends_at);
    `,
  },
  {
    version: 15,
    name: 'undo window',
    // A destroy confirmed in a channel with an undo delay (issue 25 item 4) waits, confirmed,
    // until send_at; the delay survives a restart because it lives here, not in a timer.
    up: (d) => `
      ALTER TABLE operations ADD COLUMN send_at ${d.int};
    `,
  },
  {
    version: 16,
    name: 'known addresses',
    // A server's IP addresses as names (issue 23 "Act on this": "185.10.20.11 is down"). A server
    // has several, so a name is now keyed by its value too; the store keeps "an answer replaces
    // the names of its fields". A CHECK cannot be altered on SQLite: the table is rebuilt.
    up: (d) => `
      CREATE TABLE known_names_v15 AS SELECT account, kind, id, field, name, via, last_seen FROM known_names;
      DROP TABLE known_names;
      CREATE TABLE known_names (
        account     ${d.text}    NOT NULL DEFAULT '',
        kind        ${d.text}    NOT NULL CHECK (kind IN ('server', 'sg', 'worker')),
        id          ${d.text}    NOT NULL,
        field       ${d.text}    NOT NULL CHECK (field IN ('name', 'hostname', 'rdns', 'seed', 'ip')),
        name        ${d.text}    NOT NULL,
        via         ${d.text},
        last_seen   ${d.int} NOT NULL,
        ${d.named('known_names_pkey')}PRIMARY KEY (account, kind, id, field, name)
      )${d.strict};
      CREATE INDEX known_names_name ON known_names (account, kind, lower(name));
      INSERT INTO known_names (account, kind, id, field, name, via, last_seen)
        SELECT account, kind, id, field, name, via, last_seen FROM known_names_v15;
      DROP TABLE known_names_v15;
    `,
  },
];

/** The list in one dialect, as the migration runners take it. */
export const migrationsFor = (d: Ddl): Migration[] => SCHEMA.map((m) => ({ version: m.version, name: m.name, up: m.up(d) }));
