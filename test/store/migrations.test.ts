import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, MigrationError, migrate, schemaVersion } from '../../src/store/index.js';
import type { Migration } from '../../src/store/index.js';
import { tempStores } from './helpers.js';

let t: ReturnType<typeof tempStores>;
beforeEach(() => {
  t = tempStores();
});
afterEach(async () => {
  await t.cleanup();
});

function raw(path: string) {
  return new Database(path);
}

describe('opening a database', () => {
  it('creates the missing folders and applies every migration to a fresh file', async () => {
    const path = join(t.dir, 'deep', 'er', 'data', 'cloudbot.db');
    const store = t.open(path);
    expect(existsSync(path)).toBe(true);
    await store.close();

    const db = raw(path);
    try {
      const rows = db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all();
      expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
      const indexes = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'operations' AND sql IS NOT NULL")
        .pluck()
        .all();
      expect(indexes).toEqual(expect.arrayContaining(['operations_status_expires', 'operations_requester_created']));
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'operations'").pluck().get()).toMatch(/STRICT/);
    } finally {
      db.close();
    }
  });

  it('is in WAL mode, with the -wal file beside the database while open', async () => {
    const path = t.file();
    const store = t.open(path);
    await store.operations.create({
      opId: 'x.y',
      args: {},
      requestedBy: 'U',
      channelId: 'C',
      expiresAt: 1,
    });
    expect(existsSync(`${path}-wal`)).toBe(true);
    const db = raw(path);
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
    }
  });

  it('re-opening is a no-op: nothing re-applied, applied_at unchanged', async () => {
    const path = t.file();
    await t.open(path).close();
    const before = raw(path);
    const ledger = before.prepare('SELECT * FROM schema_migrations').all();
    before.close();

    await t.open(path).close();
    const after = raw(path);
    try {
      expect(after.prepare('SELECT * FROM schema_migrations').all()).toEqual(ledger);
      expect(migrate(after)).toEqual([]);
    } finally {
      after.close();
    }
  });

  it('refuses a database written by a newer release, with a clear message', async () => {
    const path = t.file();
    await t.open(path).close();
    const db = raw(path);
    db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
      MIGRATIONS.length + 41,
      'from the future',
      0,
    );
    db.close();

    let err: unknown;
    try {
      t.open(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MigrationError);
    expect((err as Error).message).toMatch(
      new RegExp(`schema version ${MIGRATIONS.length + 41}, newer than this cloudbot knows \\(${MIGRATIONS.length}\\)`),
    );
    expect((err as Error).message).toMatch(/upgrade cloudbot, or point DATABASE_URL at another file/);
  });

  it('works in memory', async () => {
    const store = t.open(':memory:');
    const { record } = await store.operations.create({
      opId: 'x.y',
      args: {},
      requestedBy: 'U',
      channelId: 'C',
      expiresAt: 1,
    });
    expect(await store.operations.get(record.id)).toEqual(record);
  });
});

describe('migrate', () => {
  const extra: Migration = {
    version: MIGRATIONS.length + 1,
    name: 'example',
    up: 'CREATE TABLE example_later (id TEXT PRIMARY KEY) STRICT;',
  };

  it('applies only the new migration to an existing database', () => {
    const db = raw(t.file());
    try {
      expect(migrate(db)).toEqual(MIGRATIONS.map((m) => m.version));
      expect(migrate(db, [...MIGRATIONS, extra])).toEqual([extra.version]);
      expect(schemaVersion(db)).toBe(extra.version);
      expect(migrate(db, [...MIGRATIONS, extra])).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('rolls a failing migration back entirely and names it', () => {
    const db = raw(t.file());
    try {
      migrate(db);
      const broken: Migration = {
        version: MIGRATIONS.length + 1,
        name: 'half-done',
        up: 'CREATE TABLE half (id TEXT) STRICT; INSERT INTO no_such_table VALUES (1);',
      };
      expect(() => migrate(db, [...MIGRATIONS, broken])).toThrow(/Migration \d+ \("half-done"\) failed: .*no_such_table/);
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('refuses a list with gaps or out of order', () => {
    const db = raw(':memory:');
    try {
      expect(() => migrate(db, [{ ...extra, version: 2 }])).toThrow(/out of order.*expected 1/);
    } finally {
      db.close();
    }
  });

  it('migration 6 (accounts) adds a nullable account to operations, watches and audit; older rows read it as null', async () => {
    expect(MIGRATIONS[5]).toMatchObject({ version: 6, name: 'accounts' });
    const path = t.file();
    const db = raw(path);
    try {
      expect(migrate(db, MIGRATIONS.slice(0, 5))).toEqual([1, 2, 3, 4, 5]);
      db.exec(`
        INSERT INTO operations (id, op_id, args, status, requested_by, channel_id, created_at, updated_at, expires_at)
        VALUES ('op_AAAAAAAAAAAAAAAA', 'server.reinstall', '{}', 'pending', 'U', 'C', 1, 1, 2);
        INSERT INTO watches (id, kind, resource, operation_id, channel_id, requested_by, status, interval_ms,
                             started_at, deadline_at, next_poll_at, updated_at)
        VALUES ('wAAAAAAAA', 'server', 'srv-1', 'op_AAAAAAAAAAAAAAAA', 'C', 'U', 'active', 1000, 1, 2, 1, 1);
        INSERT INTO audit (at, user_id, op_id, tier, args, outcome) VALUES (1, 'U', 'server.reinstall', 'destroy', '{}', 'requested');
      `);
    } finally {
      db.close();
    }

    const store = t.open(path); // migrates to the newest version
    expect(await store.operations.get('op_AAAAAAAAAAAAAAAA')).toMatchObject({ opId: 'server.reinstall', account: null });
    expect(await store.watches.get('wAAAAAAAA')).toMatchObject({ resource: 'srv-1', account: null });
    expect(await store.audit.list({ limit: 10 })).toEqual([expect.objectContaining({ outcome: 'requested', account: null })]);
    const { record } = await store.operations.create({ opId: 'x.y', args: {}, requestedBy: 'U', channelId: 'C', expiresAt: 3, account: 'acme-staging' });
    expect(await store.operations.get(record.id)).toMatchObject({ account: 'acme-staging' });
    await store.close();

    const after = raw(path);
    try {
      expect(schemaVersion(after)).toBe(MIGRATIONS.length); // 6, and every later one
      for (const table of ['operations', 'watches', 'audit']) {
        const column = after.prepare(`SELECT type, "notnull", dflt_value FROM pragma_table_info('${table}') WHERE name = 'account'`).get();
        expect(column).toEqual({ type: 'TEXT', notnull: 0, dflt_value: null });
      }
    } finally {
      after.close();
    }
  });

  it('migration 10 (known names) keeps each name seen so far, as a display name', async () => {
    expect(MIGRATIONS[9]).toMatchObject({ version: 10, name: 'known names' });
    const path = t.file();
    const db = raw(path);
    try {
      expect(migrate(db, MIGRATIONS.slice(0, 9))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      db.exec(`
        INSERT INTO known_resources (account, kind, id, uuid, name, first_seen, last_seen) VALUES
          ('prod', 'server', '101', NULL, 'web-1.example.net', 1, 5), ('', 'sg', '7', NULL, NULL, 2, 3);
      `);
    } finally {
      db.close();
    }
    const store = t.open(path); // migrates to the newest version
    expect(await store.known.find('prod', 'server', 'web-1.example.net')).toEqual([
      expect.objectContaining({ id: '101', name: 'web-1.example.net', names: [{ name: 'web-1.example.net', field: 'name', via: null, lastSeen: 5 }], firstSeen: 1, lastSeen: 5 }),
    ]);
    expect(await store.known.list(null, 'sg', 10)).toEqual([expect.objectContaining({ id: '7', name: null, names: [] })]);
    await store.close();
  });

  it('migration 16 (known addresses) keeps every name, and then holds several addresses of a server', async () => {
    expect(MIGRATIONS[15]).toMatchObject({ version: 16, name: 'known addresses' });
    const path = t.file();
    const db = raw(path);
    try {
      expect(migrate(db, MIGRATIONS.slice(0, 15))).toHaveLength(15);
      db.exec(`
        INSERT INTO known_resources (account, kind, id, uuid, first_seen, last_seen) VALUES ('prod', 'server', '101', NULL, 1, 5);
        INSERT INTO known_names (account, kind, id, field, name, via, last_seen) VALUES
          ('prod', 'server', '101', 'name', 'web-1', 'server rename', 4), ('prod', 'server', '101', 'rdns', 'web-1.example.net', 'server ips', 5);
      `);
      expect(() => db.exec(`INSERT INTO known_names (account, kind, id, field, name, last_seen) VALUES ('prod', 'server', '101', 'ip', '185.10.20.11', 5)`)).toThrow(/CHECK/);
    } finally {
      db.close();
    }
    const store = t.open(path); // migrates to the newest version
    await store.known.remember('prod', [{ kind: 'server', id: '101', name: '185.10.20.11', field: 'ip' }, { kind: 'server', id: '101', name: '2a0c:8c0:1::11', field: 'ip' }], 6);
    const [row] = await store.known.list('prod', 'server', 10);
    expect(row!.names.map((n) => `${n.field} ${n.name} ${n.via}`)).toEqual(['name web-1 server rename', 'rdns web-1.example.net server ips', 'ip 185.10.20.11 null', 'ip 2a0c:8c0:1::11 null']);
    await store.close();
    const after = raw(path);
    try {
      expect(() => after.exec(`INSERT INTO known_names (account, kind, id, field, name, last_seen) VALUES ('prod', 'server', '101', 'mac', 'x', 5)`)).toThrow(/CHECK/);
    } finally {
      after.close();
    }
  });

  it('migration 20 (digest posts owed) takes days claimed before it as posted, and holds only a known outcome', async () => {
    expect(MIGRATIONS[19]).toMatchObject({ version: 20, name: 'digest posts owed' });
    const path = t.file();
    const db = raw(path);
    try {
      expect(migrate(db, MIGRATIONS.slice(0, 19))).toHaveLength(19);
      db.exec(`
        INSERT INTO subscriptions (id, channel_id, account, kind, resource, params, created_by, created_at, last_run)
          VALUES ('sub_aaaaaaaaaa', 'C_OPS', NULL, 'digest', '', '{"at":"09:00","tz":"UTC"}', 'U1', 1, '2026-11-22');
      `);
    } finally {
      db.close();
    }
    const store = t.open(path); // migrates to the newest version
    expect(await store.subscriptions.get('sub_aaaaaaaaaa')).toMatchObject({ lastRun: '2026-11-22', runOwed: null });
    expect(await store.subscriptions.claimRun('sub_aaaaaaaaaa', '2026-11-22', { now: 5, until: 6 })).toBe(false);
    expect(await store.subscriptions.claimRun('sub_aaaaaaaaaa', '2026-11-23', { now: 5, until: 6 })).toBe(true);
    await store.close();
    const after = raw(path);
    try {
      expect(() => after.exec(`UPDATE subscriptions SET run_owed = 'lost'`)).toThrow(/CHECK/);
    } finally {
      after.close();
    }
  });

  it('the shipped list is numbered 1..n', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
  });
});
