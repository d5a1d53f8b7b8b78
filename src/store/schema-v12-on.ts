/**
 * Migrations 12 on: workflow steps (issue 23), schedules, maintenance windows and the undo
 * window (issue 25), known addresses (issue 23), new in this release; once it ships they too
 * are never edited.
 */

import type { SchemaMigration } from './ddl.js';

export const MIGRATIONS_V12_ON: readonly SchemaMigration[] = [
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
  {
    version: 17,
    name: 'maintenance summary lease',
    // A window's summary claim ends (summary_claimed_until) unless the summary was posted: a
    // replica stopped between claiming and posting no longer loses it. Claims made before this
    // migration keep no end, as they were.
    up: (d) => `
      ALTER TABLE maintenance_windows ADD COLUMN summary_claimed_until ${d.int};
    `,
  },
  {
    version: 18,
    name: 'watch reads that failed',
    // While a watch's polls fail: since when, and the latest failure, so a watch that reaches
    // its deadline unread says so rather than a state it could not see. NULL once a poll reads.
    up: (d) => `
      ALTER TABLE watches ADD COLUMN unread ${d.json} CHECK (unread IS NULL OR ${d.isObject('unread')});
    `,
  },
  {
    version: 19,
    name: 'alert edits owed',
    // An alert closed (resolved, or no longer watched) whose message Slack has not yet been
    // seen to show so: set by the same statement that closes it, cleared once Slack took the
    // edit or it was given up. The monitor tries the edit again at later passes, after a
    // restart too. Alerts closed before this migration are taken as shown.
    up: (d) => `
      ALTER TABLE alerts ADD COLUMN edit_owed ${d.int} NOT NULL DEFAULT 0 CHECK (edit_owed IN (0, 1));
      CREATE INDEX alerts_edit_owed ON alerts (resolved_at) WHERE edit_owed = 1;
    `,
  },
  {
    version: 20,
    name: 'digest posts owed',
    // The post of the day a digest claimed (last_run), while it is not yet seen in its channel:
    // 'unclear' (a try was sent, or may be on its way, with no answer saying whether it landed:
    // looked for in the channel before posting again) or 'failed' (it definitely did not land:
    // posted again); the tries made, when the next may start, and when the first started (the
    // look starts there). NULL once posted, found or given up. Days claimed before this
    // migration are taken as posted.
    up: (d) => `
      ALTER TABLE subscriptions ADD COLUMN run_owed ${d.text} CHECK (run_owed IS NULL OR run_owed IN ('unclear', 'failed'));
      ALTER TABLE subscriptions ADD COLUMN run_tries ${d.int} NOT NULL DEFAULT 0;
      ALTER TABLE subscriptions ADD COLUMN run_next_at ${d.int};
      ALTER TABLE subscriptions ADD COLUMN run_since ${d.int};
    `,
  },
];
