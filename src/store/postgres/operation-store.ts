/**
 * Operation records in PostgreSQL. Each state change is one conditional UPDATE: under READ
 * COMMITTED a second UPDATE of the same row waits for the first to commit and then re-checks
 * its WHERE against the new row, so of N concurrent claims (any connection, any replica)
 * exactly one matches.
 */
import type { Clock } from '../../clock.js';
import { newOperationId } from '../ids.js';
import { PATCH_COLUMN_NAMES, assertInteger, assertText, insertParams, patchParams, rowToRecord, type OperationRow } from '../operation-rows.js';
import { TERMINAL_STATUSES, type NewOperation, type OperationStore, type TransitionResult } from '../types.js';
import { run, type Queryable } from './sql.js';

const COLUMN_TYPES: Record<(typeof PATCH_COLUMN_NAMES)[number], string> = {
  confirmed_by: 'text',
  confirmed_at: 'bigint',
  approved_by: 'text',
  approved_at: 'bigint',
  finished_at: 'bigint',
  result: 'jsonb',
  error_code: 'text',
  error_message: 'text',
  sealed_secrets: 'text',
};

// jsonb comes back as text (see pool.ts), so SQLite's row mapping serves as it is.
const RETURNING = 'RETURNING *';
const SELECT = 'SELECT * FROM operations';

const patchSql = PATCH_COLUMN_NAMES.filter((c) => c !== 'sealed_secrets' && c !== 'finished_at')
  .map((c) => `${c} = CASE WHEN @set_${c}::int = 1 THEN @${c}::${COLUMN_TYPES[c]} ELSE ${c} END`)
  .join(',\n      ');

const COMPARE_AND_SET = `
  UPDATE operations SET
    status = @to,
    updated_at = @now,
    ${patchSql},
    sealed_secrets = CASE WHEN @terminal::int = 1 THEN NULL
                          WHEN @set_sealed_secrets::int = 1 THEN @sealed_secrets::text ELSE sealed_secrets END,
    finished_at = CASE WHEN @set_finished_at::int = 1 THEN @finished_at::bigint
                       WHEN @terminal::int = 1 THEN @now::bigint ELSE finished_at END
  WHERE id = @id
    AND status = ANY(@from::text[])
    AND (@require_unexpired::int = 0 OR expires_at > @now::bigint)
  ${RETURNING}`;


export function createPgOperationStore(db: () => Promise<Queryable>, clock: Pick<Clock, 'now'>): OperationStore {
  const byId = async (id: string) => (await run<OperationRow>(await db(), `${SELECT} WHERE id = @id`, { id }))[0];

  return {
    async create(input: NewOperation) {
      const params = insertParams(input, newOperationId(), clock.now());
      const dedupeKey = params.dedupe_key;
      const conn = await db();
      // A concurrent insert of the same key makes this one wait for it, then do nothing.
      const [row] = await run<OperationRow>(
        conn,
        `INSERT INTO operations (id, op_id, args, facts, sealed_secrets, status, requested_by, team_id, channel_id,
                                 dedupe_key, created_at, updated_at, expires_at, account)
         VALUES (@id, @op_id, @args::jsonb, @facts::jsonb, @sealed_secrets, 'pending', @requested_by, @team_id, @channel_id,
                 @dedupe_key, @now, @now, @expires_at, @account)
         ON CONFLICT (dedupe_key) DO NOTHING
         ${RETURNING}`,
        params,
      );
      if (row) return { record: rowToRecord(row), created: true };
      const [existing] = dedupeKey === null ? [] : await run<OperationRow>(conn, `${SELECT} WHERE dedupe_key = @k`, { k: dedupeKey });
      if (!existing) throw new Error('operation insert returned no row and no existing record');
      return { record: rowToRecord(existing), created: false };
    },

    async get(id) {
      const row = await byId(id);
      return row ? rowToRecord(row) : undefined;
    },

    async setMessage(id, channelId, messageTs) {
      assertText(channelId, 'channelId');
      assertText(messageTs, 'messageTs');
      const rows = await run(
        await db(),
        'UPDATE operations SET channel_id = @c, message_ts = @ts, updated_at = @now WHERE id = @id RETURNING id',
        { c: channelId, ts: messageTs, now: clock.now(), id },
      );
      if (rows.length === 0) throw new Error(`No operation ${id} to attach a message to`);
    },

    async transition(id, t): Promise<TransitionResult> {
      if (!Array.isArray(t.from) || t.from.length === 0) throw new TypeError('transition needs at least one `from` status');
      assertInteger(t.now, 'now');
      const [row] = await run<OperationRow>(await db(), COMPARE_AND_SET, {
        id,
        to: t.to,
        now: t.now,
        from: t.from,
        require_unexpired: t.requireUnexpired ? 1 : 0,
        terminal: TERMINAL_STATUSES.includes(t.to) ? 1 : 0,
        ...patchParams(t.patch ?? {}),
      });
      if (row) return { ok: true, record: rowToRecord(row) };
      // Read after the refusal: the state that beat us (or a later one), never an earlier one.
      const current = await byId(id);
      if (!current) return { ok: false, record: undefined, reason: 'not_found' };
      const record = rowToRecord(current);
      const inFrom = t.from.includes(record.status);
      const expired =
        (inFrom && t.requireUnexpired === true && record.expiresAt <= t.now) || (!inFrom && record.status === 'expired');
      return { ok: false, record, reason: expired ? 'expired' : 'wrong_status' };
    },

    async expireDue(now) {
      assertInteger(now, 'now');
      const rows = await run<OperationRow>(
        await db(),
        `UPDATE operations
            SET status = 'expired', sealed_secrets = NULL, updated_at = @now, finished_at = @now
          WHERE status = 'pending' AND expires_at <= @now
         ${RETURNING}`,
        { now },
      );
      return rows.map(rowToRecord).sort((a, b) => a.expiresAt - b.expiresAt || a.createdAt - b.createdAt);
    },

    async listUnfinished() {
      const rows = await run<OperationRow>(await db(), `${SELECT} WHERE status IN ('confirmed', 'running') ORDER BY created_at, seq`);
      return rows.map(rowToRecord);
    },

    async listRecent({ limit, requestedBy }) {
      const n = Math.max(0, Math.min(Math.trunc(limit), 1000));
      if (!Number.isFinite(n) || n === 0) return [];
      const rows =
        requestedBy === undefined
          ? await run<OperationRow>(await db(), `${SELECT} ORDER BY created_at DESC, seq DESC LIMIT @n`, { n })
          : await run<OperationRow>(await db(), `${SELECT} WHERE requested_by = @r ORDER BY created_at DESC, seq DESC LIMIT @n`, {
              r: requestedBy,
              n,
            });
      return rows.map(rowToRecord);
    },
  };
}
